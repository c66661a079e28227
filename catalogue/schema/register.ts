/**
 * The DORA register of information (issue 127, added in 1.13.0): the data file that states the
 * provider side (data/register.yaml), the request of POST /v1/register and GET
 * /v1/lists/{id}/register, and the register they answer (catalogue/register/ computes it). Template
 * and column codes are those of Commission Implementing Regulation (EU) 2024/2956 and the ESAs'
 * DORA taxonomy (catalogue/reference/dora/).
 */
import { z } from "zod";
import { isValidLei, LEI_PATTERN } from "../base/lei.ts";
import { MAX_APPROVED_IDS, MAX_ID_LENGTH } from "../base/limits.ts";
import { ExitTarget } from "./exit-plan.ts";
import { allowedLocations } from "./requests.ts";
import { closedQuery, strictBody } from "./unknown-keys.ts";
import { CountryCode, d, HttpsUrl, IsoDate, queryBoolean } from "./vocabulary.ts";

/**
 * An LEI in a request: ISO 17442's form, which JSON Schema states; its check digits, which no schema
 * keyword can, are checked by the register (a 400 Invalid register request naming the field).
 */
export const LeiForm = z
  .string()
  .regex(LEI_PATTERN, "must be an LEI: 20 characters, 18 capital letters or digits then two check digits")
  .meta(d("Legal Entity Identifier (ISO 17442): 20 characters, its last two ISO 17442 check digits"));

/** An LEI in the data: its form and its check digits, or the load fails. */
export const Lei = LeiForm.refine(isValidLei, "the ISO 17442 check digits are wrong");

/** The ITS's types of ICT services (Annex III), S01 to S19. */
export const ICT_SERVICE_TYPES = Array.from({ length: 19 }, (_, index) => `S${String(index + 1).padStart(2, "0")}`);

const RegisterFactSource = z
  .object({
    url: HttpsUrl.meta(d("The page or filing that states the fact")),
    via: HttpsUrl.optional().meta(d("The copy actually read, when it is not the page itself")),
    retrieved: IsoDate.meta(d("The day the catalogue read it")),
    asOf: IsoDate.optional().meta(d("The date the page or filing gives for itself")),
    claims: z.array(z.string().min(10)).min(1).meta(d("What it states, in the catalogue's words")),
    note: z.string().min(5).optional().meta(d("What the copy read lacked, or what to re-check")),
  })
  .strict()
  .meta({
    id: "RegisterFactSource",
    description: "The page or filing behind a fact of the register (added in 1.13.0)",
  });

const LegalEntity = z
  .object({
    name: z.string().min(2).meta(d("Legal name")),
    country: CountryCode.optional().meta(d("Country of its head office or seat; absent where no page read states it")),
    lei: Lei.optional().meta(d("Its LEI, where an official record or its own filing states it")),
    for: z.string().min(5).optional().meta(d("Which customers contract with it, as the provider's page says")),
    sources: z.array(RegisterFactSource).min(1),
  })
  .strict();

export const RegisterFile = z
  .object({
    serviceTypes: z
      .array(
        z
          .object({
            category: z.string().min(1),
            type: z.enum(ICT_SERVICE_TYPES as [string, ...string[]]),
            reason: z.string().min(10),
          })
          .strict(),
      )
      .min(1),
    entities: z.array(
      z
        .object({ provider: z.string().min(1), contractingEntity: LegalEntity, parent: LegalEntity.optional() })
        .strict(),
    ),
  })
  .strict();
export type RegisterFileT = z.infer<typeof RegisterFile>;
export type RegisterFactSourceT = z.infer<typeof RegisterFactSource>;
export type LegalEntityT = z.infer<typeof LegalEntity>;

/**
 * The entity's own references: printable characters of the Basic Multilingual Plane, so that a
 * length is the same count in JSON Schema (code points) and here (UTF-16 units).
 */
const Code = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .regex(/^[ -~\u00A0-\uD7FF\uE000-\uFFFD]+$/, "must be printable characters (no control characters or emoji)");

