/**
 * Renders deploy/nginx.conf.template for a deployment, with the API's static locations generated
 * from the contract table's static rows, and the text host's computed paths from its route rows
 * (sidecar/text/routes.ts):
 *   node scripts/deploy-config.ts --dist /srv/catalogue/dist --prefix /var/lib/catalogue-nginx \
 *     --api-port 80 --text-port 8081 --sidecar 10.0.0.5:8080/8081 --sidecar 10.0.0.6:8080/8081 > nginx.conf
 * Each --sidecar is host:apiPort/textPort of one `node sidecar/server.ts`.
 */
import type { CataloguedError } from "../catalogue/base/error-catalogue.ts";
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ENDPOINTS } from "../catalogue/contract/index.ts";
import { closesQuery, type CachePolicy, type Endpoint } from "../catalogue/contract/endpoint.ts";
import {
  bodyTooLargeDetails,
  MAX_BODY_BYTES,
  MAX_TEMPLATE_BODY_BYTES,
  TEXT_HOST_LIMIT,
} from "../catalogue/base/limits.ts";
import { escapeHtml } from "../catalogue/format/html.ts";
import { cacheControl, IMMUTABLE_CACHE_CONTROL, READ_CACHE_CONTROL } from "../sidecar/files.ts";
import { DEADLINE_RETRY_AFTER_SECONDS } from "../sidecar/deadline.ts";
import { PAGES, pathPattern, type PageRow, type PageServing } from "../catalogue/outputs/pages.ts";
import {
  CONNECT_DETAILS,
  HEADERS_TOO_LARGE_DETAILS,
  METHOD_DETAILS,
  ORIGIN_FORM_DETAILS,
  VERSION_DETAILS,
} from "../sidecar/client-errors.ts";

export interface NginxOptions {
  dist: string;
  prefix: string;
  apiPort: number;
  textPort: number;
  listen?: string;
  sidecars: { host: string; apiPort: number; textPort: number }[];
  user?: string;
  /** The contract table whose static rows nginx serves itself. */
  table?: readonly Endpoint[];
  /** The text host's routes, whose computed paths nginx sends to a sidecar. */
  textRoutes?: readonly PageRow[];
}

/** nginx's regex for a path parameter: a file-safe segment (FILE_SEGMENT), captured by name. */
/** The methods both hosts answer (sidecar/client-errors.ts says the same). */
const ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";

const paramRegex = (name: string) => `(?<${name}>[a-z0-9]+(?:-[a-z0-9]+)*)`;
const variable = (row: Endpoint) => `$static_${row.operationId.replace(/[^A-Za-z0-9]/g, "_")}`;

/**
 * The headers of a static answer, named in each static location: add_header at the server level
 * would be inherited by @sidecar too, beside the sidecar's own (a second Cache-Control, a second
 * Vary), and a location's own add_header lines replace the server's anyway.
 */
function headers(cache: CachePolicy): string {
  return [
    `add_header Cache-Control "${cacheControl(cache)}";`,
    'add_header Access-Control-Allow-Origin "*" always;',
    // As the sidecar does (sidecar/app.ts): cross-origin scripts may read a static file's ETag.
    'add_header Access-Control-Expose-Headers "ETag" always;',
    'add_header Cross-Origin-Resource-Policy "cross-origin" always;',
    'add_header X-Content-Type-Options "nosniff" always;',
    'add_header Vary "Accept-Encoding";',
  ].join(" ");
}

/** `map` blocks: for each paged static row, the file of the plain request and of ?page=N. */
export function staticMaps(table: readonly Endpoint[]): string {
  return table
    .filter((row) => row.method === "GET" && row.static?.pages)
    .map((row) => {
      const { file, pages } = row.static!;
      return [
        `  map $args ${variable(row)} {`,
        `    "" /${file};`,
        `    "page=1" /${file};`,
        `    "~^page=(?<page>[2-9]|[1-9][0-9]{1,5})(&limit=${pages!.limit})?$" /${pages!.file.replace("{page}", "$page")};`,
        `    default "";`,
        `  }`,
      ].join("\n");
    })
    .join("\n");
}

