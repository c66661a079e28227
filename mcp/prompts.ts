/**
 * Three prompts for the questions people bring: the equivalent of a service on another provider,
 * an exit plan for a list, and what in a list sunsets soon. Each checks its arguments against the
 * catalogue (unknown ids are refused as the API refuses them), states the facts it already knows
 * with the catalogue release, and tells the assistant which tool answers the rest.
 */
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, ErrorCode, type GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { requireKnownIds } from "../catalogue/search/ids.ts";
import { addDays, dayOf } from "../catalogue/lifecycle/lifecycle.ts";
import { LIFECYCLE_WITHIN_MAX_DAYS, LIST_LIFECYCLE_WARNING_DAYS, MAX_APPROVED_IDS } from "../catalogue/base/limits.ts";
import { HttpError } from "../catalogue/base/problem.ts";
import { serviceSearch } from "../catalogue/search/search.ts";
import type { ServiceT } from "../catalogue/schema/index.ts";
import { RELEASE_META } from "./resources.ts";
import { catalogueRelease, releaseLine } from "./text.ts";
import type { ToolContext } from "./tools.ts";
import { nearestSlugs, resolveProvider } from "./ids.ts";

/** Prompt arguments are strings (MCP prompts); lists are comma-separated, bounded as the API bounds a body. */
const IdList = z
  .string()
  .max(64 * 1024)
  .meta({ description: `Comma-separated service slugs (1 to ${MAX_APPROVED_IDS}), e.g. aws-s3,aws-lambda` });

// The arguments, made once: a server is made per HTTP request, and a schema costs to make.
const EQUIVALENT_ARGS = {
  service: z.string().max(200).meta({ description: "A service slug (aws-sqs) or its name (Amazon SQS)" }),
  provider: z.string().max(200).meta({ description: "The provider id to find it on (azure, gcp, ovhcloud…)" }),
};
const EXIT_ARGS = {
  serviceIds: IdList,
  target: z.string().max(500).optional().meta({
    description:
      "Where to go, in words: sovereign-option providers (default), EU-resident only, ovhcloud and scaleway…",
  }),
};
const SUNSET_ARGS = {
  serviceIds: IdList,
  withinDays: z
    .string()
    .regex(/^\d{1,4}$/, "must be a whole number of days")
    .optional()
    .meta({
      description: `Days from today (default ${LIST_LIFECYCLE_WARNING_DAYS}, at most ${LIFECYCLE_WITHIN_MAX_DAYS})`,
    }),
};

function idsOf(context: ToolContext, raw: string): string[] {
  const ids = [...new Set(raw.split(",").map((id) => id.trim()))].filter(Boolean);
  if (ids.length === 0 || ids.length > MAX_APPROVED_IDS)
    throw new McpError(ErrorCode.InvalidParams, `Give 1 to ${MAX_APPROVED_IDS} service slugs, comma-separated`);
  return guard(() => requireKnownIds(context.catalogue, ids));
}

/** The catalogue's refusal (HttpError) as the JSON-RPC error a prompt answers with. */
function guard<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof HttpError)
      throw new McpError(ErrorCode.InvalidParams, `${error.message}${error.details ? `: ${error.details}` : ""}`);
    throw error;
  }
}

function prompt(context: ToolContext, description: string, text: string): GetPromptResult {
  const release = catalogueRelease(context.catalogue);
  return {
    description,
    messages: [{ role: "user", content: { type: "text", text: `${text}\n\n${releaseLine(release)}` } }],
    _meta: { [RELEASE_META]: release },
  };
}

const describe = (context: ToolContext, service: ServiceT) =>
  `${service.name} (${service.slug}, ${context.catalogue.providerById.get(service.providerId)?.provider.name ?? service.providerId})`;

/** Words too common to name a service by themselves ("Nope Service" names none). */
const COMMON_WORDS = new Set(["service", "services", "the", "cloud", "managed", "for", "and", "on", "of", "a"]);
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0 && !COMMON_WORDS.has(word));

