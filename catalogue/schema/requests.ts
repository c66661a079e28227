/** Request bodies of the POST endpoints, request headers, and the services listing's and lifecycle list's queries. */
import { z } from "zod";
import {
  CALENDAR_ALARMS,
  DEFAULT_PAGE_SIZE,
  EXEMPT_PRINCIPAL_ARN_MAX,
  FEEDBACK_MESSAGE,
  IDEMPOTENCY_KEY_MAX,
  LIST_NAME_MAX,
  LIFECYCLE_WITHIN_MAX_DAYS,
  ALLOWED_LOCATION_MAX,
  MAX_ALLOWED_LOCATIONS,
  LIST_SLUG_LENGTH,
  MAX_APPROVED_IDS,
  MAX_EXEMPT_PRINCIPALS,
  MAX_ID_LENGTH,
  MAX_PAGE_SIZE,
  MAX_URL_LENGTH,
} from "../base/limits.ts";
import { JobsUsed } from "./exit-plan.ts";
import { DataGb } from "./exit-leaving.ts";
import { strictBody } from "./unknown-keys.ts";
import {
  COMPLIANCE_FILTER_SCOPES,
  d,
  LIFECYCLE_KINDS,
  LIFECYCLE_STATUSES,
  OUTBOUND_KINDS,
  queryBoolean,
} from "./vocabulary.ts";

/**
 * The filters' shapes as JSON Schema patterns (issue 123), so the document refuses what the server
 * refuses for its shape: a filter holds a value (`?provider=` and `?region=,` are a 400), a closed
 * vocabulary's words in any case, a place words of the place rule (placeWordProblem). Which ids and
 * names exist is data: an unknown one is the filter's own 400 (Unknown provider, Unknown region).
 */
export const FILTER_VALUE_PATTERN = "[^\\s,]";
/** A word in any case, as a pattern without flags: "own" → "[oO][wW][nN]". */
const caseless = (word: string) =>
  [...word].map((char) => (/[a-z]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : char)).join("");
/** A comma-separated list of a closed vocabulary's words, any case, blanks between commas allowed. */
export const wordListPattern = (words: readonly string[], one = false): string => {
  const item = `\\s*(?:${words.map(caseless).join("|")})\\s*`;
  return one ? `^${item}$` : `^(?:\\s*,)*${item}(?:,(?:\\s*,)*${item})*(?:,\\s*)*$`;
};
/** A comma-separated list of place words (placeWordProblem's rule), blanks between commas allowed. */
export const placeListPattern = (): string => {
  // 2 to 40 characters once trimmed: a letter or digit, then any of them, the last no space.
  const word =
    "\\s*[A-Za-z0-9\\u00C0-\\u024F][A-Za-z0-9\\u00C0-\\u024F :/._'()-]{0,38}[A-Za-z0-9\\u00C0-\\u024F:/._'()-]";
  return `^(?:\\s*,)*${word}\\s*(?:,(?:\\s*,)*${word}\\s*)*(?:,\\s*)*$`;
};

/** A filter's string, its shape checked by `pattern` (which OpenAPI shows), so a shape is refused before any value is read. */
const shaped = (pattern: string, message: string) => z.string().regex(new RegExp(pattern), message).optional();
const HOLDS_VALUE = "must hold a value (empty, it would answer unfiltered); give one, or leave the parameter out";
/**
 * A list of places: each item refused in placeWordProblem's words, as allowedLocations' items are
 * (a 480-character region says so on GET as in a POST); the pattern is the same rule for OpenAPI.
 */
export const placesShaped = () =>
  z
    .string()
    .superRefine((raw, ctx) => {
      const items = raw
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
      if (items.length === 0) ctx.addIssue({ code: "custom", message: HOLDS_VALUE });
      for (const item of items.slice(0, 5)) {
        const problem = placeWordProblem(item);
        if (problem) ctx.addIssue({ code: "custom", message: `"${item.slice(0, 40)}" ${problem}` });
      }
    })
    .optional()
    .meta({ pattern: placeListPattern() });

