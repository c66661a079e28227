import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { discoveryDocument, openApiDocument } from "../../catalogue/contract/openapi.ts";
import { build, expectError, postJson, realCatalogue, tempStore, URLS } from "../helpers/app.ts";

const WEB_STACK = ["aws-ec2", "aws-s3", "aws-rds-postgresql", "aws-route-53", "azure-entra-id"];

describe("POST /v1/exit-plan", () => {
  it("answers the plan exitPlan computes, in the relaxed bucket, not cached", async () => {
    const app = await build();
    const response = await app.inject(
      postJson("/v1/exit-plan", {
        approvedServiceIds: WEB_STACK,
        to: { sovereignOption: true, exclude: ["scaleway"] },
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["x-ratelimit-limit"]).toBe("30");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual(
      exitPlan(realCatalogue(), WEB_STACK, { sovereignOption: true, exclude: ["scaleway"] }),
    );
    const plan = response.json() as { gaps: { slug: string }[]; target: { providers: string[] } };
    expect(plan.target.providers).not.toContain("scaleway");
    expect(plan.gaps.map((gap) => gap.slug)).toContain("azure-entra-id");
  });

  it("answers Markdown and CSV by ?format or Accept, ?format winning", async () => {
    const app = await build();
    const body = { approvedServiceIds: WEB_STACK, to: { providers: ["ovhcloud", "scaleway"] } };
    // q-values are weighed: a type given q=0 is refused, not chosen because it is named.
    for (const [accept, type] of [
      ["application/json, text/markdown;q=0", "application/json"],
      ["text/csv;q=0, application/json", "application/json"],
      ["text/markdown;q=0.5, text/csv", "text/csv"],
      ["*/*", "application/json"],
    ] as const) {
      const weighed = await app.inject(postJson("/v1/exit-plan", body, { accept }));
      expect(String(weighed.headers["content-type"]), accept).toContain(type);
    }
    const md = await app.inject(postJson("/v1/exit-plan", body, { accept: "text/markdown" }));
    expect(md.statusCode).toBe(200);
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(md.body).toMatch(/^# Exit plan → providers OVHcloud, Scaleway\n/);
    // Gaps come first, then a table per provider moved from, exposure, sources and the release.
    const order = ["## Gaps", "## Moving from Amazon Web Services", "## Exposure before and after", "## Sources"].map(
      (h) => md.body.indexOf(h),
    );
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(md.body).toContain("Microsoft Entra ID");
    expect(md.body).toMatch(
      /Made from the Cloud Services Catalogue (release \d{4}-\d{2}-\d{2}|\(no release recorded\))/,
    );
    expect(md.body).toContain("](http://text.test/aws/s3)");

    const csv = await app.inject(postJson("/v1/exit-plan?format=csv", body, { accept: "text/markdown" }));
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "service,service_name,service_provider,outcome,kind,rank,slug,name,provider,lifecycle,proposed,reason,coverage,fit,jobs,lost,fallback",
    );
    // S3's rank 1 shares the S3 API with it: the kind column says compatible, not only equivalent.
    expect(lines.some((line) => line.startsWith("aws-s3,") && line.includes(",compatible,1,"))).toBe(true);
    expect(lines.some((line) => line.startsWith("azure-entra-id,") && line.includes(",gap,"))).toBe(true);

    const json = await app.inject(postJson("/v1/exit-plan?format=json", body, { accept: "text/csv" }));
    expect(json.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("answers every bad input with a 400 in the Error shape", async () => {
    const app = await build();
    const cases: [unknown, RegExp][] = [
      [{ approvedServiceIds: ["aws-s3"] }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: {} }, /No target/],
      [{ approvedServiceIds: ["aws-s3"], to: { sovereignOption: false } }, /No target/],
      // Unknown keys are refused: a misspelt criterion would widen the target in silence (decisions.md#exit-ranking).
      [{ approvedServiceIds: ["aws-s3"], to: { sovereign: true } }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: { euResident: true } }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: { sovereignOption: true }, extra: 1 }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: { sovereignOption: "yes" } }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: { providers: [] } }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: { providers: ["nope"] } }, /Unknown provider ids/],
      [{ approvedServiceIds: ["aws-s3"], to: { sovereignOption: true, exclude: ["nope"] } }, /Unknown provider ids/],
      [{ approvedServiceIds: ["aws-s3"], to: { jurisdictions: ["eu"] } }, /Invalid body/],
      [{ approvedServiceIds: ["aws-s3"], to: { jurisdictions: ["US"], sovereignOption: true } }, /No provider matches/],
      [{ approvedServiceIds: [], to: { sovereignOption: true } }, /Invalid body/],
      [{ approvedServiceIds: ["nope-nothing"], to: { sovereignOption: true } }, /Unknown service ids/],
      [{ approvedServiceIds: "aws-s3", to: { sovereignOption: true } }, /Invalid body/],
      [[], /Invalid body/],
      ["not json", /./],
    ];
    for (const [body, title] of cases) {
      const error = expectError(await app.inject(postJson("/v1/exit-plan", body)), 400);
      expect(error.error, JSON.stringify(body)).toMatch(title);
    }
    expectError(
      await app.inject(
        postJson("/v1/exit-plan?format=pdf", { approvedServiceIds: ["aws-s3"], to: { euResidentOnly: true } }),
      ),
      400,
    );
    const misspelt = expectError(
      await app.inject(postJson("/v1/exit-plan", { approvedServiceIds: ["aws-s3"], to: { euResident: true } })),
      400,
    );
    expect(misspelt.details).toContain('to: unknown key "euResident" (did you mean "euResidentOnly"?)');
  });
});