/**
 * A service by slug, else the search's best match for the words when that service's name, slug
 * or aliases hold one of the words; otherwise the words name no service and the prompt says so
 * with the nearest slugs, rather than building a prompt about an unrelated service.
 */
function findService(context: ToolContext, words: string): ServiceT {
  const bySlug = context.catalogue.bySlug.get(words.trim())?.service;
  if (bySlug) return bySlug;
  const best = serviceSearch(context.catalogue).search(words).slugs[0];
  const found = best ? context.catalogue.bySlug.get(best)?.service : undefined;
  const asked = new Set(wordsOf(words));
  const named =
    found && wordsOf([found.name, found.slug, ...(found.aliases ?? [])].join(" ")).some((word) => asked.has(word));
  if (!found || !named)
    throw new McpError(
      ErrorCode.InvalidParams,
      `No service matches "${words.slice(0, 100)}": give a slug or a service's name. ${nearestSlugs(context.catalogue, [words.trim().toLowerCase().replace(/\s+/g, "-")])}`,
    );
  return found;
}

function equivalentPrompt(context: ToolContext, service: string, provider: string): GetPromptResult {
  const { catalogue } = context;
  // Names resolve as in the tools ("OVH", "Google Cloud"); an unknown one lists the ids.
  const target = catalogue.providerById.get(guard(() => resolveProvider(catalogue, provider.trim())))!.provider;
  const source = findService(context, service);
  const record = catalogue.bySlug.get(source.slug)!;
  const peers = record.equivalentSlugs
    .map((slug) => catalogue.bySlug.get(slug)!.service)
    .filter((peer) => peer.providerId === target.id);
  const listed =
    peers.length > 0
      ? `The catalogue lists ${peers.length === 1 ? "this equivalent" : "these equivalents"} on ${target.name}: ${peers.map((peer) => describe(context, peer)).join("; ")}.`
      : `The catalogue lists no equivalent of it on ${target.name}.`;
  const readAs = source.slug === service.trim() ? "" : ` ("${service.trim().slice(0, 100)}" read as ${source.slug})`;
  return prompt(
    context,
    `The equivalent of ${source.name} on ${target.name}`,
    `What is the equivalent of ${describe(context, source)}${readAs} on ${target.name}? ${listed} Use the get_service tool on each candidate (and compare_services with ${source.slug}) to check lifecycle, compliance and what differs; if there is none, search_services with provider ${target.id} for the closest service and say it is not an equivalent. Answer from the tools' results only, and cite the catalogue release.`,
  );
}

function exitPrompt(context: ToolContext, serviceIds: string, target: string): GetPromptResult {
  const ids = idsOf(context, serviceIds);
  return prompt(
    context,
    `An exit plan for ${ids.length} services`,
    `Plan an exit for this list of ${ids.length} approved services: ${ids.join(", ")}. Target: ${target || "sovereign-option providers"}. Call the exit_plan tool with approvedServiceIds ${JSON.stringify(ids)} and a "to" object expressing the target (providers, sovereignOption, euResidentOnly, jurisdictions, exclude). Report the gaps first, then each service that moves and its proposed peer with the reason for its rank, the proposed target list and the exposure before and after. Do not propose anything the plan does not; cite the catalogue release.`,
  );
}

function sunsetPrompt(context: ToolContext, serviceIds: string, days: number): GetPromptResult {
  const ids = idsOf(context, serviceIds);
  const today = dayOf(context.now());
  const horizon = addDays(today, days);
  const flagged = ids
    .map((id) => context.catalogue.bySlug.get(id)!.service)
    .filter((service) => {
      const lifecycle = service.lifecycle;
      if (!lifecycle || lifecycle.status === "preview") return false;
      return (
        lifecycle.status === "deprecated" || (lifecycle.sunsetDate !== undefined && lifecycle.sunsetDate <= horizon)
      );
    });
  const lines = flagged.map((service) => {
    const { status, sunsetDate, successorSlug } = service.lifecycle!;
    return `- ${describe(context, service)}: ${status}${sunsetDate ? ` on ${sunsetDate}` : ""}${successorSlug ? `; successor ${successorSlug}` : ""}`;
  });
  return prompt(
    context,
    `What in a list of ${ids.length} services sunsets by ${horizon}`,
    `Which of these ${ids.length} services sunset soon (by ${horizon}, ${days} days from ${today})? ${ids.join(", ")}.\n\n${
      lines.length > 0
        ? `The catalogue flags these (deprecated, sunset or retired by then):\n${lines.join("\n")}`
        : "The catalogue flags none of them as deprecated, sunset or retired by then."
    }\n\nFor each flagged service, use get_service for its announcement and successor, and lifecycle_upcoming with withinDays ${days} for the wider picture; suggest replacements only from the catalogue's equivalents, and cite the catalogue release.`,
  );
}