/** GET /v1/services's query (query.ts's listServices reads it). */
export const ServicesQuery = z.object({
  provider: shaped(FILTER_VALUE_PATTERN, HOLDS_VALUE).meta({
    description:
      "Only these providers' services: provider ids or names, comma-separated, case-insensitive, any of them (AWS, Google Cloud, OVH → aws, gcp, ovhcloud; the names read are said in filtersRead; a list and names since 1.13.0). An unknown one is a 400 Unknown provider naming the nearest, an empty one a 400",
    example: "aws,Google Cloud",
  }),
  category: shaped(FILTER_VALUE_PATTERN, HOLDS_VALUE).meta({
    description:
      "Only services of these categories: category ids or names, comma-separated, case-insensitive, any of them (identity → security-identity; a list and names since 1.13.0). An unknown one is a 400 Unknown category naming the nearest, an empty one a 400",
    example: "storage",
  }),
  q: z.string().optional().meta({
    description:
      "Free-text search over names, aliases, tags, kinds and descriptions, in relevance order: provider words (aws, azure, gcp…) put that provider first; typos and joined or split words are understood; when no service matches every word, the closest matches (see search in the response)",
  }),
  freeTier: queryBoolean("When true, only services with a free tier (true or false, 1 or 0)"),
  lifecycle: shaped(
    wordListPattern(["active", ...LIFECYCLE_STATUSES]),
    "must be active, preview, deprecated, sunset or retired, comma-separated",
  ).meta({
    description:
      "Only services with one of these lifecycle statuses: active (no lifecycle block), preview, deprecated, sunset or retired, comma-separated, case-insensitive (a list since 1.13.0). An unknown one is a 400 naming the nearest, an empty one a 400",
    example: "active,preview",
  }),
  compliance: shaped(FILTER_VALUE_PATTERN, HOLDS_VALUE).meta({
    description:
      "Only services that hold this programme (an id of the compliance vocabulary, e.g. secnumcloud, c5, hds, ens-high; case-insensitive): by default those a provider's published scope list names (their own compliance), with the sources that back it in the answer's compliance.sources (since 1.10.0); those whose provider holds it provider-wide only with complianceScope=provider or all, labelled so in compliance.providerWide (since 1.12.0; 1.11.0 answered them always). The answer's compliance.counts gives both apart. Comma-separated programmes are all required: compliance=c5,hds keeps the services holding both (since 1.11.0). An unknown id is a 400 listing the ids",
    example: "c5,hds",
  }),
  complianceScope: shaped(wordListPattern(COMPLIANCE_FILTER_SCOPES, true), "must be one of own, provider or all").meta({
    description:
      "With compliance: whose holding to answer, case-insensitive (since 1.13.0). own (the default): the services a scope list names for every programme asked; provider: those holding one or more of them only through their provider's provider-wide holding (Provider.defaultCompliance with no scope list cited; never a preview or retired service); all: both. Without compliance it is a 400 (added in 1.12.0)",
    example: "all",
  }),
  jurisdiction: shaped(FILTER_VALUE_PATTERN, HOLDS_VALUE).meta({
    description:
      "Only services of providers whose head-office jurisdiction (Provider.jurisdiction: an ISO 3166-1 alpha-2 code, or EU for an EU/EEA member state) is one of these: comma-separated, case-insensitive, any of them (a provider has one). A value no provider has is a 400 listing those the catalogue records (a German provider is recorded as EU, not DE) (since 1.11.0)",
    example: "EU,CH",
  }),
  region: placesShaped().meta({
    description:
      "Only services that run in one of these places, comma-separated, case-insensitive, any of them (since 1.11.0). A place is a region id of any provider (provider:region for one named like a group or country, e.g. heroku:eu), an ISO country code, EU, EEA, a vendor's multi-region or dual-region (NAM4, EUR4, gcp:US) or global (every kind since 1.12.0). \"Runs there\" is read from service-level data only (1.12.0): a regional service's own regions (ServiceDetail.placement.kind regional), a global service when global is asked or a place holds the region its vendor names for it (listed in places.global); a provider-level service, whose own regions are not known, is left out of data and listed apart in places.providerLevel. An unknown place is a 400 naming the nearest",
    example: "eu-central-1,EU",
  }),
  country: placesShaped().meta({
    description:
      "Only services that run in one of these countries (ISO 3166-1 alpha-2, comma-separated, case-insensitive, any of them), read as region= reads it (since 1.11.0); it takes every kind of place region= takes (EU, EEA, multi-regions, global; since 1.12.0), and both together must each hold the service. An unknown place is a 400 Unknown country naming the nearest",
    example: "DE,FR",
  }),
  page: z.coerce.number().int().min(1).default(1).meta({ description: "1-based page index" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE}` }),
});
export type ServicesQueryT = z.infer<typeof ServicesQuery>;

/**
 * The one rule of a comma-separated id list (compare, exposure, lifecycle's ids, the text host's
 * compare path), in its two forms side by side: idListItems reads a list (search/ids.ts parseIdList
 * bounds and checks what it gives), idListPattern says the same to OpenAPI. An item is trimmed
 * (JavaScript's trim, the same white space as \s); blank items are dropped, so any number may stand
 * around the 1 to `max` others; duplicates count toward `max`. tests/catalogue/id-list.test.ts holds
 * the two forms to each other.
 */
export const idListItems = (raw: string): string[] =>
  raw
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);

/** idListItems's rule as a pattern: a list it reads as 1 to `max` items, and no other. */
export const idListPattern = (max: number): string => {
  const item = String.raw`\s*[^,\s][^,]*`;
  const blanks = String.raw`(?:\s*,)*`;
  return `^${blanks}${item}(?:,${blanks}${item}){0,${max - 1}}(?:,\\s*)*$`;
};

/** A comma-separated list of a vocabulary's values (trimmed, repeats allowed), as one pattern OpenAPI shows too. */
const choiceList = (values: readonly string[]) => {
  const one = `(?:${values.join("|")})`;
  const pattern = `^\\s*${one}\\s*(?:,\\s*${one}\\s*)*$`;
  return z
    .string()
    .regex(new RegExp(pattern), `must be one or more of ${values.join(", ")}, comma-separated`)
    .optional()
    .meta({ pattern });
};

/** The values of a comma-separated list (choiceList's, provider's), trimmed, in order, each once. */
export const listValues = (raw: string | undefined): string[] | undefined =>
  raw === undefined
    ? undefined
    : [
        ...new Set(
          raw
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ];

/** GET /v1/lifecycle's query; the text host's /lifecycle takes the same. */
export const LifecycleQuery = z.object({
  within: z
    .string()
    .regex(/^\d{1,5}d?$/, `must be a whole number of days, e.g. 90d (0d to ${LIFECYCLE_WITHIN_MAX_DAYS}d)`)
    .refine((value) => Number(value.replace(/d$/, "")) <= LIFECYCLE_WITHIN_MAX_DAYS, {
      message: `must be at most ${LIFECYCLE_WITHIN_MAX_DAYS}d`,
    })
    .optional()
    .meta({
      description: `"<n>d" (or "<n>"), n a whole number from 0 to ${LIFECYCLE_WITHIN_MAX_DAYS}: only entries whose sunsetDate is between today (UTC) and today + n days, both included; undated and past entries are left out`,
      example: "90d",
      // The regex and the refine above as one JSON Schema pattern: 1 to 5 digits, at most 3650
      // (tests/contract/openapi-bounds.test.ts checks every value against LIFECYCLE_WITHIN_MAX_DAYS).
      pattern: String.raw`^(?=\d{1,5}d?$)0*(?:\d{1,3}|[12]\d{3}|3[0-5]\d{2}|36[0-4]\d|3650)d?$`,
    }),
  status: choiceList(LIFECYCLE_STATUSES).meta({
    description: `Only entries with one of these lifecycle statuses: ${LIFECYCLE_STATUSES.join(", ")}, comma-separated (status=deprecated,preview; a list since 1.12.0)`,
    example: "sunset,retired",
  }),
  provider: shaped(FILTER_VALUE_PATTERN, HOLDS_VALUE).meta({
    description:
      "Only these providers' entries: provider ids or names, comma-separated, case-insensitive (provider=azure,gcp; a list since 1.12.0; names such as Google Cloud since 1.13.0); an unknown one is a 400 Unknown provider naming the nearest, an empty one a 400",
    example: "gcp",
  }),
  ids: z
    .string()
    .optional()
    .meta({
      pattern: idListPattern(MAX_APPROVED_IDS),
      description: `Only these services' entries: comma-separated service slugs (1 to ${MAX_APPROVED_IDS}, duplicates counted), trimmed, case-insensitive (since 1.12.0), empty items and duplicates dropped; an unknown slug is a 400 naming it with the nearest slugs, as on compare and exposure; a service with no lifecycle entry (active) adds none (since 1.11.0)`,
      example: "aws-ec2,gcp-gke",
    }),
  kind: choiceList(LIFECYCLE_KINDS).meta({
    description: `Only entries of these kinds (${LIFECYCLE_KINDS.join(", ")}, comma-separated): service for services' own statuses, version for the end dates and phases of their versions and tiers; every kind when absent (added in 1.11.0; a list since 1.12.0)`,
    example: "version",
  }),
});
export type LifecycleQueryT = z.output<typeof LifecycleQuery>;

