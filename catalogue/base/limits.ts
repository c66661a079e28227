/**
 * Every limit and duration of the API, named once. Code, schema descriptions, OpenAPI, discovery,
 * the nginx template and the site read these; prose elsewhere is generated from them.
 */

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/**
 * Saved lists live this long after they are saved or last read, then answer 404 and free their slug
 * (docs/design.md "Decisions on what the contract leaves open"; docs/decisions.md#list-renewal).
 */
export const LIST_LIFETIME_DAYS = 90;
export const LIST_LIFETIME_MS = LIST_LIFETIME_DAYS * DAY_MS;
/**
 * Reading a saved list moves its expiry to the read + LIST_LIFETIME_DAYS, at most once this many
 * days per list (docs/decisions.md#list-renewal): a list read every minute costs one write a day.
 */
export const LIST_RENEWAL_DAYS = 1;
export const LIST_RENEWAL_MS = LIST_RENEWAL_DAYS * DAY_MS;

/** Rate-limit buckets (contract "Limits"): per client IP per minute, independent of each other. */
export const BUCKETS = {
  strict: { max: 10, windowMs: MINUTE_MS },
  relaxed: { max: 30, windowMs: MINUTE_MS },
  /** POST /mcp: the calls of assistants (MCP_UNCOUNTED_METHODS, a session's setup, are not counted). */
  mcp: { max: 120, windowMs: MINUTE_MS },
  /**
   * Reads of a saved list (by slug or id) that find none: slugs come from names, so unmetered misses
   * let a script guess them; reads that find a list are not counted (added in 1.9.0).
   */
  misses: { max: 20, windowMs: MINUTE_MS },
} as const;
export type BucketName = keyof typeof BUCKETS;

/**
 * The strict bucket as a visitor of the site meets it (the list builder's Save and deployment check,
 * its downloads without JavaScript): said beside them, the API's numbers.
 */
export const STRICT_BUCKET_TEXT = `Saving a list, checking a deployment and (without JavaScript) each download share the API's strict limit: ${BUCKETS.strict.max} a minute from one address; past it, the answer says when to try again.`;

/**
 * The messages of an MCP session's setup and discovery, not counted in the mcp bucket (since 1.10.0):
 * answered from the server's own description, they cost what a GET does, and counting them spent
 * an office's shared address on setup (100 assistants: 300 messages before the first call).
 */
export const MCP_UNCOUNTED_METHODS: readonly string[] = [
  "initialize",
  "notifications/initialized",
  "notifications/cancelled",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
];

/** The text host's own limit, per client IP. */
export const TEXT_HOST_LIMIT = { max: 60, windowMs: MINUTE_MS } as const;

/** Read responses may be cached this long (Cache-Control max-age). */
export const READ_CACHE_SECONDS = 300;

/** The site's hashed assets (/_astro/*) never change under one name: cached a year, immutable. */
export const ASSET_CACHE_SECONDS = 31_536_000;

/** Request bodies over this answer 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The deployment check's own body limit: what `bicep build` writes for a real sample reaches
 * megabytes (146 KB to 1.9 MB measured), as CDK output does; 64 KiB refused the templates it reads.
 */
export const MAX_TEMPLATE_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The most .tf files one deployment check reads (the request's `files`, a folder given to
 * `cloud-catalogue check`): one Terraform module's folder.
 */
export const MAX_TF_FILES = 200;

/**
 * A template's reading budgets, each per request (a template past one fails alone: 422 naming it).
 * Values: each scalar, array and object after YAML aliases (a 4 MiB vendor template holds about
 * 200,000). Heap and time: the sidecar reads each template in a thread of its own (a 4 MiB vendor
 * template needs ~40 MB and ~0.3 s there).
 */
export const TEMPLATE_VALUES_MAX = 500_000;
export const TEMPLATE_READ_HEAP_MB = 48;
export const TEMPLATE_READ_SECONDS = 10;

/**
 * The server's own time for a request it has read, its waits and its work (the time its body takes
 * to arrive is the client's): past it a 503 with Retry-After (sidecar/deadline.ts). A body must
 * arrive within REQUEST_BODY_SECONDS (else 408); an upload waiting for its turn waits at most two
 * thirds of that, so that a body left unread is never answered 408.
 */
export const REQUEST_DEADLINE_SECONDS = 25;
export const REQUEST_HEADERS_SECONDS = 10;
export const REQUEST_BODY_SECONDS = 30;