/**
 * One location per static row: exact paths answer their file; parameterised paths capture each
 * parameter and answer the named file, falling back to a sidecar (which answers 404 in the Error
 * shape); a row with a query answers its file only for the plain request or a page it has a file
 * for; a rest-parameter row serves the build as it is. A /v1/ row asked with a query it has no
 * file for goes to a sidecar, which refuses a parameter the row does not take
 * (docs/decisions.md#closed-queries): nginx never answers the file for a query it ignored.
 */
export function staticLocations(table: readonly Endpoint[], dist: string): string {
  const lines: string[] = [];
  for (const row of table) {
    const spec = row.static;
    if (!spec || row.method !== "GET") continue;
    const own = headers(row.cache);
    const onlyReads = "if ($request_method !~ ^(GET|HEAD)$) { return 418; }";
    // $args is the query after "?" (empty for "/v1/providers" and "/v1/providers?").
    const noQuery = closesQuery(row) ? ' if ($args != "") { return 418; }' : "";
    if (row.restParam) {
      const prefix = row.path.replace(/\{\w+\}$/, "");
      // Withheld folders go to a sidecar, which answers 404 in the Error shape.
      for (const withheld of spec.withheld ?? []) lines.push(`    location ^~ ${prefix}${withheld} { return 418; }`);
      lines.push(`    location ${prefix} { alias ${dist}/${spec.root === "dist" ? "" : "api/"}; ${own} }`);
    } else if (/\{\w+\}/.test(row.path)) {
      const regex = row.path.replace(/\{(\w+)\}/g, (_, name: string) => paramRegex(name));
      const file = spec.file.replace(/\{(\w+)\}/g, "$$$1");
      lines.push(`    location ~ ^${regex}$ { ${onlyReads}${noQuery} ${own} try_files /${file} @sidecar; }`);
    } else if (spec.pages) {
      lines.push(
        `    location = ${row.path} { ${onlyReads} if (${variable(row)} = "") { return 418; } ${own} try_files ${variable(row)} @sidecar; }`,
      );
    } else if (row.query) {
      lines.push(
        `    location = ${row.path} { ${onlyReads} if ($args != "") { return 418; } ${own} try_files /${spec.file} @sidecar; }`,
      );
    } else {
      lines.push(`    location = ${row.path} { ${onlyReads}${noQuery} ${own} try_files /${spec.file} @sidecar; }`);
    }
  }
  return lines.join("\n");
}

/** The paths of the text host's rows served this way, as one alternation: `(/a|/b/[^/]+)`. */
function textPaths(routes: readonly PageRow[], serving: PageServing): string {
  const paths = routes
    .filter((route) => route.serving === serving)
    .map((route) =>
      pathPattern(route.path)
        .replace(/^\^/, "")
        .replace(/\/\?\$$/, ""),
    );
  // A row never matches: an alternation of nothing would match every path.
  return paths.length > 0 ? `(${paths.join("|")})` : "(?!)";
}

/** nginx's regex of the text host's `computed` paths: a location proxied to a sidecar. */
export const textComputedPaths = (routes: readonly PageRow[]) => `^${textPaths(routes, "computed")}/?$`;
/** nginx's regex over "$uri|$args" for `static+computed` paths asked with a query. */
export const textQueryComputed = (routes: readonly PageRow[]) => `~^${textPaths(routes, "static+computed")}/?\\|.`;

/**
 * What nginx refuses itself, each an entry of the error catalogue. A details that names a `$variable`
 * (a `map` of the template) says what the request decides: 400, 405 and 501 the sidecars' words for
 * the cases nginx can tell apart, 413 the path's body limit. `page` is the text host's wording,
 * where it differs.
 */
const NGINX_ERRORS: readonly (CataloguedError & { page?: string })[] = [
  { status: 400, error: "Bad request", details: "$bad_request_details" },
  {
    status: 404,
    error: "Not found",
    details: "No resource at this path; see GET / for the endpoint list",
    page: "No page here. Try / for the list of providers.",
  },
  {
    status: 405,
    error: "Method not allowed",
    details: "$method_not_allowed_details",
  },
  { status: 413, error: "Payload too large", details: "$body_limit_details" },
  { status: 414, error: "URI too long", details: "The request line is limited to 16 KiB." },
  {
    status: 416,
    error: "Range not satisfiable",
    details: "No range the Range header asks for lies within the file; ask without Range for the whole of it.",
  },
  { status: 417, error: "Expectation failed", details: "Only Expect: 100-continue is supported (RFC 9110 §10.1.1)." },
  { status: 431, error: "Request header fields too large", details: HEADERS_TOO_LARGE_DETAILS },
  { status: 500, error: "Internal server error", details: "Something went wrong." },
  { status: 501, error: "Not implemented", details: "$not_implemented_details" },
  { status: 505, error: "HTTP version not supported", details: VERSION_DETAILS },
];

