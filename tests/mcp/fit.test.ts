/**
 * What the MCP tools send, checked on their parts: the input schemas as tools/list sends them
 * (flat, no $ref a client must follow; strict; the parts arguments on every tool), get_service's
 * equivalents in the catalogue's ranking with a provider filter, provider names resolved by
 * exit_plan, paging hints that never point past the end, no empty `omitted` entries, and
 * exit_plan's full detail paged in its exposure rows too.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ExitPlanT, LifecycleListT, ServiceDetailT, ServiceT } from "../../catalogue/schema/index.ts";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { fitExitPlan, fitLifecycle, fitService, type OmittedT } from "../../mcp/fit.ts";
import { TOOLS } from "../../mcp/tools.ts";
import { build, realCatalogue } from "../helpers/app.ts";

const BIG_THREE = ["aws", "azure", "gcp"];
let app: FastifyInstance;

const json = async <T>(url: string): Promise<T> => (await app.inject({ url })).json() as T;

describe("MCP input schemas, as tools/list sends them", () => {
  let tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  const inputOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema;
  beforeAll(async () => {
    const app = await build();
    const answer = await app.inject({
      method: "POST",
      url: "/mcp",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      payload: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    tools = answer.json().result.tools;
    await app.close();
  });

  it("are flat: no $ref or definitions, and exit_plan's target is typed in place", () => {
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.map((spec) => spec.name));
    for (const tool of tools) {
      const text = JSON.stringify(tool.inputSchema);
      expect(text, tool.name).not.toContain("$ref");
      expect(text, tool.name).not.toContain("definitions");
    }
    const plan = inputOf("exit_plan") as {
      properties: { to: { type: string; properties: Record<string, unknown> } };
    };
    expect(plan.properties.to.type).toBe("object");
    expect(Object.keys(plan.properties.to.properties)).toEqual(expect.arrayContaining(["providers", "exclude"]));
  });

  it("take the parts arguments and no other key on every tool", () => {
    for (const tool of tools) {
      const schema = tool.inputSchema as { properties: Record<string, unknown>; additionalProperties?: unknown };
      expect(Object.keys(schema.properties), tool.name).toEqual(expect.arrayContaining(["maxLength", "startIndex"]));
      expect(schema.additionalProperties, tool.name).toBe(false);
    }
  });

  it("say what search_services pages", () => {
    const search = tools.find((tool) => tool.name === "search_services")!;
    const limit = inputOf("search_services") as { properties: { limit: { maximum: number } } };
    expect(search.description).toContain(`1 to ${limit.properties.limit.maximum} per page`);
  });
});

describe("get_service's equivalents", () => {
  const catalogue = realCatalogue();
  /** A service's answer as the tool gets it: only the equivalents matter here. */
  const answerOf = (slug: string) =>
    ({
      equivalents: catalogue.bySlug.get(slug)!.equivalentSlugs.map((each) => catalogue.bySlug.get(each)!.service),
    }) as unknown as ServiceDetailT;

  it("show every big-three provider that has one among the first ten, for every service", () => {
    const hidden = catalogue.services.filter((service) => {
      const answer = answerOf(service.slug);
      const shown = new Set(fitService(answer, catalogue).equivalents.map((each) => each.providerId));
      return answer.equivalents.some(
        (each: ServiceT) => BIG_THREE.includes(each.providerId) && !shown.has(each.providerId),
      );
    });
    expect(hidden.map((service) => service.slug)).toEqual([]);
  });

  it("put aws-s3's flagship counterparts first, and narrow to the providers asked", () => {
    const first = fitService(answerOf("aws-s3"), catalogue).equivalents.map((each) => each.slug);
    expect(first.slice(0, 3)).toEqual(expect.arrayContaining(["gcp-cloud-storage", "azure-blob-storage"]));
    const gcp = fitService(answerOf("aws-s3"), catalogue, { providers: ["gcp"] });
    expect(gcp.equivalents.length).toBeGreaterThan(0);
    expect(new Set(gcp.equivalents.map((each) => each.providerId))).toEqual(new Set(["gcp"]));
  });

  it("resolve provider names in the filter, and refuse an unknown one with the ids", () => {
    const spec = TOOLS.find((each) => each.name === "get_service")!;
    const args = z.object(spec.input).parse({ slug: "aws-s3", equivalentsProviders: ["OVH", "Google Cloud"] });
    const fitted = spec.fit!(answerOf("aws-s3") as never, args, catalogue) as ServiceDetailT;
    expect(new Set(fitted.equivalents.map((each) => each.providerId))).toEqual(new Set(["ovhcloud", "gcp"]));
    const bad = z.object(spec.input).parse({ slug: "aws-s3", equivalentsProviders: ["nowhere"] });
    expect(() => spec.fit!(answerOf("aws-s3") as never, bad, catalogue)).toThrow(/Unknown provider/);
  });
});

describe("paging and omitted", () => {
  beforeAll(async () => {
    app = await build();
  });
  afterAll(() => app.close());
  const noEmpty = (omitted: OmittedT | undefined) =>
    expect((omitted ?? []).filter((cut) => cut.total === 0)).toEqual([]);

  it("never hints at a page past the end", async () => {
    const lifecycle = await json<LifecycleListT>("/v1/lifecycle");
    const total = lifecycle.data.length;
    expect(total).toBeGreaterThan(20);
    const lastPage = Math.ceil(total / 20);
    const last = fitLifecycle(lifecycle, { page: lastPage }) as LifecycleListT & { omitted?: OmittedT };
    expect(last.omitted?.[0]?.hint).not.toContain(`page ${lastPage + 1}`);
    expect(last.omitted?.[0]?.hint).toMatch(/last page/);
    const past = fitLifecycle(lifecycle, { page: lastPage + 5 }) as LifecycleListT & { omitted?: OmittedT };
    expect(past.omitted?.[0]?.hint).toMatch(/past the end/);
    const first = fitLifecycle(lifecycle, {}) as LifecycleListT & { omitted?: OmittedT };
    expect(first.omitted?.[0]?.hint).toMatch(/^page 2/);
  });

  it("lists no empty cut, and pages exit_plan's full exposure rows with its services", () => {
    const aws = realCatalogue()
      .services.filter((service) => service.providerId === "aws")
      .slice(0, 250)
      .map((service) => service.slug);
    const plan: ExitPlanT = exitPlan(realCatalogue(), aws, { sovereignOption: true });
    const summary = fitExitPlan(plan, { limit: 1 }) as { omitted?: OmittedT };
    noEmpty(summary.omitted);
    const full = fitExitPlan(plan, { detail: "full", limit: 1 }) as {
      omitted?: OmittedT;
      exposure: Record<string, { services?: unknown[] }>;
    };
    noEmpty(full.omitted);
    for (const [side, report] of Object.entries(full.exposure))
      if (report && Array.isArray(report.services)) expect(report.services.length, side).toBeLessThanOrEqual(1);
    expect(JSON.stringify(full).length / 4).toBeLessThan(10_000);
  });

  it("resolves provider names in exit_plan's target", () => {
    const spec = TOOLS.find((each) => each.name === "exit_plan")!;
    const args = z
      .object(spec.input)
      .parse({ approvedServiceIds: ["aws-s3"], to: { providers: ["ovh", "Scaleway"], exclude: ["Google Cloud"] } });
    const request = spec.request(args, realCatalogue());
    expect((request.body as { to: unknown }).to).toEqual({ providers: ["ovhcloud", "scaleway"], exclude: ["gcp"] });
  });
});