/** The entity's own fields: only it knows them; each one given fills its cells, each one missing is named in toFill. */
export const RegisterEntity = strictBody({
  lei: LeiForm.optional().meta(d("The LEI of the financial entity making use of the ICT services (B_02.02 c0020)")),
  level: z
    .enum(["individual", "consolidated"])
    .optional()
    .meta(
      d(
        "The register's level: individual (default; parameters.csv entityID rs:{lei}.IND) or consolidated (rs:{lei}.CON)",
      ),
    ),
  referenceDate: IsoDate.optional().meta(
    d(
      "The register's reference date (parameters.csv refPeriod); default: 31 December of the year of the catalogue's data (Register.catalogue.lastUpdated)",
    ),
  ),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as EUR")
    .optional()
    .meta(d("ISO 4217 currency of the amounts (parameters.csv baseCurrency); default EUR")),
  arrangements: z
    .record(Code, Code)
    .optional()
    .meta(
      d(
        "Per provider id, the reference number of the contractual arrangement with it (c0010 of B_02.02, B_05.02 and B_07.01); a provider not in the list is a 400",
      ),
    ),
  functions: z
    .record(Code, Code)
    .optional()
    .meta(
      d("Per approved service id, the function identifier it supports (B_02.02 c0050); an id not in the list is a 400"),
    ),
  providerCodes: z
    .record(Code, LeiForm)
    .optional()
    .meta(
      d(
        "Per provider id, the LEI of the provider's contracting entity, where the entity holds one the catalogue does not (B_05.01 c0010); a provider not in the list is a 400",
      ),
    ),
}).meta({
  id: "RegisterEntity",
  description: "The entity's own fields of a register request: only the entity knows them (added in 1.13.0)",
});

export const RegisterBody = strictBody({
  approvedServiceIds: z
    .array(z.string().min(1).max(MAX_ID_LENGTH))
    .min(1)
    .max(MAX_APPROVED_IDS)
    .meta(d(`The approved services: ids as in the services listing (1 to ${MAX_APPROVED_IDS})`)),
  allowedLocations: allowedLocations
    .unwrap()
    .optional()
    .meta(
      d(
        "Where the list's data may sit: region ids, country codes, EU or EEA (as the policies take them). Each service's regions among them give the countries of storage and processing (B_02.02 c0150, c0160); without them those cells are left to the entity",
      ),
    ),
  to: ExitTarget.optional().meta(
    d(
      "The exit target the assessment (B_07.01) plans to, as POST /v1/exit-plan takes it; each provider of the list is excluded from its own services' plan. Default: every provider of the catalogue",
    ),
  ),
  entity: RegisterEntity.optional(),
}).meta({ id: "RegisterBody", description: "Request body of POST /v1/register; an unknown key is a 400" });
export type RegisterBodyT = z.infer<typeof RegisterBody>;
export type RegisterEntityT = z.infer<typeof RegisterEntity>;

/** The templates the register writes, as the ITS names them. */
export const REGISTER_TEMPLATES = ["B_05.01", "B_02.02", "B_05.02", "B_07.01"] as const;
export type RegisterTemplateId = (typeof REGISTER_TEMPLATES)[number];
/** The answer's formats: JSON, Markdown (the page), one template as CSV, the xBRL-CSV report package. */
export const REGISTER_FORMATS = ["json", "md", "csv", "zip"] as const;
export type RegisterFormat = (typeof REGISTER_FORMATS)[number];

const templateParameter = z
  .enum(["b_05.01", "b_02.02", "b_05.02", "b_07.01"])
  .optional()
  .meta({ description: "format=csv only: the template to answer (b_05.01, b_02.02, b_05.02 or b_07.01)" });
const formatParameter = z.enum(REGISTER_FORMATS).optional().meta({
  description:
    "json (default), md (the register as a page), csv (one template: template=), zip (the xBRL-CSV report package); wins over Accept",
});