/**
 * The `error_page` lines sending each status nginx answers itself to its page `/_<status>.<ext>`:
 * a 400 to the page `$bad_request_page` names (a 501 or 505 where a sidecar answers so), a 403
 * (the /mirror/ folder) as 404, nginx's 494 (a header line over the buffers) as 431.
 */
function nginxErrorPageLines(ext: string): string {
  return [
    `    error_page 400 = /_$bad_request_page.${ext};`,
    `    error_page 403 =404 /_404.${ext};`,
    `    error_page 494 =431 /_431.${ext};`,
    ...NGINX_ERRORS.filter(({ status }) => status !== 400).map(
      ({ status }) => `    error_page ${status} /_${status}.${ext};`,
    ),
  ].join("\n");
}

/** The renderings of the text host's own error pages: the API's Error shape for its paths, else the request's. */
const TEXT_ERROR_RENDERINGS = ["json", "ansi", "txt", "negotiate", "md", "html"] as const;

/** The internal locations answering NGINX_ERRORS, in each rendering given. */
export function nginxErrorPages(renderings: readonly ErrorRendering[]): string {
  return NGINX_ERRORS.map((entry) => {
    const allow = entry.status === 405 ? ` add_header Allow "${ALLOWED_METHODS}" always;` : "";
    const common = ` add_header Cache-Control "no-store" always; add_header X-Content-Type-Options "nosniff" always;${allow}`;
    return renderings
      .map((rendering) =>
        rendering === "json"
          ? errorLocation(entry, rendering, `${common} add_header Access-Control-Allow-Origin "*" always;`)
          : errorLocation(
              { ...entry, details: entry.page ?? entry.details },
              rendering,
              `${common} add_header Vary "Accept, Accept-Encoding" always;`,
            ),
      )
      .join("\n");
  }).join("\n");
}

/**
 * The errors nginx answers in place of a sidecar: each an entry of the error catalogue (the type
 * ties title to status), rendered by nginxErrorBody in every form the hosts answer.
 */
export const NGINX_RENDERED_ERRORS = {
  apiUnavailable: {
    status: 503,
    error: "Service unavailable",
    details: "No API instance is answering; static reads still work. Try again shortly.",
  },
  textUnavailable: { status: 503, error: "Service unavailable", details: "Try again shortly." },
  textTooMany: {
    status: 429,
    error: "Too many requests",
    details: `Limit is ${TEXT_HOST_LIMIT.max} requests per minute per IP. Try again in a minute.`,
  },
} as const satisfies Record<string, CataloguedError>;

/** A rendering of an error page: the API's Error shape, or the text host's ANSI, text, Markdown, HTML. */
export type ErrorRendering = "json" | "ansi" | "txt" | "negotiate" | "md" | "html";

/** An error's body as a rendering shows it (the text host's own error pages read the same). */
export function nginxErrorBody({ status, error, details }: CataloguedError, rendering: ErrorRendering): string {
  if (rendering === "json") return JSON.stringify({ error, status, details });
  if (rendering === "md") return `# ${status} ${error}\n\n${details}\n`;
  if (rendering === "html")
    return `<!doctype html><html lang="en"><title>${escapeHtml(error)}</title><h1>${status} ${escapeHtml(error)}</h1><p>${escapeHtml(details)}</p></html>\n`;
  return `${status} ${error}\n\n${details}\n`;
}

const MEDIA_TYPE: Record<ErrorRendering, string> = {
  json: "application/json",
  ansi: "text/plain",
  txt: "text/plain",
  negotiate: "text/plain",
  md: "text/markdown",
  html: "text/html",
};