/**
 * One reminder's days: a whole number from 0 to CALENDAR_ALARMS.maxDays (730), an optional d; the
 * pattern is the whole check, so OpenAPI and the server agree (tests/catalogue/calendar-alarms.test.ts).
 */
const ALARM_DAYS = String.raw`(?:[0-6]?\d{1,2}|7[0-2]\d|730)d?`;
export const ALARMS_PATTERN = `^(?:none|${ALARM_DAYS}(?:,${ALARM_DAYS}){0,${CALENDAR_ALARMS.maxCount - 1}})$`;

/** ?alarms= of the calendars: the reminders' days before each event, most first, or none ([]). */
const alarms = z
  .string()
  .regex(
    new RegExp(ALARMS_PATTERN),
    `must be none, or 1 to ${CALENDAR_ALARMS.maxCount} whole numbers of days from 0 to ${CALENDAR_ALARMS.maxDays}, comma-separated (e.g. 30,7)`,
  )
  .transform((value) =>
    value === "none"
      ? []
      : [...new Set(value.split(",").map((days) => Number(days.replace(/d$/, ""))))].sort((a, b) => b - a),
  )
  .optional()
  .meta({
    description: `Reminders (VALARM) on each event to come: days before it, comma-separated, 1 to ${CALENDAR_ALARMS.maxCount} of them, each 0 to ${CALENDAR_ALARMS.maxDays} (a d after each is allowed, repeats are dropped); none for no reminder. Default ${CALENDAR_ALARMS.defaultDays.join(",")}, as the built file has them; events already past carry none (added in 1.11.0)`,
    example: "30,7",
    pattern: ALARMS_PATTERN,
  });