describe("POST /v1/exit-plan with repeated ids", () => {
  it("plans only the jobs jobsUsed gives, and answers a bad one with a 400 naming it", async () => {
    const app = await build();
    const body = {
      approvedServiceIds: ["azure-key-vault"],
      to: { providers: ["scaleway"] },
      jobsUsed: { "azure-key-vault": ["secrets-management"] },
    };
    const ok = await app.inject(postJson("/v1/exit-plan", body));
    expect(ok.statusCode).toBe(200);
    const plan = ok.json() as { services: { jobs: { group: string }[] }[] };
    expect(plan.services[0]!.jobs.map((job) => job.group)).toEqual(["secrets-management"]);
    for (const jobsUsed of [{ "azure-key-vault": ["object-storage"] }, { "aws-s3": ["object-storage"] }]) {
      const error = expectError(await app.inject(postJson("/v1/exit-plan", { ...body, jobsUsed })), 400);
      expect(error.error).toBe("Invalid body");
      expect(error.details).toMatch(/object-storage is not a job|not in approvedServiceIds/);
    }
    const wrongShape = await app.inject(postJson("/v1/exit-plan", { ...body, jobsUsed: { "azure-key-vault": [] } }));
    expectError(wrongShape, 400);
  });

  it("plans each service once and says which were repeated, never in silence", async () => {
    const app = await build();
    const ids = [...Array.from({ length: 500 - 1 }, () => "aws-s3"), "aws-ec2"];
    const response = await app.inject(
      postJson("/v1/exit-plan", { approvedServiceIds: ids, to: { sovereignOption: true } }),
    );
    expect(response.statusCode).toBe(200);
    const plan = response.json() as { services: { slug: string }[]; notes: string[] };
    expect(plan.services.map((entry) => entry.slug)).toEqual(["aws-s3", "aws-ec2"]);
    expect(plan.notes).toContain("Listed more than once, planned once: aws-s3 (499 times).");
  });
});

