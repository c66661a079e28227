/**
 * The DORA register rows (issue 127, contract 1.13.0): POST /v1/register for a list in the body and
 * GET /v1/lists/{id}/register for a saved list, each answering the register as JSON, as a page
 * (Markdown), one template as CSV or the xBRL-CSV report package. See index.ts for the table.
 */
import { z } from "zod";
import { endpoint, type Endpoint, type PublicUrls, type Result } from "./endpoint.ts";
import { preferredMediaType } from "../base/media-type.ts";
import { HttpError } from "../base/problem.ts";
import { renderMarkdown } from "../format/markdown.ts";
import { cleanListName, jobsDroppedNote, listPath, resolveJobsUsed, reusableUntil } from "../lists/lists.ts";
import type { Catalogue } from "../load/load.ts";
import { buildRegister, type RegisterRequest } from "../register/build.ts";
import { packageName, reportPackage, templateCsv } from "../register/package.ts";
import { registerDoc } from "../register/page.ts";
import { registerRequestOfQuery } from "../register/query.ts";
import {
  Register,
  RegisterAcceptHeaders,
  RegisterBody,
  RegisterFormatQuery,
  RegisterQuery,
  type RegisterFormat,
  type RegisterT,
} from "../schema/index.ts";
import { readList } from "./read-list.ts";
import { approvedIds, CSV, MARKDOWN, storeCall } from "./shared.ts";
import { LISTS_ENDPOINTS, MISS_BUCKET } from "./lists.ts";
import { LIST_LIFETIME_DAYS } from "../base/limits.ts";

export const ZIP = "application/zip";
const REGISTER_MEDIA_TYPES = ["application/json", "text/markdown", "text/csv", ZIP] as const;
const REGISTER_ALTERNATES = [MARKDOWN, CSV, ZIP];

/** ?format wins; else Accept naming text/markdown, text/csv or application/zip; else JSON. */
function registerFormat(format: RegisterFormat | undefined, accept: string | undefined): RegisterFormat {
  if (format) return format;
  const chosen = preferredMediaType(accept, REGISTER_MEDIA_TYPES, "application/json");
  return chosen === "text/markdown" ? "md" : chosen === "text/csv" ? "csv" : chosen === ZIP ? "zip" : "json";
}

/** The register in the format asked for; CSV needs the template it is asked of. */
export function registerAnswer(
  register: RegisterT,
  options: {
    readonly format: RegisterFormat;
    readonly template?: string | undefined;
    readonly bom?: boolean | undefined;
    readonly listName?: string | undefined;
    readonly base?: string;
  },
): Result<RegisterT> {
  if (options.format === "md")
    return {
      text: renderMarkdown(registerDoc(register, options.listName ? { listName: options.listName } : {})),
      contentType: MARKDOWN,
    };
  if (options.format === "zip")
    return { text: "", bytes: reportPackage(register), contentType: ZIP, filename: `${packageName(register)}.zip` };
  if (options.format === "csv") {
    const template = register.templates.find((entry) => entry.file === `${options.template ?? ""}.csv`);
    if (!template)
      throw new HttpError(
        400,
        "Invalid query",
        "format=csv answers one template: add template=b_05.01, b_02.02, b_05.02 or b_07.01 (or format=zip for all of them in the report package).",
      );
    return {
      text: `${options.bom ? "\uFEFF" : ""}${templateCsv(template)}`,
      contentType: CSV,
      filename: template.file,
    };
  }
  return { body: register };
}

/** The register of a request, as every face makes it. */
export const registerOf = (catalogue: Catalogue, request: RegisterRequest): RegisterT =>
  buildRegister(catalogue, request);

const exitPlanOfBody =
  "POST /v1/exit-plan with the same approvedServiceIds and to (each provider excluded from its own services' plan)";
/** Where a saved list's exit plan is: its row's path (the Lists table), filled in. */
const exitPlanOfList = (urls: PublicUrls, list: Parameters<typeof listPath>[0]) =>
  `${urls.apiUrl}${LISTS_ENDPOINTS.find((row) => row.operationId === "getListExitPlan")!.path.replace("{id}", encodeURIComponent(list.slug ?? list.id))} (each provider excluded from its own services' plan)`;

const DESCRIPTION =
  "The provider side of a DORA register of information (Commission Implementing Regulation (EU) 2024/2956) for an approved list: templates B_05.01 (ICT third-party service providers: the legal entity EU customers contract with, its LEI where a sourced record has one, type of person, head-office country), B_02.02 (per provider, function, ICT service type and country: the type from the category table, the countries of storage and processing from the services' regions in allowedLocations), B_05.02 (the direct provider at rank 1) and B_07.01 (the assessment: substitutability and its reason, the exit plan, the alternative providers, read from an exit plan of each provider's services to the target). Every cell says where it comes from (a sourced fact, the exit plan, the request, or the entity to fill); toFill names every column left to the entity; checks runs the ESAs' published rules for these templates (v8851_m, v8854_m, v8884_m, the primary keys, the references R18, R20, R21, R22, the allowed members, LEI check digits, ISO country codes, dates) and names each failure. format=md (or Accept: text/markdown) answers the register as a page; format=csv&template=b_05.01 (or Accept: text/csv) one template as its xBRL-CSV table; format=zip (or Accept: application/zip) the xBRL-CSV report package (META-INF/reportPackage.json, reports/report.json extending the DORA taxonomy 4.0 module, parameters.csv, FilingIndicators.csv and the four tables).";

