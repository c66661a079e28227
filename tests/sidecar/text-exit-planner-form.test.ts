/**
 * The exit planner's plain form (issue 101): a browser without JavaScript submits GET /list/exit/
 * with the services' ids and the target's boxes as a form encodes them ("on", a key per box), and
 * the text host answers the plan. The built page's form itself, submitted over HTTP and in w3m:
 * tests/site/text-browsers.test.ts.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";

async function textHost() {
  const text = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store: await tempStore(),
  });
  onTestFinished(() => text.close());
  return text;
}

const MD = { accept: "text/markdown" };

describe("GET /list/exit/?ids=…, the planner's plain form", () => {
  it("plans the form's services to its ticked boxes: 'on' is true, repeated keys are one list", async () => {
    const text = await textHost();
    const query = "ids=aws-s3%2Caws-lambda&sovereignOption=on&jurisdictions=EU&jurisdictions=CH";
    const response = await text.inject({ url: `/list/exit/?${query}`, headers: MD });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/^# Exit plan: your list → /);
    expect(response.body).toContain("](/aws/s3)");
    expect(response.body).toContain("](/aws/lambda)");
    expect(response.body).toContain("Planned on the server from the planner's form.");
    const linked = [...response.body.matchAll(/\]\(\/([a-z0-9]+)\//g)].map((m) => m[1]!);
    const providers = new Set(linked.filter((id) => id !== "aws" && realCatalogue().providerById.has(id)));
    expect(providers.size).toBeGreaterThan(0);
    for (const id of providers)
      expect(["EU", "CH"]).toContain(realCatalogue().providerById.get(id)!.provider.jurisdiction);
  });

  it("plans ?ids= with no criterion to sovereign-option providers, as /lists/{id}/exit-plan does, and says so", async () => {
    // Issue 116: a link with ?ids= alone was a bare 400 page where a saved list's plan defaults.
    const text = await textHost();
    const response = await text.inject({ url: "/list/exit/?ids=aws-s3", headers: MD });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Target: sovereign-option providers, the default.");
    expect(response.body).toContain("](/aws/s3)");
  });

  it("refuses an unknown id with the nearest, and a form with no id, as 400s", async () => {
    const text = await textHost();
    const unknown = await text.inject({ url: "/list/exit/?ids=aws-s33", headers: MD });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("aws-s3");
    const none = await text.inject({ url: "/list/exit/?ids=", headers: MD });
    expect(none.statusCode).toBe(400);
    const badTarget = await text.inject({ url: "/list/exit/?ids=aws-s3&jurisdictions=XX", headers: MD });
    expect(badTarget.statusCode).toBe(400);
  });
});
