/**
 * Issue 120's cases through POST /v1/deployments/check: each is a 422 Template too costly in the
 * Error shape whose details name where and the bound (the pattern, which RE2 answers at once, a
 * 200), and the server answers its health right after. The same cases (tests/helpers/costly-templates.ts)
 * are for a server-level test to send to a running server.
 */
import { describe, expect, it } from "vitest";
import { ISSUE_120_CASES } from "../helpers/costly-templates.ts";
import { build, workerCatalogueSource } from "../helpers/app.ts";

const JSON_HEADERS = { "content-type": "application/json" };

describe("POST /v1/deployments/check under the evaluation's budgets", () => {
  it("answers each of issue 120's cases with a 422 naming the bound, and stays up", async () => {
    const app = await build({ catalogueSource: workerCatalogueSource() });
    for (const one of ISSUE_120_CASES) {
      const body = one.files
        ? { approvedServiceIds: ["aws-s3"], files: one.files }
        : { approvedServiceIds: ["aws-s3"], template: one.template };
      const answer = await app.inject({
        method: "POST",
        url: "/v1/deployments/check",
        headers: JSON_HEADERS,
        payload: JSON.stringify(body),
      });
      if (one.name.startsWith("HCL regex(")) {
        expect(answer.statusCode, one.name).toBe(200);
        continue;
      }
      expect(answer.statusCode, `${one.name}: ${answer.body.slice(0, 300)}`).toBe(422);
      expect(answer.json()).toMatchObject({
        error: "Template too costly",
        status: 422,
        details: expect.stringMatching(/at most|can't exceed 800/),
      });
    }
    expect((await app.inject({ method: "GET", url: "/v1/health" })).statusCode).toBe(200);
  }, 120_000);
});