/** GET /v1/lifecycle.ics's query: the lifecycle filters and the reminders. */
export const LifecycleCalendarQuery = LifecycleQuery.extend({ alarms });
export type LifecycleCalendarQueryT = z.output<typeof LifecycleCalendarQuery>;

/** GET /v1/lists/{id}/lifecycle.ics's query. */
export const ListCalendarQuery = z.object({
  within: LifecycleQuery.shape.within,
  kind: z
    .enum(LIFECYCLE_KINDS)
    .optional()
    .meta({
      description: `Only events of this kind of lifecycle entry (one of ${LIFECYCLE_KINDS.join(", ")}; added in 1.11.0)`,
      example: "service",
    }),
  alarms,
});
export type ListCalendarQueryT = z.output<typeof ListCalendarQuery>;

export const approvedServiceIds = z
  .array(z.string().min(1).max(MAX_ID_LENGTH))
  .min(1)
  // The cap counts distinct ids: repeating one id is harmless (the request body's size bounds the array).
  .superRefine((ids, ctx) => {
    const distinct = new Set(ids).size;
    if (distinct > MAX_APPROVED_IDS)
      ctx.addIssue({
        code: "custom",
        message: `must name at most ${MAX_APPROVED_IDS} distinct service ids; ${distinct} were given`,
      });
  })
  .meta(d(`Service ids as in the services listing: 1 to ${MAX_APPROVED_IDS} distinct ids (repeats are ignored)`));

