/**
 * One plan on every face (issue 114): issue 114's six stacks, each with the jobs it uses and the
 * data it holds, planned by POST /v1/exit-plan; saved as a list and planned by GET
 * /v1/lists/{id}/exit-plan (JSON and Markdown); by the text host (/lists/{slug}/exit-plan, the
 * planner's /list/exit/?list=… and its plain form /list/exit/?ids=…&jobsUsed=…&dataGb=…); by MCP's
 * exit_plan; and by the site's planner, which plans the saved list's JSON with listExitPlan over the
 * compact catalogue the page fetches. Every face gives the same plan.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { compactExitCatalogue, expandExitCatalogue } from "../../catalogue/exit/catalogue.ts";
import { listExitPlan, listFieldsText } from "../../catalogue/exit/list-plan.ts";
import type { ExitPlanT, ExitTargetT } from "../../catalogue/schema/index.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { ISSUE_114_STACKS } from "../fixtures/exit-plans-issue-114-stacks.ts";
import { build, postJson, realCatalogue, tempStore, URLS } from "../helpers/app.ts";

/** The target as the API's and the text host's query take it. */
function targetQuery(to: ExitTargetT): string {
  const query = new URLSearchParams();
  if (to.providers) query.set("providers", to.providers.join(","));
  if (to.sovereignOption) query.set("sovereignOption", "true");
  if (to.euResidentOnly) query.set("euResidentOnly", "true");
  if (to.jurisdictions) query.set("jurisdictions", to.jurisdictions.join(","));
  if (to.exclude) query.set("exclude", to.exclude.join(","));
  return query.toString();
}

/** What a plan says, faces compared: counts, gaps, the proposed list and why, leaving, each service's pick and jobs. */
function said(plan: ExitPlanT) {
  return {
    summary: plan.summary,
    gaps: plan.gaps,
    targetList: plan.targetList,
    leaving: plan.leaving,
    services: plan.services.map((entry) => ({
      slug: entry.slug,
      outcome: entry.outcome,
      reason: entry.reason,
      proposed: entry.candidates.filter((candidate) => candidate.proposed).map((candidate) => candidate.slug),
      first: entry.candidates[0]?.slug,
      jobs: entry.jobs,
    })),
  };
}

/**
 * A plan's Markdown past its title and the text host's own navigation (the title names the list,
 * the host's pages say how to choose another target or where the form's plan comes from), links
 * made relative (the API's are absolute): the plan itself.
 */
const body = (markdown: string) =>
  markdown
    .split("\n")
    .slice(1)
    .filter((line) => !/^(Planned on the server from the planner's form\.|Choose another target with )/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replaceAll(`](${URLS.textUrl}`, "](");

describe("one exit plan on every face (issue 114)", () => {
  it("plans issue 114's six stacks the same on the API, the list, the text host, MCP and the site", async () => {
    const catalogue = realCatalogue();
    const store = await tempStore();
    const api = await build({ store });
    const text = await buildTextApp({ config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined }, catalogue, store });
    onTestFinished(() => text.close());
    const address = await api.listen({ port: 0, host: "127.0.0.1" });
    const client = new Client({ name: "faces", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
    onTestFinished(() => client.close());
    const site = expandExitCatalogue(compactExitCatalogue(catalogue));

    for (const [i, stack] of ISSUE_114_STACKS.entries()) {
      const ids = Object.keys(stack.mappings);
      const fields = {
        ...(stack.jobsUsed ? { jobsUsed: stack.jobsUsed } : {}),
        ...(stack.dataGb ? { dataGb: stack.dataGb } : {}),
      };
      const slug = `faces-${i + 1}`;
      const query = targetQuery(stack.to);

      const posted = await api.inject(postJson("/v1/exit-plan", { approvedServiceIds: ids, to: stack.to, ...fields }));
      expect(posted.statusCode, stack.name).toBe(200);
      const plan: ExitPlanT = posted.json();
      const expected = said(plan);

      expect((await api.inject(postJson("/v1/lists", { approvedServiceIds: ids, slug, ...fields }))).statusCode).toBe(
        200,
      );
      const list = (await api.inject(`/v1/lists/${slug}`)).json();
      expect(list.dataGb ?? {}, "the list keeps its data volumes").toEqual(stack.dataGb ?? {});
      const listPlan: ExitPlanT = (await api.inject(`/v1/lists/${slug}/exit-plan?${query}`)).json();
      expect(said(listPlan), `${stack.name}: the list's JSON`).toEqual(expected);

      const mcp = (await client.callTool({
        name: "exit_plan",
        arguments: {
          approvedServiceIds: ids,
          to: stack.to,
          ...fields,
          detail: "full",
          limit: 50,
          maxLength: 1_000_000,
        },
      })) as unknown as { isError?: boolean; structuredContent: ExitPlanT };
      expect(mcp.isError ?? false).toBe(false);
      expect(said(mcp.structuredContent), `${stack.name}: MCP`).toEqual(expected);

      expect(said(listExitPlan(site, list, stack.to)), `${stack.name}: the site's planner`).toEqual(expected);

      const markdown = body((await api.inject(`/v1/lists/${slug}/exit-plan?${query}&format=md`)).body);
      expect(markdown).toContain(plan.targetList.why?.[0]?.reason ?? "");
      const md = { accept: "text/markdown" };
      const form = listFieldsText(fields);
      const formQuery = new URLSearchParams({ ids: ids.join(","), jobsUsed: form.jobsUsed, dataGb: form.dataGb });
      for (const url of [
        `/lists/${slug}/exit-plan?${query}`,
        `/list/exit/?list=${slug}&${query}`,
        `/list/exit/?${formQuery.toString()}&${query}`,
      ]) {
        const page = await text.inject({ url, headers: md });
        expect(page.statusCode, url).toBe(200);
        expect(body(page.body), `${stack.name}: ${url}`).toBe(markdown);
      }
    }
  });
});
