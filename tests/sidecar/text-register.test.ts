import { describe, expect, it, onTestFinished } from "vitest";
import { newList } from "../../catalogue/lists/lists.node.ts";
import { buildRegister } from "../../catalogue/register/build.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { BANK_LEI, BANK_SERVICES } from "../fixtures/register-bank.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";

async function textHost() {
  const store = await tempStore();
  await store.createList(newList({ name: "Bank <core>", slug: "bank", ids: BANK_SERVICES }, new Date()));
  const text = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store,
  });
  onTestFinished(() => text.close());
  return text;
}

const QUERY = `lei=${BANK_LEI}&allowedLocations=eu-central-1,germanywestcentral,eu-west-gra&jurisdictions=EU`;

describe("the text host's /lists/{id}/register", () => {
  it("renders the list's register in Markdown, ANSI and HTML, with the same cells as the API's", async () => {
    const text = await textHost();
    const md = await text.inject({ url: `/lists/bank/register?${QUERY}`, headers: { accept: "text/markdown" } });
    expect(md.statusCode).toBe(200);
    expect(md.headers["cache-control"]).toBe("no-store");
    expect(md.body).toMatch(/^# DORA register: Bank &lt;core&gt;\n/);
    const register = buildRegister(realCatalogue(), {
      ids: BANK_SERVICES,
      allowedLocations: ["eu-central-1", "germanywestcentral", "eu-west-gra"],
      to: { jurisdictions: ["EU"] },
      entity: { lei: BANK_LEI },
      exitPlanAt: "",
    });
    for (const template of register.templates) for (const row of template.rows) expect(md.body).toContain(row.label);
    // Markdown escapes the rules' underscores (v8854\_m).
    for (const check of register.checks.failures) expect(md.body).toContain(check.rule.replaceAll("_", "\\_"));
    // The files and the exit plan behind it, on the same host.
    expect(md.body).toContain(`](/v1/lists/bank/register?lei=${BANK_LEI}&`);
    expect(md.body).toContain("format=zip)");
    expect(md.body).toContain("](/lists/bank/exit-plan?jurisdictions=EU)");

    const ansi = await text.inject(`/lists/bank/register?${QUERY}`);
    expect(ansi.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(ansi.body).toMatch(/WHAT REMAINS TO FILL/i);

    const html = await text.inject({ url: `/lists/bank/register?${QUERY}`, headers: { accept: "text/html" } });
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain("<h2>What remains to fill</h2>");
    expect(html.body).not.toContain("<core>");
  });

  it("is the step after the list's exit plan: the plan links to it with the same target", async () => {
    const text = await textHost();
    const plan = await text.inject({
      url: "/lists/bank/exit-plan?jurisdictions=EU",
      headers: { accept: "text/markdown" },
    });
    expect(plan.body).toContain("[DORA register](/lists/bank/register?jurisdictions=EU)");
  });

  it("answers a malformed LEI, an unknown parameter and an unknown list with the right status", async () => {
    const text = await textHost();
    const bad = await text.inject("/lists/bank/register?lei=NOPE");
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("NOPE");
    const typo = await text.inject("/lists/bank/register?allowedLocation=EU");
    expect(typo.statusCode).toBe(400);
    expect(typo.body).toContain("allowedLocations");
    expect((await text.inject("/lists/nothing-here/register")).statusCode).toBe(404);
  });
});