/**
 * Completions answer every match: the SDK sends the first 100 (the most MCP allows) with the true
 * `total` and `hasMore` (its createCompletionResult). Cut to 50 here, "aws-" said total 50 and no
 * more of 277 (issue 126).
 */
/** A copy to mark as completable (completable() marks the schema itself), its description kept. */
const copy = <T extends z.ZodType>(schema: T): T => schema.clone().meta(z.globalRegistry.get(schema) ?? {});

/** The last item of a comma-separated list completed from `values`, the items before it kept. */
const completeList = (values: () => readonly string[]) => (typed: string | undefined) => {
  const parts = (typed ?? "").split(",");
  const last = parts.pop()!.trim();
  const before = parts.map((part) => part.trim()).filter(Boolean);
  const prefix = before.length > 0 ? `${before.join(",")},` : "";
  return values()
    .filter((value) => value.startsWith(last) && !before.includes(value))
    .map((value) => `${prefix}${value}`);
};

/** The prompts' arguments with completions from one catalogue, made once per catalogue. */
const completing = new WeakMap<
  object,
  { equivalent: typeof EQUIVALENT_ARGS; exit: typeof EXIT_ARGS; sunset: typeof SUNSET_ARGS }
>();

function argsFor(context: ToolContext) {
  const made = completing.get(context.catalogue);
  if (made) return made;
  const slugs = () => context.catalogue.services.map((service) => service.slug);
  const providers = () => context.catalogue.providers.map((provider) => provider.id);
  const one = (values: () => readonly string[]) => (typed: string | undefined) =>
    values().filter((value) => value.startsWith(typed ?? ""));
  const args = {
    equivalent: {
      service: completable(copy(EQUIVALENT_ARGS.service), one(slugs)),
      provider: completable(copy(EQUIVALENT_ARGS.provider), one(providers)),
    },
    exit: { ...EXIT_ARGS, serviceIds: completable(copy(EXIT_ARGS.serviceIds), completeList(slugs)) },
    sunset: { ...SUNSET_ARGS, serviceIds: completable(copy(SUNSET_ARGS.serviceIds), completeList(slugs)) },
  };
  completing.set(context.catalogue, args);
  return args;
}

export function registerPrompts(server: McpServer, context: ToolContext): void {
  const args = argsFor(context);
  server.registerPrompt(
    "find_equivalent",
    {
      title: "Find the equivalent of a service on another provider",
      description: "The equivalent of service X on provider Y, from the catalogue's equivalence groups",
      argsSchema: args.equivalent,
    },
    ({ service, provider }) => equivalentPrompt(context, service, provider),
  );
  server.registerPrompt(
    "plan_exit",
    {
      title: "Plan an exit for this list",
      description: "An exit plan for an approved list onto the providers a target allows",
      argsSchema: args.exit,
    },
    ({ serviceIds, target }) => exitPrompt(context, serviceIds, target ?? ""),
  );
  server.registerPrompt(
    "sunsets_soon",
    {
      title: "What in this list sunsets soon",
      description: "The services of a list that are deprecated, or sunset or retired within a number of days",
      argsSchema: args.sunset,
    },
    ({ serviceIds, withinDays }) =>
      sunsetPrompt(
        context,
        serviceIds,
        Math.min(Number(withinDays ?? LIST_LIFECYCLE_WARNING_DAYS), LIFECYCLE_WITHIN_MAX_DAYS),
      ),
  );
}
