/**
 * Answers that fit an assistant's context: every tool's answer, for the largest input and size
 * arguments it accepts (detail: "full" included), is under 10,000 tokens — past the default cap
 * (maxLength) in parts that join into the whole answer — estimated as characters / 4 of the whole JSON-RPC result
 * (structuredContent, the text beside it and the links), as POST /mcp sends it. Prints the figures.
 */
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { MAX_APPROVED_IDS, MAX_COMPARE_IDS, MAX_EXPOSURE_IDS } from "../../catalogue/base/limits.ts";
import { build, realCatalogue } from "../helpers/app.ts";

const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };
const TOKEN_BUDGET = 10_000;
let caller = 0;

/** One tools/call through POST /mcp, from its own address (no bucket fills); its result and token estimate. */
async function callTokens(app: FastifyInstance, name: string, args: Record<string, unknown>) {
  const response = await app.inject({
    method: "POST",
    url: "/mcp",
    headers: HEADERS,
    remoteAddress: `198.18.${Math.floor(caller / 250)}.${(caller++ % 250) + 1}`,
    payload: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
  });
  expect(response.statusCode).toBe(200);
  const result = response.json().result;
  return { result, tokens: Math.ceil(JSON.stringify(result).length / 4) };
}

const slugsOf = (providerId: string) =>
  realCatalogue()
    .services.filter((service) => service.providerId === providerId)
    .map((service) => service.slug);

