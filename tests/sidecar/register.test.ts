import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { buildRegister } from "../../catalogue/register/build.ts";
import type { RegisterT } from "../../catalogue/schema/index.ts";
import { BANK_LEI, BANK_REQUEST } from "../fixtures/register-bank.ts";
import { build, expectError, postJson, realCatalogue } from "../helpers/app.ts";

const SMALL = {
  approvedServiceIds: ["aws-s3", "azure-blob-storage", "ovhcloud-object-storage"],
  allowedLocations: ["EU"],
  to: { jurisdictions: ["EU"] },
  entity: { lei: BANK_LEI, referenceDate: "2026-12-31", arrangements: { aws: "CTR-1" } },
};

describe("POST /v1/register", () => {
  it("answers the register buildRegister makes, in the relaxed bucket, not cached", async () => {
    const app = await build();
    const response = await app.inject(postJson("/v1/register", BANK_REQUEST));
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-ratelimit-limit"]).toBe("30");
    expect(response.headers["cache-control"]).toBe("no-store");
    const register = response.json() as RegisterT;
    expect({ ...register, exitPlan: "" }).toEqual({
      ...buildRegister(realCatalogue(), {
        ids: BANK_REQUEST.approvedServiceIds,
        allowedLocations: BANK_REQUEST.allowedLocations,
        to: BANK_REQUEST.to,
        entity: BANK_REQUEST.entity,
        exitPlanAt: "",
      }),
      exitPlan: "",
    });
  });

  it("answers the page, a template's CSV and the report package by ?format or Accept", async () => {
    const app = await build();
    const md = await app.inject(postJson("/v1/register?format=md", SMALL));
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(md.body).toMatch(/^# DORA register\n/);
    expect(md.body).toContain("## Checks the supervisors run");
    expect(md.body).toContain("## What remains to fill");
    const byAccept = await app.inject(postJson("/v1/register", SMALL, { accept: "text/markdown" }));
    expect(byAccept.body).toBe(md.body);

    const csv = await app.inject(postJson("/v1/register?format=csv&template=b_07.01", SMALL));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="b_07.01.csv"');
    expect(csv.body.split("\r\n")[0]).toBe("c0010,c0020,c0030,c0040,c0050,c0060,c0070,c0080,c0090,c0100,c0110,c0120");
    const noTemplate = expectError(await app.inject(postJson("/v1/register?format=csv", SMALL)), 400);
    expect(noTemplate.details).toMatch(/template=b_05\.01/);

    for (const request of [
      postJson("/v1/register?format=zip", SMALL),
      postJson("/v1/register", SMALL, { accept: "application/zip" }),
    ]) {
      const zip = await app.inject(request);
      expect(zip.statusCode).toBe(200);
      expect(zip.headers["content-type"]).toBe("application/zip");
      expect(zip.headers["content-disposition"]).toBe('attachment; filename="dora-register-2026-12-31.zip"');
      const files = unzipSync(new Uint8Array(zip.rawPayload));
      expect(Object.keys(files).sort()).toEqual(
        [
          "META-INF/reportPackage.json",
          "reports/FilingIndicators.csv",
          "reports/b_02.02.csv",
          "reports/b_05.01.csv",
          "reports/b_05.02.csv",
          "reports/b_07.01.csv",
          "reports/parameters.csv",
          "reports/report.json",
        ].map((name) => `dora-register-2026-12-31/${name}`),
      );
      expect(strFromU8(files["dora-register-2026-12-31/reports/parameters.csv"]!)).toContain(
        `entityID,rs:${BANK_LEI}.IND`,
      );
    }
  });

  it("refuses what it cannot answer, each with the Error shape and what to change", async () => {
    const app = await build();
    const cases: [unknown, string, RegExp][] = [
      [{ ...SMALL, approvedServiceIds: ["aws-s4"] }, "Unknown service ids", /aws-s4/],
      [{ ...SMALL, entity: { lei: "EXAMPLEBANK000000015" } }, "Invalid register request", /check digits/],
      [{ ...SMALL, entity: { lei: "example" } }, "Invalid body", /LEI/],
      [{ ...SMALL, entity: { functions: { "gcp-bigquery": "F" } } }, "Invalid register request", /gcp-bigquery/],
      [{ ...SMALL, entity: { arrangements: { gcp: "X" } } }, "Invalid register request", /gcp/],
      [{ ...SMALL, allowedLocations: ["atlantis"] }, "Unknown locations", /atlantis/],
      [{ ...SMALL, to: { providers: ["nope"] } }, "Unknown provider ids", /nope/],
      [{ ...SMALL, entty: {} }, "Invalid body", /did you mean "entity"/],
    ];
    for (const [body, title, details] of cases) {
      const error = expectError(await app.inject(postJson("/v1/register", body)), 400);
      expect(error.error, JSON.stringify(body)).toBe(title);
      expect(error.details, JSON.stringify(body)).toMatch(details);
    }
  });
});

describe("GET /v1/lists/{id}/register", () => {
  it("answers the saved list's register, with the query's entity fields, places and target", async () => {
    const app = await build();
    const saved = await app.inject(
      postJson("/v1/lists", {
        name: "Bank core",
        slug: "bank-core",
        approvedServiceIds: BANK_REQUEST.approvedServiceIds,
      }),
    );
    expect(saved.statusCode).toBe(200);
    const response = await app.inject(
      `/v1/lists/bank-core/register?lei=${BANK_LEI}&referenceDate=2026-12-31&allowedLocations=eu-central-1,germanywestcentral,eu-west-gra&jurisdictions=EU`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
    const register = response.json() as RegisterT;
    const direct = buildRegister(realCatalogue(), {
      ids: BANK_REQUEST.approvedServiceIds,
      allowedLocations: BANK_REQUEST.allowedLocations,
      to: BANK_REQUEST.to,
      entity: { lei: BANK_LEI, referenceDate: "2026-12-31" },
      exitPlanAt: "",
    });
    expect(register.templates).toEqual(direct.templates);
    expect(register.checks).toEqual(direct.checks);
    expect(register.exitPlan).toContain("/v1/lists/bank-core/exit-plan");

    const page = await app.inject("/v1/lists/bank-core/register?format=md&allowedLocations=EU");
    expect(page.body).toMatch(/^# DORA register: Bank core\n/);
  });

  it("answers 404 for no list and 400 for a malformed LEI, date or currency, naming each", async () => {
    const app = await build();
    await app.inject(postJson("/v1/lists", { slug: "one-bucket", approvedServiceIds: ["aws-s3"] }));
    expectError(await app.inject("/v1/lists/nothing-here/register"), 404);
    const bad = expectError(
      await app.inject("/v1/lists/one-bucket/register?lei=NOTANLEI&referenceDate=2026-02-30&currency=euro"),
      400,
    );
    expect(bad.error).toBe("Invalid register request");
    expect(bad.details).toMatch(/lei "NOTANLEI".*referenceDate "2026-02-30".*currency "euro"/);
    const typo = expectError(await app.inject("/v1/lists/one-bucket/register?allowedLocation=EU"), 400);
    expect(typo.details).toMatch(/did you mean "allowedLocations"/);
  });
});
