/**
 * The DORA register of an approved list (issue 127): the provider-side templates of Commission
 * Implementing Regulation (EU) 2024/2956 — B_05.01 (ICT third-party service providers), B_02.02
 * (contractual arrangements, specific information), B_05.02 (supply chains) and B_07.01
 * (assessment) — each cell filled from a sourced fact, from the exit plan, from the request, or
 * left for the entity and named in toFill; then the supervisors' checks (rules.ts) run on it.
 * One function serves the API, a saved list, the text host, the site and MCP.
 */
import { isValidLei } from "../base/lei.ts";
import { HttpError } from "../base/problem.ts";
import type { Catalogue } from "../load/load.ts";
import { resolvePlaces, UnknownPlacesError, type Place } from "../locations/places.ts";
import type { ExitTargetT, RegisterEntityT, RegisterT, RegisterTemplateT } from "../schema/index.ts";
import { assessments, worstOf, type ServiceAssessment } from "./assessment.ts";
import { entityCell, fact, fromRequest, member, ruleCell, toFillOf, type Row } from "./cells.ts";
import { providerFacts, providerFileSource, serviceTypesOf, type ProviderFacts } from "./providers.ts";
import { runChecks } from "./rules.ts";
import {
  LEGAL_PERSON,
  LEI_CODE_TYPE,
  NO,
  REGULATION,
  SERVICE_TYPE_NAMES,
  SUBSTITUTABILITY,
  TAXONOMY_ENTRY_POINT,
  TEMPLATES,
  YES,
} from "./taxonomy.ts";