export const REGISTER_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "buildRegister",
    method: "POST",
    path: "/v1/register",
    summary: "DORA register of information",
    description: `${DESCRIPTION} entity gives what only the entity knows: its LEI, the register's level and reference date, the currency, per provider its contract reference and (where the catalogue has none) its LEI, per service the function it supports; a provider or service in entity not in the list, an unknown id, a bad LEI (ISO 17442 check digits), an unknown location or a bad target is a 400.`,
    tag: "Policies",
    bucket: "relaxed",
    query: RegisterFormatQuery,
    headers: RegisterAcceptHeaders,
    body: RegisterBody,
    response: { status: 200, schema: Register, contentType: "application/json", alternates: REGISTER_ALTERNATES },
    errors: [400, 413, 415, 429],
    cache: "no-store",
    example: {
      request: "POST /v1/register",
      body: {
        approvedServiceIds: ["aws-s3", "azure-blob-storage", "gcp-bigquery"],
        allowedLocations: ["EU"],
        to: { jurisdictions: ["EU"] },
        entity: { lei: "5493001KJTIIGC8Y1R12", arrangements: { aws: "CTR-2025-001" } },
      },
    },
    pure: true,
    handler: (c, { body, query, headers }) => {
      const ids = approvedIds(c.catalogue, body);
      const register = registerOf(c.catalogue, {
        ids,
        allowedLocations: body.allowedLocations,
        to: body.to,
        entity: body.entity,
        exitPlanAt: exitPlanOfBody,
      });
      return registerAnswer(register, {
        format: registerFormat(query.format, headers.accept),
        template: query.template,
        bom: query.bom,
      });
    },
  }),
  endpoint({
    operationId: "getListRegister",
    method: "GET",
    path: "/v1/lists/{id}/register",
    summary: "A saved list's DORA register",
    description: `${DESCRIPTION} For one saved list, with its jobs (jobsUsed) planned as its exit plan plans them; the query gives the entity's lei, level, referenceDate and currency, allowedLocations (comma-separated places) and the exit target (providers, jurisdictions, exclude, sovereignOption, euResidentOnly, as GET /v1/lists/{id}/exit-plan takes them); contract references and functions need POST /v1/register. A read renews the list (${LIST_LIFETIME_DAYS} days). Expired lists answer 404; reads that find no list count in the ${MISS_BUCKET} bucket.`,
    tag: "Lists",
    params: z.object({
      id: z.string().meta({ description: "The list's slug or generated id", example: "platform-baseline" }),
    }),
    bucket: "relaxed",
    query: RegisterQuery,
    headers: RegisterAcceptHeaders,
    response: { status: 200, schema: Register, contentType: "application/json", alternates: REGISTER_ALTERNATES },
    missBucket: MISS_BUCKET,
    errors: [400, 404, 429, 503],
    cache: "revalidate",
    example: { request: "GET /v1/lists/platform-baseline/register?allowedLocations=EU&jurisdictions=EU&format=md" },
    handler: async (c, { params, query, headers }) => {
      const asked = registerRequestOfQuery(query);
      const list = await storeCall(() => readList(c.store, params.id, c.now()));
      if (!list)
        throw new HttpError(
          404,
          "List not found",
          `No list has this slug or id; lists expire ${LIST_LIFETIME_DAYS} days after they are saved or last read.`,
        );
      const known = list.approvedServiceIds.filter((id) => c.catalogue.bySlug.has(id));
      const missing = list.approvedServiceIds.filter((id) => !c.catalogue.bySlug.has(id));
      if (known.length === 0)
        throw new HttpError(404, "List not found", "None of the list's services is in the catalogue any more.");
      // Saved jobs no longer among their service's groups are dropped and named, as the list's exit plan does.
      const { jobsUsed, dropped } = resolveJobsUsed(c.catalogue, list);
      const register = registerOf(c.catalogue, {
        ids: known,
        ...asked,
        jobsUsed,
        exitPlanAt: exitPlanOfList(c.urls, list),
      });
      if (dropped.length > 0) register.notes.unshift(jobsDroppedNote(dropped));
      if (missing.length > 0)
        register.notes.unshift(`No longer in the catalogue, so not in the register: ${missing.join(", ")}.`);
      return {
        ...registerAnswer(register, {
          format: registerFormat(query.format, headers.accept),
          template: query.template,
          bom: query.bom,
          listName: cleanListName(list.name) ?? list.slug ?? list.id,
        }),
        expiresAt: reusableUntil(list),
      };
    },
  }),
];