describe("GET /v1/lists/{id}/exit-plan", () => {
  it("plans a saved list's exit from the query form of the target", async () => {
    const app = await build();
    const created = await app.inject(
      postJson("/v1/lists", { approvedServiceIds: WEB_STACK, name: "Web stack", slug: "web" }),
    );
    expect(created.statusCode).toBe(200);
    const response = await app.inject(
      "/v1/lists/web/exit-plan?providers=ovhcloud,%20hetzner&jurisdictions=eu&exclude=",
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.json()).toEqual(
      exitPlan(realCatalogue(), WEB_STACK, { providers: ["ovhcloud", "hetzner"], jurisdictions: ["EU"] }),
    );
    const md = await app.inject({
      url: "/v1/lists/web/exit-plan?sovereignOption=true",
      headers: { accept: "text/markdown" },
    });
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(md.body).toMatch(/^# Exit plan: Web stack → sovereign option\n/);
    const csv = await app.inject("/v1/lists/web/exit-plan?euResidentOnly=true&format=csv");
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });

  it("plans the services a list still names and notes the ids the catalogue no longer holds", async () => {
    const store = await tempStore();
    await store.createList({
      id: "old-list-id",
      slug: "old",
      name: null,
      approvedServiceIds: ["aws-s3", "aws-gone-service"],
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const app = await build({ store });
    const plan = (await app.inject("/v1/lists/old/exit-plan?providers=ovhcloud")).json() as {
      services: { slug: string }[];
      notes: string[];
    };
    expect(plan.services.map((s) => s.slug)).toEqual(["aws-s3"]);
    expect(plan.notes).toContain("No longer in the catalogue, so not planned: aws-gone-service.");
  });

  it("answers 404 for an unknown list and 400 for every bad target", async () => {
    const app = await build();
    await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "s3-only" }));
    expectError(await app.inject("/v1/lists/nothing-here/exit-plan?sovereignOption=true"), 404);
    for (const query of [
      "",
      "sovereignOption=false",
      "sovereignOption=yes",
      "providers=nope",
      "providers=,,",
      "exclude=nope&sovereignOption=true",
      "jurisdictions=E1",
      "jurisdictions=US&sovereignOption=true",
      "format=pdf&sovereignOption=true",
      `providers=${"x".repeat(3000)}`,
    ])
      expectError(await app.inject(`/v1/lists/s3-only/exit-plan?${query}`), 400);
  });

  it("refuses an unknown parameter of the saved-list plan with the one it most likely meant", async () => {
    const app = await build();
    await app.inject(postJson("/v1/lists", { approvedServiceIds: ["aws-s3"], slug: "s3-typo" }));
    // A misspelt `providers` would otherwise plan to every sovereign provider in silence.
    const typo = await app.inject("/v1/lists/s3-typo/exit-plan?provider=stackit&sovereignOption=true");
    expectError(typo, 400);
    expect(typo.json<{ details: string }>().details).toContain(
      'unknown parameter "provider" (did you mean "providers"?)',
    );
    expect((await app.inject("/v1/lists/s3-typo/exit-plan?providers=stackit&format=md")).statusCode).toBe(200);
  });

  it("names the nearest slugs for unknown ids, in the plan and in compare", async () => {
    const app = await build();
    const plan = await app.inject(
      postJson("/v1/exit-plan", {
        approvedServiceIds: ["azure-aks", "aws-rds"],
        to: { providers: ["stackit"] },
      }),
    );
    expectError(plan, 400);
    const { details } = plan.json<{ details: string }>();
    expect(details).toMatch(/azure-aks \(did you mean azure-kubernetes-service[,?]/);
    expect(details).toMatch(/aws-rds \(did you mean [^)]*aws-rds-postgresql/);
    const compare = await app.inject("/v1/compare?ids=aws-s3,gke");
    expectError(compare, 400);
    expect(compare.json<{ details: string }>().details).toContain("gke (did you mean gcp-gke");
  });
});

describe("the exit-plan rows in OpenAPI and discovery", () => {
  it("declare JSON, Markdown and CSV answers, the relaxed bucket and the query form", () => {
    const doc = openApiDocument(URLS, ENDPOINTS) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>>;
    };
    for (const [path, method] of [
      ["/v1/exit-plan", "post"],
      ["/v1/lists/{id}/exit-plan", "get"],
    ] as const)
      expect(Object.keys(doc.paths[path]![method]!.responses["200"]!.content).sort()).toEqual([
        "application/json",
        "text/csv",
        "text/markdown",
      ]);
    const discovery = discoveryDocument(URLS, ENDPOINTS) as {
      versions: { endpoints: { method: string; path: string; rateLimit: unknown; params: { name: string }[] }[] }[];
    };
    const [post, get] = ["/v1/exit-plan", "/v1/lists/{id}/exit-plan"].map((path) =>
      discovery.versions[0]!.endpoints.find((e) => e.path === path)!,
    );
    expect(post!.rateLimit).toEqual({ bucket: "relaxed", perMinute: 30 });
    expect(get!.params.map((p) => p.name)).toEqual(
      expect.arrayContaining(["providers", "sovereignOption", "euResidentOnly", "jurisdictions", "exclude", "format"]),
    );
  });
});