/** Accept chooses the format when ?format is absent. */
export const RegisterAcceptHeaders = z.object({
  accept: z
    .string()
    .optional()
    .meta(
      d(
        "text/markdown (the page), text/csv (one template, with template=) or application/zip (the report package); anything else: JSON; ?format wins",
      ),
    ),
});

/** The query of POST /v1/register. */
export const RegisterFormatQuery = closedQuery({
  format: formatParameter,
  template: templateParameter,
  bom: queryBoolean("CSV only: true (or 1) starts the file with a UTF-8 byte order mark"),
});

const commaList = (what: string) =>
  z
    .string()
    .max(2000)
    .optional()
    .meta({ description: `Comma-separated ${what}` });

/** The query of GET /v1/lists/{id}/register: the entity's LEI and dates, the places, the target and the format. */
export const RegisterQuery = closedQuery({
  lei: z
    .string()
    .optional()
    .meta({ description: "The LEI of the financial entity (RegisterEntity.lei)", example: "5493001KJTIIGC8Y1R12" }),
  level: z.enum(["individual", "consolidated"]).optional().meta({ description: "RegisterEntity.level" }),
  referenceDate: z.string().optional().meta({ description: "RegisterEntity.referenceDate (YYYY-MM-DD)" }),
  currency: z.string().optional().meta({ description: "RegisterEntity.currency (ISO 4217)" }),
  allowedLocations: commaList("places (RegisterBody.allowedLocations), e.g. EU or eu-central-1,westeurope"),
  providers: commaList("provider ids of the exit target (ExitTarget.providers)"),
  jurisdictions: commaList("head-office jurisdictions of the exit target (ExitTarget.jurisdictions)"),
  sovereignOption: queryBoolean("true: only sovereign-option providers in the exit target"),
  euResidentOnly: queryBoolean("true: only EU-resident-only providers in the exit target"),
  exclude: commaList("provider ids never to use in the exit target (ExitTarget.exclude)"),
  format: formatParameter,
  template: templateParameter,
  bom: queryBoolean("CSV only: true (or 1) starts the file with a UTF-8 byte order mark"),
});

/** Where a cell's value comes from. */
export const CELL_BASES = ["catalogue", "exit-plan", "request", "entity", "rule"] as const;

export const RegisterCell = z
  .object({
    value: z
      .string()
      .meta(
        d("The value as the CSV holds it (a taxonomy member such as eba_TA:S17, a code, a date); empty: not reported"),
      ),
    label: z.string().optional().meta(d("The value in words (the ITS's name of a member, a country's code)")),
    basis: z
      .enum(CELL_BASES)
      .meta(
        d(
          "catalogue: a sourced fact of the catalogue (source names it); exit-plan: derived from the exit plan by the rule note gives; request: given in the request; entity: only the entity knows it, left empty and named in toFill; rule: fixed by the ITS for this row (e.g. rank 1)",
        ),
      ),
    source: z.string().optional().meta(d("The page, data file or rule behind the value")),
    note: z.string().optional().meta(d("What to check before filing")),
  })
  .meta({ id: "RegisterCell", description: "One cell of a register template (added in 1.13.0)" });

export const RegisterTemplate = z
  .object({
    id: z.enum(REGISTER_TEMPLATES).meta(d("The ITS's template code")),
    name: z.string().meta(d("The ITS's template name")),
    file: z.string().meta(d("Its CSV file in the report package (the taxonomy's table URL)")),
    columns: z
      .array(z.object({ code: z.string().meta(d("Column code, c0010…")), name: z.string().meta(d("ITS column name")) }))
      .meta(d("Its columns, in the ITS's order")),
    rows: z
      .array(
        z.object({
          label: z.string().meta(d("The row in words: provider, service type, place")),
          services: z.array(z.string()).meta(d("The approved services behind the row, by slug")),
          cells: z.record(z.string(), RegisterCell).meta(d("Per column code, its cell")),
        }),
      )
      .meta(d("Its rows")),
  })
  .meta({ id: "RegisterTemplate", description: "One template of the register (added in 1.13.0)" });