export const ApprovedServicesBody = strictBody({ approvedServiceIds }).meta({
  id: "ApprovedServicesBody",
  description: "Request body of the policy and export endpoints; an unknown key is a 400",
});

/**
 * What a place word may be, the one rule of every parameter and body that takes places (GET
 * /v1/services region= and country=, /v1/exposure regions=, allowedLocations): at most
 * ALLOWED_LOCATION_MAX characters of letters (Latin, accents included: Zürich, São Paulo), digits,
 * space and : / . _ ' ( ) -, as providers write region ids (IONOS's de/fra, heroku:eu) and names
 * (AWS's "Europe (Frankfurt)") and people write places. The reason a word is refused, worded alike on every face (issue 123); undefined when it may
 * be a place (whether one answers to it is the vocabulary's to say).
 */
export const PLACE_WORD_PATTERN = "^[A-Za-z0-9\\u00C0-\\u024F][A-Za-z0-9\\u00C0-\\u024F :/._'()-]*$";
const placeWordRule = new RegExp(PLACE_WORD_PATTERN);
export function placeWordProblem(word: string): string | undefined {
  if (word.length > ALLOWED_LOCATION_MAX)
    return `is ${word.length} characters; a place is at most ${ALLOWED_LOCATION_MAX}`;
  if (word.length < 2 || !placeWordRule.test(word))
    return "must be a place: a region code (eu-central-1, provider:region), a country code or name (DE, Germany), a group (EU, EEA), a multi-region (EUR4), a metro (Frankfurt) or global";
  return undefined;
}