/** What discovery says of them. */
export const TIME_LIMITS_TEXT = `A request's headers must arrive within ${REQUEST_HEADERS_SECONDS} s and its body within ${REQUEST_BODY_SECONDS} s (else 408). The server gives a request it has read ${REQUEST_DEADLINE_SECONDS} s of its own time (queues, threads, the computation); past it, a 503 with Retry-After. A deployment check's upload waits for its turn at most ${(REQUEST_BODY_SECONDS * 2) / 3} s.`;

/** A body limit as people write it: "64 KiB", "4 MiB". */
export const bodyLimitText = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;

/** What a 413 says: the limit of the path that refused the body (the sidecars' and nginx's words). */
export const bodyTooLargeDetails = (bodyLimit: number = MAX_BODY_BYTES): string =>
  bodyLimit === MAX_BODY_BYTES
    ? `Request bodies are limited to ${bodyLimitText(bodyLimit)}`
    : `Request bodies are limited to ${bodyLimitText(bodyLimit)} on this path (${bodyLimitText(MAX_BODY_BYTES)} elsewhere)`;

/**
 * JSON nested deeper than this is refused (400, or a tool error) before anything walks it: 64 KiB
 * holds 32,000 levels of `[`, which overflow the stack of a recursive walk (structured clone, zod).
 * The deepest body the contract describes is four levels.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * A template (a deployment check's template or .tf files, and the body that carries it) nests at
 * most this deep: real plans go past MAX_JSON_DEPTH (an aws_wafv2_web_acl's and → or → not
 * statements two modules deep: 35 levels in its plan's configuration). Every reader and evaluator
 * holds this depth in a quarter of a reading thread's 4 MB stack (tests/catalogue/template-depth.test.ts).
 */
export const TEMPLATE_MAX_DEPTH = 256;

/**
 * The evaluator's budgets, per evaluation (issue 120; STYLE.md 31 "Check the bound, then spend"):
 * each is checked before what it bounds is made, in the one evaluator the API, MCP and the CLI run,
 * and past one the evaluation ends with a 422 Template too costly naming the file, the line (or the
 * template's path) and the bound. The largest vendor template the tests hold
 * (chat-with-your-data, 3.2 MB of ARM) takes 83,248 steps and 470 instances: under 5% of each.
 */
export const TEMPLATE_BUDGETS = {
  /** Resource and module instances in all: count, for_each, module calls, ARM copy loops, Fn::ForEach. */
  instances: 10_000,
  /** Items of one list, set, map or object that a function, a for expression, a splat, range or a loop makes. */
  items: 10_000,
  /** Characters of one string a function, an interpolation or an intrinsic makes. */
  stringChars: 1_048_576,
  /** Characters of every string made in one evaluation, together (what string work costs). */
  totalChars: 16_777_216,
  /** Steps of one evaluation: each expression or template value evaluated, each item made or compared. */
  steps: 5_000_000,
  /** Regular expressions' work in one evaluation: each pattern's program size times the length of the text it reads. */
  regexWork: 50_000_000,
} as const;
export type TemplateBudgetName = keyof typeof TEMPLATE_BUDGETS;

/** An ARM copy loop's count at most: Azure's own limit ("The count can't exceed 800."). */
export const ARM_COPY_MAX = 800;
export const ARM_COPY_LIMITS_URL =
  "https://learn.microsoft.com/azure/azure-resource-manager/templates/copy-resources#copy-limits";

const number = (value: number) => value.toLocaleString("en");

/** Each evaluation budget in words with its number: error messages, discovery, the docs and --help read these. */
export const TEMPLATE_BUDGET_WORDS: Readonly<Record<TemplateBudgetName, string>> = {
  instances: `${number(TEMPLATE_BUDGETS.instances)} resource and module instances (count, for_each, modules, ARM copy loops, Fn::ForEach)`,
  items: `${number(TEMPLATE_BUDGETS.items)} items in one list, set or map a function, a for expression, a splat, range or a loop makes`,
  stringChars: `${number(TEMPLATE_BUDGETS.stringChars)} characters in one string a function or an interpolation makes`,
  totalChars: `${number(TEMPLATE_BUDGETS.totalChars)} characters in all the strings one evaluation makes`,
  steps: `${number(TEMPLATE_BUDGETS.steps)} steps of evaluation (each expression evaluated, each item made or compared)`,
  regexWork: `${number(TEMPLATE_BUDGETS.regexWork)} units of regular-expression work (a pattern's size times its text's length; patterns run in RE2's linear time)`,
};

/** The evaluation's budgets in one sentence's words. */
export const TEMPLATE_EVALUATION_TEXT = `${Object.values(TEMPLATE_BUDGET_WORDS).join("; ")}; an ARM copy loop at most ${ARM_COPY_MAX} (Azure's own limit)`;