export const RegisterCheck = z
  .object({
    rule: z.string().meta(d("The rule's id: the ESAs' (v8851_m, R18…) where they publish one, else the ITS's column")),
    source: z.string().meta(d("Where the rule is published")),
    template: z.string().meta(d("The template it failed in")),
    column: z.string().optional().meta(d("The column")),
    row: z.string().optional().meta(d("The row, in words")),
    message: z.string().meta(d("What is wrong and what to fill or fix before filing")),
  })
  .meta({ id: "RegisterCheck", description: "A check the supervisors run that the register fails (added in 1.13.0)" });

export const Register = z
  .object({
    regulation: z.string().meta(d("The ITS the templates follow")),
    taxonomy: z.string().meta(d("The taxonomy entry point the report package extends")),
    catalogue: z
      .object({
        release: z.string().nullable().meta(d("The newest catalogue release, null when none is recorded")),
        lastUpdated: z.string().meta(d("When the catalogue data last changed (ISO 8601)")),
      })
      .meta(d("The catalogue the register was made from")),
    parameters: z
      .record(z.string(), z.string())
      .meta(
        d("parameters.csv of the report package: entityID, refPeriod, baseCurrency, decimalsInteger, decimalsMonetary"),
      ),
    providers: z
      .array(
        z.object({
          providerId: z.string().meta(d("Provider id")),
          providerName: z.string().meta(d("Provider display name")),
          entity: z.string().meta(d("The legal entity reported in B_05.01")),
          basis: z
            .enum(["contracting-entity", "head-office"])
            .meta(
              d(
                "contracting-entity: data/register.yaml names the entity EU customers contract with; head-office: none is recorded, so the provider's operating company (Provider.headOffice) is reported",
              ),
            ),
          for: z.string().optional().meta(d("Which customers contract with it")),
          country: z.string().optional().meta(d("Its country, where stated")),
          lei: z.string().optional().meta(d("Its LEI, where known")),
          parent: z
            .object({
              name: z.string(),
              country: z.string().optional(),
              lei: z.string().optional(),
            })
            .optional()
            .meta(d("Its parent group, where stated")),
          sources: z.array(RegisterFactSource).meta(d("The pages and filings behind it")),
        }),
      )
      .meta(d("The providers of the list and the facts behind their rows")),
    templates: z.array(RegisterTemplate).meta(d("B_05.01, B_02.02, B_05.02 and B_07.01")),
    toFill: z
      .array(
        z.object({
          template: z.string().meta(d("Template code")),
          column: z.string().meta(d("Column code")),
          name: z.string().meta(d("ITS column name")),
          rows: z.array(z.string()).meta(d("The rows left empty, in words")),
          why: z.string().meta(d("Why the catalogue cannot fill it")),
        }),
      )
      .meta(d("Every column only the entity can fill, with the rows it is empty in")),
    checks: z
      .object({
        failures: z.array(RegisterCheck).meta(d("Each failure, for the user to fix before filing")),
        run: z.array(z.string()).meta(d("The rules run, by id")),
        notRun: z.array(z.string()).meta(d("The published rules not run, and why")),
      })
      .meta(d("The supervisors' checks that concern these templates, run on this register")),
    exitPlan: z.string().meta(d("Where the exit plan behind B_07.01 is (POST /v1/exit-plan or the list's)")),
    notes: z.array(z.string()).meta(d("What the register does not say: read before filing")),
  })
  .meta({
    id: "Register",
    description:
      "POST /v1/register: the provider side of a DORA register of information for an approved list (added in 1.13.0)",
  });
export type RegisterT = z.infer<typeof Register>;
export type RegisterCellT = z.infer<typeof RegisterCell>;
export type RegisterTemplateT = z.infer<typeof RegisterTemplate>;
export type RegisterCheckT = z.infer<typeof RegisterCheck>;