export interface RegisterRequest {
  /** Known service ids (the caller has refused unknown ones), in the list's order. */
  readonly ids: readonly string[];
  readonly allowedLocations?: readonly string[] | undefined;
  readonly to?: ExitTargetT | undefined;
  readonly entity?: RegisterEntityT | undefined;
  /** A saved list's jobs, planned as its exit plan plans them. */
  readonly jobsUsed?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Where the exit plan behind B_07.01 is, in words (the list's, or POST /v1/exit-plan). */
  readonly exitPlanAt: string;
}

/** One approved service as the register reads it. */
interface Line {
  readonly slug: string;
  readonly name: string;
  readonly providerId: string;
  readonly type: string;
  /** Countries its data may sit in among the allowed places, each with how the catalogue knows it; absent without places. */
  readonly countries?: readonly { country: string; level: string }[];
}

const refuse = (details: string) => new HttpError(400, "Invalid register request", details);

/** Every key of an entity map must be one of the list's; each stray one named in one 400. */
function checkKeys(field: string, keys: readonly string[], known: ReadonlySet<string>, what: string) {
  const stray = keys.filter((key) => !known.has(key));
  if (stray.length > 0)
    throw refuse(
      `entity.${field}: ${stray
        .slice(0, 10)
        .map((key) => `"${key.slice(0, 80)}"`)
        .join(
          ", ",
        )} ${stray.length === 1 ? "is" : "are"} not ${what} of the list (${[...known].slice(0, 20).join(", ")}).`,
    );
}

/** The entity's LEIs' check digits (the schema checks their form): each wrong one named in one 400. */
function checkLeis(entity: RegisterEntityT) {
  const given = [
    ...(entity.lei ? [["entity.lei", entity.lei] as const] : []),
    ...Object.entries(entity.providerCodes ?? {}).map(([id, lei]) => [`entity.providerCodes.${id}`, lei] as const),
  ];
  const wrong = given.filter(([, lei]) => !isValidLei(lei));
  if (wrong.length > 0)
    throw refuse(
      `${wrong.map(([field, lei]) => `${field} "${lei}"`).join(", ")}: the ISO 17442 check digits (the last two) are wrong; copy the LEI from its GLEIF record.`,
    );
}

function placesOf(catalogue: Catalogue, words: readonly string[] | undefined): Place[] | undefined {
  if (!words) return undefined;
  try {
    return resolvePlaces(catalogue, words, "allowedLocations");
  } catch (error) {
    if (error instanceof UnknownPlacesError) throw new HttpError(400, "Unknown locations", error.message);
    throw error;
  }
}

/** The countries a service's data may sit in among the places: its regions the places cover (global: its home regions). */
function countriesOf(
  catalogue: Catalogue,
  slug: string,
  places: readonly Place[],
): { country: string; level: string }[] {
  const record = catalogue.bySlug.get(slug)!;
  const covered = record.regions.filter((region) =>
    places.some(
      (place) =>
        place.regions.some((r) => r.providerId === record.service.providerId && r.id === region.id) ||
        (place.kind === "global" && region.level === "global"),
    ),
  );
  const seen = new Map<string, string>();
  for (const region of covered) if (!seen.has(region.country)) seen.set(region.country, region.level);
  return [...seen].map(([country, level]) => ({ country, level }));
}

const LEVEL_WORDS: Readonly<Record<string, string>> = {
  service: "the service's own regions (the vendor's per-service data)",
  provider:
    "the provider's regions: the vendor publishes no per-service list the catalogue reads, so confirm the service runs there",
  global: "the region the vendor names for its global endpoint",
};

export function buildRegister(catalogue: Catalogue, request: RegisterRequest): RegisterT {
  const notes: string[] = [];
  const entity = request.entity ?? {};
  const types = serviceTypesOf(catalogue);
  const places = placesOf(catalogue, request.allowedLocations);
  const lines: Line[] = request.ids.map((id) => {
    const { service } = catalogue.bySlug.get(id)!;
    return {
      slug: service.slug,
      name: service.name,
      providerId: service.providerId,
      type: types.get(service.category)?.type ?? "",
      ...(places ? { countries: countriesOf(catalogue, service.slug, places) } : {}),
    };
  });
  const byProvider = new Map<string, string[]>();
  for (const line of lines) byProvider.set(line.providerId, [...(byProvider.get(line.providerId) ?? []), line.slug]);
  const providerIds = new Set(byProvider.keys());
  checkKeys("arrangements", Object.keys(entity.arrangements ?? {}), providerIds, "a provider");
  checkKeys("providerCodes", Object.keys(entity.providerCodes ?? {}), providerIds, "a provider");
  checkKeys("functions", Object.keys(entity.functions ?? {}), new Set(request.ids), "a service");
  checkLeis(entity);

  const facts = new Map(
    [...providerIds].map((id) => [id, providerFacts(catalogue, id, entity.providerCodes?.[id])] as const),
  );
  const assessed = assessments(catalogue, byProvider, request.to, request.jobsUsed, notes);
  const context = { catalogue, entity, facts, lines, assessed, byProvider };
  const templates: RegisterTemplateT[] = [
    template("B_05.01", providerRows(context)),
    template("B_02.02", arrangementRows(context)),
    template("B_05.02", supplyChainRows(context)),
    template("B_07.01", assessmentRows(context)),
  ];
  const untyped = lines.filter((line) => !line.type);
  if (untyped.length > 0)
    notes.push(
      `No ICT service type is recorded for the category of ${untyped.map((line) => line.slug).join(", ")} (data/register.yaml); their type cells are left to the entity.`,
    );
  if (places)
    for (const line of lines)
      if (line.countries?.length === 0)
        notes.push(
          `${line.name} runs in none of the allowed locations the catalogue knows of: its storage and processing countries are left to the entity.`,
        );
  // From the data, not the clock: the same request makes the same register (and package bytes).
  const referenceDate = entity.referenceDate ?? `${catalogue.lastUpdated.slice(0, 4)}-12-31`;
  const level = entity.level === "consolidated" ? "CON" : "IND";
  const release = catalogue.changes.find((change) => change.released)?.release ?? null;
  return {
    regulation: REGULATION,
    taxonomy: TAXONOMY_ENTRY_POINT,
    catalogue: { release, lastUpdated: catalogue.lastUpdated },
    parameters: {
      entityID: entity.lei ? `rs:${entity.lei}.${level}` : "",
      refPeriod: referenceDate,
      baseCurrency: `iso4217:${entity.currency ?? "EUR"}`,
      decimalsInteger: "0",
      decimalsMonetary: "0",
    },
    providers: [...facts.values()],
    templates,
    toFill: toFillOf(templates),
    checks: runChecks(templates),
    exitPlan: request.exitPlanAt,
    notes: [
      ...notes,
      "Substitutability, its reason and the alternative providers (B_07.01) are the exit plan's reading of the catalogue (rule in docs/register.md); the entity assesses them and may change them before filing.",
      "Storage and processing countries (B_02.02 c0150, c0160) are those of the allowed locations where each service runs, as the catalogue places it; processing is placed where the data is stored, as a region-bound service processes it there. Confirm against the deployment.",
      "B_01, B_02.01, B_03, B_04 and B_06 (the entity, its arrangements' general information, signatories, users and functions) are the entity's own templates: the report package holds only the four provider-side ones, so the references into them are not checked here.",
    ],
  };
}

type Context = {
  readonly catalogue: Catalogue;
  readonly entity: RegisterEntityT;
  readonly facts: ReadonlyMap<string, ProviderFacts>;
  readonly lines: readonly Line[];
  readonly assessed: ReadonlyMap<string, ServiceAssessment>;
  readonly byProvider: ReadonlyMap<string, readonly string[]>;
};

function template(id: RegisterTemplateT["id"], rows: Row[]): RegisterTemplateT {
  const spec = TEMPLATES.find((entry) => entry.id === id)!;
  return {
    id,
    name: spec.name,
    file: spec.file,
    columns: spec.columns.map(({ code, name }) => ({ code, name })),
    rows: rows.map((row) => ({
      ...row,
      // Every column has a cell of its own making: one left out is a mistake here, never an empty cell.
      cells: Object.fromEntries(
        spec.columns.map(({ code }) => {
          const cell = row.cells[code];
          if (!cell) throw new Error(`${id} ${code}: no cell`);
          return [code, cell];
        }),
      ),
    })),
  };
}

/** The provider's identification code and its type: the request's or the catalogue's LEI, else the entity's to fill. */
function providerCode(facts: ProviderFacts, entity: RegisterEntityT) {
  if (entity.providerCodes?.[facts.providerId])
    return { code: fromRequest(facts.lei!), type: member(LEI_CODE_TYPE, "request") };
  if (facts.lei)
    return {
      code: fact(facts.lei, "data/register.yaml"),
      type: member(LEI_CODE_TYPE, "catalogue", "data/register.yaml"),
    };
  const why = `No record the catalogue could read states the LEI of ${facts.entity} (GLEIF was not in reach): enter it, or its EUID for an EU entity.`;
  return { code: entityCell(why), type: entityCell("LEI (eba_qCO:qx2000) once the code is entered.") };
}

function arrangement(context: Context, providerId: string) {
  const reference = context.entity.arrangements?.[providerId];
  return reference
    ? fromRequest(reference)
    : entityCell("The entity's own reference number of its contract with the provider.");
}

function providerRows(context: Context): Row[] {
  return [...context.facts.values()].map((facts) => {
    const { code, type } = providerCode(facts, context.entity);
    // The pages behind the entity (data/register.yaml's sources), else the provider's data file.
    const pages = context.catalogue.source.register?.entities
      .find((entry) => entry.provider === facts.providerId)
      ?.contractingEntity.sources.map((page) => page.url);
    const source =
      facts.basis === "contracting-entity" && pages
        ? `data/register.yaml: ${pages.join(", ")}`
        : providerFileSource(facts.providerId);
    return {
      label: `${facts.providerName}: ${facts.entity}`,
      services: [...(context.byProvider.get(facts.providerId) ?? [])],
      cells: {
        c0010: code,
        c0020: type,
        c0030: ruleCell("", "Optional: a second code of the provider (its EUID, say) the entity may add with c0040."),
        c0040: ruleCell("", "With c0030 only."),
        c0050: fact(facts.entity, source),
        c0060: ruleCell("", "Reported only where the legal name is not in the Latin alphabet; this one is."),
        c0070: member(LEGAL_PERSON, "catalogue", `${source}: ${facts.entity} is a company`),
        c0080: facts.country
          ? { ...fact(`eba_GA:${facts.country}`, source), label: facts.country }
          : entityCell(`The country of ${facts.entity}'s head office: no page read states it.`),
        c0090: entityCell("The currency of the annual expense, with c0100."),
        c0100: entityCell("The entity's annual expense with the provider."),
        c0110: entityCell(
          facts.parent
            ? `The code of the ultimate parent undertaking: ${facts.parent.name}${facts.parent.lei ? ` (LEI ${facts.parent.lei}) heads the group; enter it if it is the ultimate parent undertaking` : ", whose LEI no page read states"}.`
            : "The code of the ultimate parent undertaking, unless the provider is its own.",
        ),
        c0120: entityCell("LEI (eba_qCO:qx2000) once the parent's code is entered."),
      },
    };
  });
}

/** B_02.02: per provider, function, type of ICT services and country of storage, one row. */
function arrangementRows(context: Context): Row[] {
  const rows = new Map<string, Row>();
  for (const line of context.lines) {
    const facts = context.facts.get(line.providerId)!;
    const { code, type } = providerCode(facts, context.entity);
    const fn = context.entity.functions?.[line.slug];
    const places = line.countries && line.countries.length > 0 ? line.countries : [undefined];
    for (const place of places) {
      const key = [line.providerId, fn ?? "", line.type, place?.country ?? ""].join("\u0000");
      const known = rows.get(key);
      if (known) {
        known.services.push(line.slug);
        continue;
      }
      const country = place
        ? {
            ...fact(`eba_GA:${place.country}`, `catalogue regions: ${LEVEL_WORDS[place.level] ?? place.level}`),
            label: place.country,
            ...(place.level === "provider" ? { note: LEVEL_WORDS.provider } : {}),
          }
        : entityCell("Where the data is stored: give allowedLocations, or enter the country.");
      rows.set(key, {
        label: `${facts.providerName} · ${SERVICE_TYPE_NAMES.get(line.type) ?? "type not recorded"}${place ? ` · ${place.country}` : ""}${fn ? ` · ${fn}` : ""}`,
        services: [line.slug],
        cells: {
          c0010: arrangement(context, line.providerId),
          c0020: context.entity.lei ? fromRequest(context.entity.lei) : entityCell("The entity's own LEI."),
          c0030: code,
          c0040: type,
          c0050: fn ? fromRequest(fn) : entityCell("The function the service supports (B_06.01's identifier)."),
          c0060: typeCell(context, line),
          c0070: entityCell("The contract's start date."),
          c0080: entityCell("The contract's end date, if any."),
          c0090: ruleCell("", "Reported only for an arrangement that has ended or been terminated."),
          c0100: entityCell("The entity's notice period, in days."),
          c0110: entityCell("The provider's notice period, in days."),
          c0120: entityCell("The country whose law governs the contract."),
          c0130: entityCell("The country the services are provided from, as the contract states it."),
          c0140: entityCell("Whether the provider stores the entity's data (Yes or No)."),
          c0150: country,
          c0160: place
            ? { ...country, note: "Processing placed where the data is stored (the region); confirm." }
            : entityCell("Where the data is processed: give allowedLocations, or enter the country."),
          c0170: entityCell("How sensitive the data stored is (low, medium, high)."),
          c0180: entityCell("The level of reliance on the service for a critical or important function."),
        },
      });
    }
  }
  return [...rows.values()];
}

function typeCell(context: Context, line: Line) {
  if (!line.type) return entityCell("No ICT service type is recorded for this category: enter it.");
  const category = context.catalogue.bySlug.get(line.slug)!.service.category;
  return {
    ...member(`eba_TA:${line.type}`, "catalogue", `data/register.yaml serviceTypes (${category})`),
    label: `${line.type} ${SERVICE_TYPE_NAMES.get(line.type)}`,
  };
}

/** Rows of one provider grouped by type of ICT services (the key of B_05.02 and B_07.01). */
function byType(context: Context) {
  const groups = new Map<string, { providerId: string; type: string; lines: Line[] }>();
  for (const line of context.lines) {
    const key = `${line.providerId}\u0000${line.type}`;
    const group = groups.get(key) ?? { providerId: line.providerId, type: line.type, lines: [] };
    group.lines.push(line);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function supplyChainRows(context: Context): Row[] {
  return byType(context).map(({ providerId, type, lines }) => {
    const facts = context.facts.get(providerId)!;
    const { code, type: codeType } = providerCode(facts, context.entity);
    return {
      label: `${facts.providerName} · ${SERVICE_TYPE_NAMES.get(type) ?? "type not recorded"} · rank 1`,
      services: lines.map((line) => line.slug),
      cells: {
        c0010: arrangement(context, providerId),
        c0020: typeCell(context, lines[0]!),
        c0030: code,
        c0040: codeType,
        c0050: ruleCell("1", "The direct ICT third-party service provider is rank 1 (ITS Annex I, B_05.02)."),
        c0060: entityCell("The recipient of the sub-contracted service in the chain, as the ITS asks for rank 1."),
        c0070: entityCell("The type of the recipient's code."),
      },
    };
  });
}

function assessmentRows(context: Context): Row[] {
  return byType(context).map(({ providerId, type, lines }) => {
    const facts = context.facts.get(providerId)!;
    const { code, type: codeType } = providerCode(facts, context.entity);
    const assessed = lines.map((line) => context.assessed.get(line.slug)!);
    const worst = worstOf(assessed.map((entry) => entry.substitutability));
    const reasons = [
      ...new Set(
        assessed.filter((entry) => entry.substitutability === worst && entry.reason).map((entry) => entry.reason!),
      ),
    ];
    const alternatives = [...new Set(assessed.flatMap((entry) => entry.alternatives))];
    const why = lines.map((line, index) => `${line.name}: ${assessed[index]!.why}`).join(" ");
    const needsReason = worst === SUBSTITUTABILITY.not || worst === SUBSTITUTABILITY.highlyComplex;
    return {
      label: `${facts.providerName} · ${SERVICE_TYPE_NAMES.get(type) ?? "type not recorded"}`,
      services: lines.map((line) => line.slug),
      cells: {
        c0010: arrangement(context, providerId),
        c0020: code,
        c0030: codeType,
        c0040: typeCell(context, lines[0]!),
        c0050: { ...member(worst, "exit-plan", "the exit plan (rule: docs/register.md)"), note: why },
        c0060: needsReason
          ? member(
              reasons.length === 1 ? reasons[0]! : "eba_ZZ:x965",
              "exit-plan",
              "the exit plan (rule: docs/register.md)",
            )
          : ruleCell("", "Asked only for not substitutable or highly complex substitutability."),
        c0070: entityCell("The date of the entity's last audit of the provider."),
        c0080: {
          ...member(YES, "exit-plan", "the exit plan the catalogue makes for the list"),
          note: "The catalogue's exit plan for these services: Yes once the entity adopts it (or its own) as its documented exit plan.",
        },
        c0090: entityCell("Whether the entity could bring the service back in house."),
        c0100: entityCell("The impact on the entity of discontinuing the service."),
        c0110: member(alternatives.length > 0 ? YES : NO, "exit-plan", "the exit plan's candidates"),
        c0120:
          alternatives.length > 0
            ? { value: alternatives.join("; "), basis: "exit-plan", source: "the exit plan's candidates" }
            : ruleCell("", "No alternative provider identified."),
      },
    };
  });
}
