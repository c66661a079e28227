import { describe, expect, it, onTestFinished } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { newList } from "../../catalogue/lists/lists.node.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore, URLS } from "../helpers/app.ts";

const IDS = ["aws-ec2", "aws-s3", "azure-entra-id", "ovhcloud-dns"];

async function textHost(urls?: typeof URLS) {
  const store = await tempStore();
  await store.createList(newList({ name: "Web <stack>", slug: "web", ids: IDS }, new Date()));
  return buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store,
    ...(urls ? { urls } : {}),
  });
}

describe("the text host's /lists/{id}/exit-plan", () => {
  it("links services absolutely, to the configured public URL, as the API's Markdown does (decisions.md#faces)", async () => {
    const text = await textHost(URLS);
    const md = await text.inject("/lists/web/exit-plan?providers=ovhcloud,scaleway&format=md");
    expect(md.statusCode).toBe(200);
    expect(md.body).toContain("](http://text.test/aws/s3)");
    expect(md.body).not.toMatch(/\]\(\/(aws|azure|ovhcloud|scaleway)\//);
  });

  it("renders the plan in Markdown, ANSI and HTML, not for shared caches", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    const md = await text.inject({
      url: "/lists/web/exit-plan?providers=ovhcloud,scaleway",
      headers: { accept: "text/markdown" },
    });
    expect(md.statusCode).toBe(200);
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(md.headers["cache-control"]).toBe("no-store");
    expect(md.body).toMatch(/^# Exit plan: Web &lt;stack&gt; → providers OVHcloud, Scaleway\n/);
    const plan = exitPlan(realCatalogue(), IDS, { providers: ["ovhcloud", "scaleway"] });
    for (const slug of plan.targetList.approvedServiceIds) expect(md.body).toContain(slug);
    expect(md.body.indexOf("## Gaps")).toBeLessThan(md.body.indexOf("## Moving from Amazon Web Services"));
    expect(md.body).toContain("](/v1/lists/web/exit-plan?providers=ovhcloud%2Cscaleway&format=csv)");

    const ansi = await text.inject("/lists/web/exit-plan?providers=ovhcloud,scaleway");
    expect(ansi.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(ansi.body).toMatch(/MOVING FROM AMAZON WEB SERVICES/i);
    expect(ansi.body).toContain("\u001b[");

    const html = await text.inject({
      url: "/lists/web/exit-plan?providers=ovhcloud,scaleway",
      headers: { accept: "text/html" },
    });
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.body).toContain("<h2>Gaps</h2>");
    expect(html.body).toContain("<table>");
    expect(html.body).toContain("Web &#60;stack&#62;");
    expect(html.body).not.toContain("<stack>");
  });

  it("plans to sovereign-option providers by default and says how to choose", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    const md = (await text.inject("/lists/web/exit-plan?format=md")).body;
    expect(md).toContain("Target: sovereign-option providers, the default.");
    expect(md).toMatch(/^# Exit plan: .* → sovereign option\n/);
  });

  it("answers a bad target with 400 and an unknown list with 404, in the request's rendering", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    for (const query of [
      "providers=nope",
      "sovereignOption=yes",
      "jurisdictions=US&sovereignOption=true",
      "sovereignOption=false",
    ]) {
      const response = await text.inject(`/lists/web/exit-plan?${query}&format=md`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body).toMatch(/^# 400 /);
    }
    const missing = await text.inject("/lists/nothing-here/exit-plan?format=md");
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toMatch(/^# 404 /);
  });
});