/**
 * A deployment check's answer describes each version in full (its phases with their consequences
 * and prices, its retiring phase, its vendor page) on this many of its entries; each later entry of
 * the same version names it and its phase but leaves the description to those (issue 120: a 1.5 KB
 * tree of modules, 512 instances of one engine version, answered 1.2 MB, 1.3 KB of each entry the
 * same prose). Every instance keeps its entry: the gate's findings are per instance.
 */
export const VERSION_DESCRIBED_ENTRIES = 3;

/** The budgets in words, for the row's description, discovery and the docs. */
export const TEMPLATE_BUDGET_TEXT = `${TEMPLATE_VALUES_MAX.toLocaleString("en")} values after YAML aliases, ${TEMPLATE_MAX_DEPTH} levels of nesting, ${TEMPLATE_READ_HEAP_MB} MB of heap and ${TEMPLATE_READ_SECONDS} s to read; then, to evaluate: ${TEMPLATE_EVALUATION_TEXT}; each per request`;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Ids per request: compare, exposure, and approved lists (policies, export, saved lists). */
export const MAX_COMPARE_IDS = 10;
export const MAX_EXPOSURE_IDS = 50;
export const MAX_APPROVED_IDS = 500;
/** exemptPrincipalArns of the SCP endpoint: at most this many ARN patterns, each at most IAM's ARN length. */
export const MAX_EXEMPT_PRINCIPALS = 20;
export const EXEMPT_PRINCIPAL_ARN_MAX = 2048;
/** allowedLocations of the policy endpoints: at most this many regions, countries or groups, each this long. */
export const MAX_ALLOWED_LOCATIONS = 100;
export const ALLOWED_LOCATION_MAX = 40;
/** The text host's /search shows at most this many results. */
export const TEXT_SEARCH_RESULTS = 20;
/** The text host shows at most this many services side by side. */
export const MAX_TEXT_COMPARE_SHOWN = 8;
/** The text host's ANSI answers: 80 columns unless ?width= or a COLUMNS header asks for another within these. */
export const TEXT_WIDTH = { default: 80, min: 40, max: 200 } as const;

/** Longest service id in a request body, and longest URL or page reference stored with feedback and clicks. */
export const MAX_ID_LENGTH = 200;
export const MAX_URL_LENGTH = 2000;
/** Longest path parameter: the API's ids and slugs; the text host's /compare/{a,b,…} holds up to ten slugs. */
export const MAX_PARAM_LENGTH = { api: MAX_ID_LENGTH, text: 2000 } as const;

/** Feedback message length, in characters (code points). */
export const FEEDBACK_MESSAGE = { min: 5, max: 5000 } as const;

/** Saved-list slugs and names. */
export const LIST_SLUG_LENGTH = { min: 2, max: 64 } as const;
export const LIST_NAME_MAX = 200;
/** Idempotency-Key header of POST /v1/lists: at most this many characters. */
export const IDEMPOTENCY_KEY_MAX = 128;

/**
 * AWS Organizations quotas the SCP generator respects: a policy's characters, white space not
 * counted, and SCPs attached to one root, OU or account.
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html
 */
export const SCP_MAX_CHARACTERS = 5120;
export const SCP_MAX_PER_TARGET = 5;

/**
 * Status history: one record of every component this often, kept this long, at most this many
 * rows; 24 hours of samples (144) fit in the rows, with room for a sample at each restart.
 */
export const STATUS_SAMPLE_MINUTES = 10;
export const STATUS_HISTORY_HOURS = 24;
export const STATUS_HISTORY_LIMIT = 200;

/** `GET /v1/lifecycle?within=<n>d`: n is a whole number of days from 0 to this. */
export const LIFECYCLE_WITHIN_MAX_DAYS = 3650;
/**
 * Calendar reminders (VALARM): days before each event by default (?alarms= absent), and the most
 * reminders and the furthest a request may ask (?alarms=30,7).
 */
export const CALENDAR_ALARMS = { defaultDays: [180, 90, 30], maxCount: 5, maxDays: 730 } as const;
/** The lifecycle page's first group: dates within this many days. */
export const LIFECYCLE_SOON_DAYS = 90;
/** The lifecycle page's second group: dates within this many days (after the first group). */
export const LIFECYCLE_YEAR_DAYS = 365;
/** A saved list's page warns about services that are deprecated or sunset within this many days. */
export const LIST_LIFECYCLE_WARNING_DAYS = 180;