describe("the default answer of every MCP tool fits in 10,000 tokens", () => {
  it("for each tool's largest input", { timeout: 240_000 }, async () => {
    const catalogue = realCatalogue();
    const app = await build();
    const figures: Record<string, number> = {};
    const measure = async (label: string, name: string, args: Record<string, unknown>, refused = false) => {
      const { result, tokens } = await callTokens(app, name, args);
      expect(result.isError ?? false, `${label}: ${JSON.stringify(result.structuredContent)}`).toBe(refused);
      figures[label] = tokens;
      expect.soft(tokens, label).toBeLessThan(TOKEN_BUDGET);
      return result;
    };
    // Services by how many equivalents they have: the largest get_service and compare answers.
    const byEquivalents = [...catalogue.bySlug.values()]
      .sort((a, b) => b.equivalentSlugs.length - a.equivalentSlugs.length)
      .map((record) => record.service.slug);
    let largest = 0;
    for (const slug of byEquivalents.slice(0, 40)) {
      const { tokens } = await callTokens(app, "get_service", { slug });
      largest = Math.max(largest, tokens);
    }
    figures["get_service (largest of 40 with most equivalents)"] = largest;
    expect.soft(largest).toBeLessThan(TOKEN_BUDGET);
    await measure("search_services {}", "search_services", {});
    await measure("search_services {limit: 25 (max)}", "search_services", { limit: 25 });
    await measure("compare_services (10 with most equivalents)", "compare_services", {
      ids: byEquivalents.slice(0, MAX_COMPARE_IDS),
    });
    await measure("exposure_scorecard (50 ids)", "exposure_scorecard", {
      ids: catalogue.services.slice(0, MAX_EXPOSURE_IDS).map((service) => service.slug),
    });
    const lifecycle = await measure("lifecycle_upcoming {}", "lifecycle_upcoming", {});
    expect(lifecycle.structuredContent.omitted?.[0]).toMatchObject({ field: "data", hint: expect.any(String) });
    const every = catalogue.services.slice(0, MAX_APPROVED_IDS).map((service) => service.slug);
    const plan = await measure("exit_plan (500 ids, sovereign)", "exit_plan", {
      approvedServiceIds: every,
      to: { sovereignOption: true },
    });
    expect(plan.structuredContent.omitted.map((cut: { field: string }) => cut.field)).toEqual(
      expect.arrayContaining(["services", "services[].candidates", "gaps"]),
    );
    await measure("exit_plan (all AWS, sovereign)", "exit_plan", {
      approvedServiceIds: slugsOf("aws"),
      to: { sovereignOption: true },
    });
    await measure("generate_policy scp (all AWS, allow-list)", "generate_policy", {
      format: "scp",
      strategy: "allow-list",
      part: 1,
      approvedServiceIds: slugsOf("aws"),
    });
    await measure("generate_policy azure (all Azure)", "generate_policy", {
      format: "azure",
      approvedServiceIds: slugsOf("azure"),
    });
    await measure("generate_policy gcp (all Google Cloud)", "generate_policy", {
      format: "gcp",
      approvedServiceIds: slugsOf("gcp"),
    });
    // The largest inputs of each size argument: a hard cap (maxLength) answers them in parts.
    await measure("exit_plan detail full (250 AWS ids, limit 1)", "exit_plan", {
      approvedServiceIds: slugsOf("aws").slice(0, 250),
      to: { sovereignOption: true },
      detail: "full",
      limit: 1,
    });
    await measure("exit_plan detail full (500 ids, limit 50)", "exit_plan", {
      approvedServiceIds: every,
      to: { sovereignOption: true },
      detail: "full",
      limit: 50,
    });
    await measure("generate_policy azure explain (all Azure)", "generate_policy", {
      format: "azure",
      explain: true,
      approvedServiceIds: slugsOf("azure"),
    });
    await measure("lifecycle_upcoming {limit: 100}", "lifecycle_upcoming", { limit: 100 });
    await measure("get_service {equivalentsLimit: 500} (most equivalents)", "get_service", {
      slug: byEquivalents[0],
      equivalentsLimit: 500,
    });
    await measure("exposure_scorecard (50 ids, servicesLimit 50)", "exposure_scorecard", {
      ids: catalogue.services.slice(0, MAX_EXPOSURE_IDS).map((service) => service.slug),
      servicesLimit: MAX_EXPOSURE_IDS,
    });
    const saved = await app.inject({
      method: "POST",
      url: "/v1/lists",
      payload: { name: "Everything", approvedServiceIds: every },
    });
    expect(saved.statusCode).toBe(200);
    await measure("get_saved_list (500 services)", "get_saved_list", { id: "everything" });
    await measure("get_saved_list (500 services, servicesLimit 50)", "get_saved_list", {
      id: "everything",
      servicesLimit: 50,
    });
    console.log(
      Object.entries(figures)
        .map(([label, tokens]) => `${label}: ~${tokens} tokens`)
        .join("\n"),
    );
  });

  it("answers a long answer in parts that join into the whole answer", { timeout: 120_000 }, async () => {
    const app = await build();
    const args = {
      approvedServiceIds: slugsOf("aws").slice(0, 250),
      to: { sovereignOption: true },
      detail: "full",
      limit: 50,
    };
    const whole = (await callTokens(app, "exit_plan", { ...args, maxLength: 1_000_000 })).result;
    expect(whole.structuredContent.continuation).toBeUndefined();
    let json = "";
    let startIndex: number | null = 0;
    let parts = 0;
    while (startIndex !== null) {
      const { result, tokens } = await callTokens(app, "exit_plan", { ...args, maxLength: 8_000, startIndex });
      expect(tokens).toBeLessThanOrEqual(2_000);
      const { continuation } = result.structuredContent as {
        continuation: { startIndex: number; nextIndex: number | null };
      };
      expect(continuation.startIndex).toBe(startIndex);
      const text = result.content[0].text as string;
      json += text.split("\n\n")[1];
      startIndex = continuation.nextIndex;
      parts++;
    }
    expect(parts).toBeGreaterThan(2);
    expect(JSON.parse(json)).toEqual(whole.structuredContent);
    const past = (await callTokens(app, "exit_plan", { ...args, startIndex: json.length })).result;
    expect(past.isError).toBe(true);
    expect(past.structuredContent.details).toMatch(/past the end/);
  });
});