/**
 * The internal location `/_<status>.<rendering>` answering `entry` with the headers given. It
 * takes a body of any size: a request refused for its body's size comes here while the rest of
 * that body is discarded, and a limit here would refuse it again (a redirection cycle: 500).
 */
function errorLocation(entry: CataloguedError, rendering: ErrorRendering, headers: string): string {
  const body = nginxErrorBody(entry, rendering);
  // nginx's return takes a quoted string: single quotes around JSON, double (with \n) around text.
  const quoted =
    rendering === "json"
      ? `'${body.replace(/'/g, "\\'")}'`
      : `"${body.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
  const name = rendering === "json" && entry.status === 503 ? "_unavailable" : `_${entry.status}`;
  return `    location = /${name}.${rendering} { internal; client_max_body_size 0; default_type ${MEDIA_TYPE[rendering]};${headers} return ${entry.status} ${quoted}; }`;
}

/** Internal locations answering `entry` in each rendering, with the same headers. */
function errorLocations(entry: CataloguedError, renderings: readonly ErrorRendering[], headers: string): string {
  return renderings.map((rendering) => errorLocation(entry, rendering, headers)).join("\n");
}

const TEXT_HEADERS = ` add_header Cache-Control "no-store" always; add_header Vary "Accept, Accept-Encoding" always; add_header X-Content-Type-Options "nosniff" always;`;

/**
 * nginx's own 503 (no sidecar answering) says when to try again, as the sidecars' 503s do: their
 * wait (sidecar/deadline.ts), also about how long a supervised sidecar takes to start again and
 * nginx's `fail_timeout` before it tries a failed one (issue 120: it had none).
 */
export const UNAVAILABLE_RETRY_AFTER = ` add_header Retry-After ${DEADLINE_RETRY_AFTER_SECONDS} always;`;

/** The template's generated error locations: the API's 503, the text host's 503s and 429s. */
function renderedErrorLocations(): Record<string, string> {
  const { apiUnavailable, textUnavailable, textTooMany } = NGINX_RENDERED_ERRORS;
  return {
    "@API_UNAVAILABLE_JSON@": errorLocations(
      apiUnavailable,
      ["json"],
      ` add_header Access-Control-Allow-Origin "*" always; add_header Cache-Control "no-store" always;${UNAVAILABLE_RETRY_AFTER}`,
    ),
    "@TEXT_UNAVAILABLE_PAGES@": errorLocations(
      textUnavailable,
      ["ansi", "txt", "negotiate", "md", "html"],
      `${TEXT_HEADERS}${UNAVAILABLE_RETRY_AFTER}`,
    ),
    // The 429 pages' HTML is the site's own page (the template's /_429.html).
    "@TEXT_TOO_MANY_PAGES@": errorLocations(
      textTooMany,
      ["ansi", "txt", "negotiate", "md"],
      ` add_header Retry-After ${TEXT_HOST_LIMIT.windowMs / 1000} always;`,
    ),
  };
}

const TEMPLATE = new URL("../deploy/nginx.conf.template", import.meta.url);
const BROTLI_MODULE = "/usr/share/nginx/modules-available/mod-http-brotli-static.conf";
const BROTLI_SO = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

export function renderNginxConfig(options: NginxOptions): string {
  const table = options.table ?? ENDPOINTS;
  const textRoutes = options.textRoutes ?? PAGES;
  const upstream = (port: "apiPort" | "textPort") =>
    options.sidecars.map((s) => `    server ${s.host}:${s[port]} max_fails=1 fail_timeout=5s;`).join("\n");
  // Debian's packaged modules load through modules-enabled; a config run with -c loads it itself.
  const loadModules = existsSync(BROTLI_SO)
    ? `load_module ${BROTLI_SO};`
    : existsSync(BROTLI_MODULE)
      ? readFileSync(BROTLI_MODULE, "utf8")
      : "";
  const values: Record<string, string> = {
    "@LOAD_MODULES@": loadModules,
    "@PREFIX@": options.prefix,
    "@USER@": options.user ? `user ${options.user};` : "",
    "@DIST@": options.dist,
    "@API_PORT@": String(options.apiPort),
    "@TEXT_PORT@": String(options.textPort),
    "@LISTEN@": options.listen ?? "127.0.0.1",
    "@API_UPSTREAMS@": upstream("apiPort"),
    "@TEXT_UPSTREAMS@": upstream("textPort"),
    "@API_STATIC_MAPS@": staticMaps(table),
    "@API_STATIC_LOCATIONS@": staticLocations(table, options.dist),
    "@TEXT_COMPUTED_PATHS@": textComputedPaths(textRoutes),
    "@TEXT_QUERY_COMPUTED@": textQueryComputed(textRoutes),
    "@READ_CACHE_CONTROL@": READ_CACHE_CONTROL,
    "@IMMUTABLE_CACHE_CONTROL@": IMMUTABLE_CACHE_CONTROL,
    "@MAX_BODY_KIB@": String(MAX_BODY_BYTES / 1024),
    "@MAX_TEMPLATE_BODY_KIB@": String(MAX_TEMPLATE_BODY_BYTES / 1024),
    "@TEMPLATE_LIMIT_DETAILS@": bodyTooLargeDetails(MAX_TEMPLATE_BODY_BYTES),
    "@TEXT_LIMIT@": String(TEXT_HOST_LIMIT.max),
    "@TEXT_BURST@": String(TEXT_HOST_LIMIT.max - 1),
    "@TEXT_WINDOW_SECONDS@": String(TEXT_HOST_LIMIT.windowMs / 1000),
    "@API_ERROR_PAGES@": `${nginxErrorPageLines("json")}\n${nginxErrorPages(["json"])}`,
    "@TEXT_ERROR_PAGES@": `${nginxErrorPageLines("$text_error_ext")}\n${nginxErrorPages(TEXT_ERROR_RENDERINGS)}`,
    "@ORIGIN_FORM_DETAILS@": ORIGIN_FORM_DETAILS,
    "@METHOD_DETAILS@": METHOD_DETAILS,
    "@CONNECT_DETAILS@": CONNECT_DETAILS,
    "@ALLOWED_METHODS@": ALLOWED_METHODS,
    ...renderedErrorLocations(),
  };
  let config = readFileSync(TEMPLATE, "utf8");
  if (!loadModules) config = config.replace(/^\s*brotli_static on;\n/m, "");
  return config.replace(/@[A-Z_]+@/g, (key) => values[key] ?? key);
}

const OPTIONS = {
  dist: { type: "string" },
  prefix: { type: "string" },
  "api-port": { type: "string", default: "80" },
  "text-port": { type: "string", default: "8081" },
  listen: { type: "string", default: "0.0.0.0" },
  sidecar: { type: "string", multiple: true },
  user: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const USAGE = `usage: node scripts/deploy-config.ts --dist DIR --prefix DIR --sidecar HOST:API_PORT/TEXT_PORT [--sidecar …]
       [--api-port N] [--text-port N] [--listen ADDR] [--user NAME] > nginx.conf

Renders deploy/nginx.conf.template for a deployment (deploy/README.md).
  --dist DIR         the build (dist/) nginx serves
  --prefix DIR       nginx's prefix: pid, logs, temporary files and the API's local socket
  --sidecar H:A/T    one \`node sidecar/server.ts\`: its host, API port and text port (repeat for each)
  --api-port N       the API host's port (default 80)
  --text-port N      the text host's port (default 8081)
  --listen ADDR      the address both hosts listen on (default 0.0.0.0)
  --user NAME        nginx's worker user
  --help             this text
`;

if (import.meta.main) {
  let parsed;
  try {
    parsed = parseArgs({ options: OPTIONS });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  if (!values.dist || !values.prefix || !values.sidecar?.length) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const sidecars = values.sidecar.map((entry) => {
    const match = /^(.+):(\d+)\/(\d+)$/.exec(entry);
    if (!match) {
      process.stderr.write(`--sidecar ${entry}: expected host:apiPort/textPort\n\n${USAGE}`);
      process.exit(2);
    }
    return { host: match[1]!, apiPort: Number(match[2]), textPort: Number(match[3]) };
  });
  process.stdout.write(
    renderNginxConfig({
      dist: values.dist,
      prefix: values.prefix,
      apiPort: Number(values["api-port"]),
      textPort: Number(values["text-port"]),
      listen: values.listen,
      sidecars,
      ...(values.user ? { user: values.user } : {}),
    }),
  );
}