/** One place word, refused in placeWordProblem's words: allowedLocations' items, GET /v1/places/{place}. */
export const placeWord = () =>
  z
    .string()
    .superRefine((word, ctx) => {
      const problem = placeWordProblem(word);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    // The rule as JSON Schema keywords, so a client validating against OpenAPI agrees.
    .meta({ minLength: 2, maxLength: ALLOWED_LOCATION_MAX, pattern: PLACE_WORD_PATTERN });

/**
 * Where the policy lets resources be created (added in 1.11.0): checked against the catalogue's
 * region data by policies/locations.ts, since which codes exist is data, not schema.
 */
export const allowedLocations = z
  .array(placeWord())
  .min(1)
  .max(MAX_ALLOWED_LOCATIONS)
  .optional()
  .meta(
    d(
      `1 to ${MAX_ALLOWED_LOCATIONS} places to allow beside the services: region codes of any provider (eu-central-1, westeurope, europe-west3, de/fra; provider:region for one named like a group or a country, e.g. heroku:eu), ISO 3166-1 alpha-2 country codes (DE: every region of the vendor located there), groups (EU: the EU member states; EEA: the EU plus IS, LI and NO), vendors' multi-regions and dual-regions (EUR4: the regions they cover; since 1.12.0) or global (a vendor's global endpoint, outside any location rule; since 1.12.0). Each vendor's document allows its own regions among them; an unknown place is a 400 naming the nearest (added in 1.11.0)`,
    ),
  );

/** Request body of the Azure and Google Cloud policy endpoints. */
export const PolicyBody = strictBody({ approvedServiceIds, allowedLocations }).meta({
  id: "PolicyBody",
  description: "Request body of POST /v1/policies/beta-policy and gamma-org-policy; an unknown key is a 400",
});
export type PolicyBodyT = z.output<typeof PolicyBody>;

/**
 * An aws:PrincipalARN pattern as AWS writes exemptions (ExemptedPrincipalArns of AWS Control Tower
 * and the Control Catalog: ^arn:(aws|aws-us-gov):(iam|sts)::.+:.+$): an IAM role or user ARN, a
 * federated-user session, or an account's root, the account id and the name possibly wildcarded
 * with * and ?, e.g. arn:aws:iam::*:role/AWSControlTowerExecution. An assumed-role session matches
 * the shape but is refused below (ASSUMED_ROLE_ARN_PATTERN). The partition may be the AWS European
 * Sovereign Cloud's (aws-eusc), whose ARNs are arn:aws-eusc:… (its user guide, "ARNs").
 */
export const PRINCIPAL_ARN_PATTERN =
  /^arn:(?:aws|aws-cn|aws-us-gov|aws-eusc):(?:iam|sts)::(?:[0-9*?]{1,12}):(?:root|(?:role|user|assumed-role|federated-user)\/[A-Za-z0-9+=,.@_\-/*?]{1,1024})$/;

/**
 * An STS assumed-role session ARN (arn:aws:sts::<account>:assumed-role/<role>/<session>). For a
 * role session aws:PrincipalArn holds the role's ARN, and AWS says not to give the assumed-role
 * session ARN as its value (global condition keys, aws:PrincipalArn:
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn),
 * so such a pattern would exempt nobody: the request refuses it (decisions.md#approved-means-usable).
 */
export const ASSUMED_ROLE_ARN_PATTERN = /^arn:[^:]+:sts::[^:]*:assumed-role\//;

export const ScpBody = strictBody({
  approvedServiceIds,
  exemptPrincipalArns: z
    .array(
      z
        .string()
        .max(EXEMPT_PRINCIPAL_ARN_MAX)
        .regex(
          PRINCIPAL_ARN_PATTERN,
          "must be an IAM principal ARN pattern such as arn:aws:iam::*:role/AWSControlTowerExecution (* and ? as wildcards)",
        )
        .refine((arn) => !ASSUMED_ROLE_ARN_PATTERN.test(arn), {
          message:
            "is an STS assumed-role session ARN, which aws:PrincipalARN never holds: for a role session AWS evaluates aws:PrincipalARN against the role's ARN, so give the role's ARN instead, e.g. arn:aws:iam::<account>:role/<role-name> (the role name is the part after assumed-role/, before the session name)",
        })
        // The refinement in the document too, so a client validating against it agrees with the server.
        .meta({ not: { pattern: ASSUMED_ROLE_ARN_PATTERN.source } }),
    )
    .min(1)
    .max(MAX_EXEMPT_PRINCIPALS)
    .optional()
    .meta(
      d(
        `deny-list only: 1 to ${MAX_EXEMPT_PRINCIPALS} IAM role or user ARN patterns (* and ? as wildcards) exempt from the deny through an ArnNotLike aws:PrincipalARN condition, e.g. arn:aws:iam::*:role/AWSControlTowerExecution or a break-glass role (added in 1.7.0); with allowedLocations, exempt from the region deny too, and of the regions' partition (since 1.11.0)`,
      ),
    ),
  allowedLocations,
}).meta({ id: "ScpBody", description: "Request body of POST /v1/policies/alpha-scp; an unknown key is a 400" });
export type ScpBodyT = z.output<typeof ScpBody>;

export const LIST_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** Idempotency-Key: letters, digits and ._:- only, at most IDEMPOTENCY_KEY_MAX characters (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** Request headers of POST /v1/lists. */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, `must be 1 to ${IDEMPOTENCY_KEY_MAX} letters, digits, '.', '_', ':' or '-'`)
    .optional()
    .meta(
      d(
        `Idempotency-Key: a retry from the same client with the same key and body returns the list the first request saved (200) instead of saving another or answering 409; the same key with another body → 422; another client's key is its own. Kept with the list for its lifetime. 1 to ${IDEMPOTENCY_KEY_MAX} characters of [A-Za-z0-9._:-], e.g. a UUID (empty or longer → 400)`,
      ),
    ),
});

export const SavedListCreate = strictBody({
  name: z
    .string()
    .max(LIST_NAME_MAX)
    .optional()
    .meta(
      d(
        "Display name; when slug is omitted (and unlisted is not true) the slug is derived from it. A named list can be found by anyone who guesses its slug: use unlisted for a list only its link should open",
      ),
    ),
  approvedServiceIds,
  slug: z
    .string()
    .min(LIST_SLUG_LENGTH.min)
    .max(LIST_SLUG_LENGTH.max)
    .regex(LIST_SLUG_PATTERN, "must be lowercase letters, digits and hyphens, with no leading or trailing hyphen")
    .optional()
    .meta(
      d(
        `${LIST_SLUG_LENGTH.min} to ${LIST_SLUG_LENGTH.max} characters, [a-z0-9-], no leading or trailing hyphen; 409 when taken. Not with unlisted: true`,
      ),
    ),
  unlisted: z
    .boolean()
    .optional()
    .meta(
      d(
        "true: saved by its generated id only, with slug null (none given, none derived from the name), so it cannot be found by guessing a slug; readable at /v1/lists/{id} and its url only (added in 1.9.0)",
      ),
    ),
  jobsUsed: JobsUsed.optional().meta(
    d(
      "Per listed service id, the jobs (equivalence group ids, as ExitJob.group) the team uses it for, as POST /v1/exit-plan's jobsUsed: the list's exit plan (GET /v1/lists/{id}/exit-plan) plans only those, the first given being the primary. An id not in approvedServiceIds, or a job not one of the service's groups, is a 400 (added in 1.11.0)",
    ),
  ),
  dataGb: DataGb.optional().meta(
    d(
      "Per listed service id, the data to move out of it in GB, as POST /v1/exit-plan's dataGb: the list's exit plan estimates the egress of moving it (ExitPlan.leaving). An id not in approvedServiceIds is a 400 (added in 1.12.0)",
    ),
  ),
})
  .refine((body) => !(body.unlisted === true && body.slug !== undefined), {
    message: "an unlisted list has no slug: send slug or unlisted: true, not both",
    path: ["slug"],
  })
  .meta({
    id: "SavedListCreate",
    description: "Request body of POST /v1/lists; an unknown key is a 400, and so are slug with unlisted: true",
    // The refinement in the document too, so a client validating against it agrees with the server.
    not: { required: ["slug", "unlisted"], properties: { unlisted: { const: true } } },
  });

export const FeedbackBody = strictBody({
  // A string or absent, as the contract says: null is neither, and is refused (1.13.0; it was read as general).
  type: z
    .string()
    .optional()
    .meta(
      d("One of bug, feature, question, general; defaults to general when omitted or unrecognised; null is refused"),
    ),
  message: z
    .string()
    .superRefine((message, ctx) => {
      // Characters as people count them: code points, not UTF-16 units.
      const length = [...message].length;
      if (message.trim() === "") ctx.addIssue({ code: "custom", message: "must not be blank" });
      else if (length < FEEDBACK_MESSAGE.min || length > FEEDBACK_MESSAGE.max)
        ctx.addIssue({
          code: "custom",
          message: `must be ${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters; it has ${length}`,
        });
    })
    // The bounds as JSON Schema keywords (its lengths count code points, as the check above does);
    // the pattern says "not blank".
    .meta({
      description: `${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters, not blank`,
      minLength: FEEDBACK_MESSAGE.min,
      maxLength: FEEDBACK_MESSAGE.max,
      pattern: "\\S",
    }),
  email: z.email().optional().meta(d("Optional reply-to address")),
  page: z.string().max(MAX_URL_LENGTH).optional().meta(d("Where the feedback was submitted from")),
}).meta({ id: "FeedbackBody", description: "Request body of POST /v1/feedback; an unknown key is a 400" });

export const OutboundClickBody = strictBody({
  url: z
    .url({ protocol: /^https?$/ })
    .max(MAX_URL_LENGTH)
    .meta(d("The outbound URL that was followed")),
  serviceId: z.string().max(MAX_ID_LENGTH).optional().meta(d("The service whose link was followed")),
  kind: z.enum(OUTBOUND_KINDS).optional().meta(d("Which link it was")),
  page: z.string().max(MAX_URL_LENGTH).optional().meta(d("Where the click happened")),
}).meta({
  id: "OutboundClickBody",
  description: "Request body of POST /v1/analytics/outbound; an unknown key is a 400",
});
export type FeedbackBodyT = z.output<typeof FeedbackBody>;
