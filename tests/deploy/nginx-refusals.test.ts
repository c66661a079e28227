/**
 * What nginx refuses itself answers in the host's error format on every path, method and body
 * framing: the API's Error shape on the API host (and for the API's paths on the text host), the
 * request's rendering on the text host's pages. Never nginx's HTML page, the configuration's internal
 * 418 ("ask a sidecar") or a 500 from a redirection cycle. Its request-line rules are the sidecars'
 * (sidecar/client-errors.ts), but for the departures deploy/README.md states: HTTP/0.9's answer has
 * no status line, and bare-LF line endings are accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TEMPLATE_BODY_BYTES } from "../../catalogue/base/limits.ts";
import { CONNECT_DETAILS, HEADERS_TOO_LARGE_DETAILS, ORIGIN_FORM_DETAILS } from "../../sidecar/client-errors.ts";
import { requireComponent } from "../helpers/components.ts";
import { startNginxStack, type NginxStack } from "../helpers/nginx-stack.ts";
import { socketExchange } from "../helpers/raw-http.ts";

const nginxBinary = requireComponent("nginx", ["/usr/sbin/nginx", "/usr/bin/nginx"]);

/** How an error reads: the Error shape, or one of the text host's renderings. */
type Shape = "json" | "text" | "md" | "html";
type Host = "api" | "text";

interface Answer {
  /** undefined: no status line (nginx's HTTP/0.9 answer). */
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

function dechunk(body: string): string {
  let out = "";
  for (let at = 0; ;) {
    const end = body.indexOf("\r\n", at);
    const size = parseInt(body.slice(at, end), 16);
    if (!(size > 0)) return out;
    out += body.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

function parse(raw: string): Answer {
  if (!raw.startsWith("HTTP/")) return { status: undefined, headers: {}, body: raw };
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = raw.slice(0, split).split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  const body = raw.slice(split + 4);
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: headers["transfer-encoding"] === "chunked" ? dechunk(body) : body,
  };
}

// eslint-disable-next-line no-control-regex -- the ANSI rendering's escape sequences
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");

/** The error body a shape has, without the status line's headers (also an HTTP/0.9 answer's). */
function expectBody(body: string, status: number, shape: Shape, where: string) {
  expect(body, where).not.toMatch(/<center>nginx<\/center>/);
  if (shape === "json")
    expect(JSON.parse(body), where).toMatchObject({ status, error: expect.any(String), details: expect.any(String) });
  else if (shape === "text") expect(stripAnsi(body), where).toMatch(new RegExp(`^${status} [A-Z]`));
  else if (shape === "md") expect(body, where).toMatch(new RegExp(`^# ${status} [A-Z]`));
  else expect(body, where).toMatch(new RegExp(`<h1>${status} [A-Z]`));
}

const MEDIA_TYPE: Record<Shape, RegExp> = {
  json: /^application\/json/,
  text: /^text\/plain/,
  md: /^text\/markdown/,
  html: /^text\/html/,
};

function expectError(answer: Answer, status: number, shape: Shape, where: string) {
  expect(answer.status, `${where}\n${answer.body.slice(0, 300)}`).toBe(status);
  expect(answer.headers["content-type"], where).toMatch(MEDIA_TYPE[shape]);
  expectBody(answer.body, status, shape, where);
}

/** A request's head with CRLF line endings (or bare LF), Host and Connection: close. */
const head = (method: string, target: string, extra = "", version = "HTTP/1.1", eol = "\r\n") =>
  `${method} ${target} ${version}${eol}Host: localhost${eol}${extra.replace(/\r\n/g, eol)}Connection: close${eol}${eol}`;

/** A chunked body of `bytes` (64 KiB chunks) and its terminating chunk. */
function chunked(bytes: number): Buffer {
  const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, "a"), Buffer.from("\r\n")]);
  return Buffer.concat([...Array.from({ length: Math.ceil(bytes / 0x10000) }, () => chunk), Buffer.from("0\r\n\r\n")]);
}

/** Requests nginx refuses itself, before or after reading the path. */
const REFUSALS = [
  { what: "two Host headers", status: 400, head: (path: string) => head("GET", path, "Host: evil.example\r\n") },
  { what: "TRACE", status: 405, head: (path: string) => head("TRACE", path) },
  { what: "Expect: bogus", status: 417, head: (path: string) => head("GET", path, "Expect: bogus\r\n") },
  {
    what: "Content-Length with Transfer-Encoding",
    status: 400,
    head: (path: string) => head("POST", path, "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n"),
    body: "0\r\n\r\n",
  },
  {
    what: "a header line over 16 KiB",
    status: 431,
    head: (path: string) => head("GET", path, `X-Big: ${"a".repeat(17 * 1024)}\r\n`),
  },
];

/**
 * Paths with a "." or ".." segment, each with the shape its errors take on its host. One climbing
 * above the root nginx refuses before anything else (400); the others it would resolve.
 */
const DOT_PATHS: { host: Host; path: string; shape: Shape; aboveRoot?: true }[] = [
  { host: "api", path: "/v1/a/../providers", shape: "json" },
  { host: "api", path: "/v1/%2E%2e/x", shape: "json" },
  { host: "api", path: "/%2e%2e/x", shape: "json", aboveRoot: true },
  { host: "text", path: "/a/../aws", shape: "text" },
  { host: "text", path: "/a/%2e%2e/aws", shape: "text" },
  { host: "text", path: "/v1/a/../providers", shape: "json" },
  { host: "text", path: "/%2e%2e/x", shape: "text", aboveRoot: true },
];

/** Request lines the sidecars refuse, nginx now too: the same status, each host's format. */
const REQUEST_LINES = [
  { what: "HTTP/1.2", status: 505, head: (path: string) => head("GET", path, "", "HTTP/1.2") },
  { what: "HTTP/0.9 spelled out", status: 505, head: (path: string) => head("GET", path, "", "HTTP/0.9") },
  { what: "HTTP/3.0", status: 505, head: (path: string) => head("GET", path, "", "HTTP/3.0") },
  { what: "an absolute-form target", status: 400, head: (path: string) => head("GET", `http://localhost${path}`) },
  { what: "a lower-case method", status: 501, head: (path: string) => head("get", path) },
  { what: "CONNECT", status: 405, head: (path: string) => head("CONNECT", path) },
  { what: "CONNECT to host:port", status: 405, head: () => head("CONNECT", "localhost:443") },
];
/** Targets that are not a path: the text host answers them as a page, the API's paths or not. */
const NOT_A_PATH = new Set(["an absolute-form target", "CONNECT to host:port"]);
/** Where each request line is sent, and the shape both nginx and the sidecar answer it in. */
const LINE_TARGETS: { host: Host; path: string; shape: (what: string) => Shape }[] = [
  { host: "api", path: "/v1/providers", shape: () => "json" },
  { host: "text", path: "/aws", shape: () => "text" },
  { host: "text", path: "/v1/providers", shape: (what) => (NOT_A_PATH.has(what) ? "text" : "json") },
];

describe.skipIf(!nginxBinary)("nginx's refusals, any path, method or framing", () => {
  let stack: NginxStack | undefined;
  const base = (host: Host) => (host === "api" ? stack!.api : stack!.text);
  const send = async (url: string, bytes: string, body?: string | Buffer) =>
    parse((await socketExchange(url, bytes, 5000, body)).answer);

  beforeAll(async () => {
    stack = await startNginxStack(nginxBinary!, { "text/aws.txt": "AWS\n", "api/v1/providers.json": "[]" });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("answers requests nginx refuses on a path with a dot segment in the host's format, never a bare 418", async () => {
    for (const { host, path, shape, aboveRoot } of DOT_PATHS)
      for (const refusal of REFUSALS) {
        const status = aboveRoot ? 400 : refusal.status;
        const answer = await send(base(host), refusal.head(path), refusal.body);
        expectError(answer, status, shape, `${refusal.what} ${host} ${path}`);
        if (status === 405) expect(answer.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
      }
  });

  it("answers more than 16 KiB of headers in lines under 16 KiB with 431 in the host's format, static reads and proxied ones, as the sidecars do", async () => {
    // 5 lines of 4 KB: each line fits nginx's buffers, the head does not fit the sidecars' 16 KiB.
    const lines = (count: number) =>
      Array.from({ length: count }, (_, i) => `X-Pad-${i}: ${"a".repeat(4000)}\r\n`).join("");
    const cases: [Host, string, Shape][] = [
      ["api", "/v1/providers", "json"],
      ["api", "/v1/services?q=storage", "json"],
      ["api", "/v1/deployments/check", "json"],
      ["text", "/aws", "text"],
      ["text", "/v1/providers", "json"],
      ["text", "/search?q=storage", "text"],
    ];
    for (const [host, path, shape] of cases) {
      const where = `20 KB of headers ${host} ${path}`;
      const answer = await send(base(host), head("GET", path, lines(5)));
      expectError(answer, 431, shape, where);
      if (shape === "json") expect(JSON.parse(answer.body).details, where).toBe(HEADERS_TOO_LARGE_DETAILS);
      expectError(await send(stack!.direct[host], head("GET", path, lines(5))), 431, shape, `${where} (sidecar)`);
    }
    // 12 KB of headers are read as any request is.
    expect((await send(stack!.api, head("GET", "/v1/providers", lines(3)))).status).toBe(200);
    expect((await send(stack!.text, head("GET", "/aws", lines(3)))).status).toBe(200);
  });

  it("keeps the same answers when the request's lines end in a bare LF", async () => {
    for (const { host, path, shape } of DOT_PATHS.filter((dot) => !dot.aboveRoot))
      for (const [what, bytes, status] of [
        ["TRACE", head("TRACE", path, "", "HTTP/1.1", "\n"), 405],
        ["two Host headers", head("GET", path, "Host: evil.example\r\n", "HTTP/1.1", "\n"), 400],
      ] as const)
        expectError(await send(base(host), bytes), status, shape, `${what} with bare LF ${host} ${path}`);
  });

  it("answers a chunked body over the deployment check's 4 MiB with 413 in the host's format, not a redirection cycle's 500", async () => {
    const body = chunked(MAX_TEMPLATE_BODY_BYTES + 0x10000);
    for (const [host, path, shape] of [
      ["api", "/v1/deployments/check", "json"],
      ["text", "/v1/deployments/check", "json"],
      ["text", "/deployments/check", "text"],
    ] as const) {
      const headers = "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n";
      expectError(await send(base(host), head("POST", path, headers), body), 413, shape, `${host} ${path}`);
    }
  });

  it("answers bodies over 64 KiB, chunked or not, in the request's rendering on the text host and the Error shape on the API's paths", async () => {
    const big = 70 * 1024;
    const framings = [
      ["chunked", "Transfer-Encoding: chunked\r\n", chunked(big)],
      ["Content-Length", `Content-Length: ${big}\r\n`, Buffer.alloc(big, "a")],
    ] as const;
    const cases: [Host, string, string, Shape][] = [
      ["api", "/v1/lists", "", "json"],
      ["api", "/mcp", "", "json"],
      ["text", "/v1/lists", "Accept: text/html\r\n", "json"],
      ...["/lists", "/feedback", "/mcp"].flatMap((path): [Host, string, string, Shape][] => [
        ["text", path, "", "text"],
        ["text", path, "Accept: text/html\r\n", "html"],
        ["text", `${path}?format=md`, "", "md"],
      ]),
    ];
    for (const [host, path, accept, shape] of cases)
      for (const [framing, length, body] of framings) {
        const bytes = head("POST", path, `Content-Type: application/x-www-form-urlencoded\r\n${accept}${length}`);
        expectError(await send(base(host), bytes, body), 413, shape, `${framing} ${host} ${path} ${accept}`);
      }
  });

  it("answers bad percent-encoding with 400 in the Error shape on the API's paths, percent-encoded ones included", async () => {
    for (const [host, path, shape] of [
      ["api", "/v1/%zz", "json"],
      ["api", "/v1/services/a%2", "json"],
      ["text", "/v1/%zz", "json"],
      ["text", "/%76%31/%zz", "json"],
      ["text", "/v%31/services/a%2", "json"],
      ["text", "/aws/%zz", "text"],
    ] as const)
      expectError(await send(base(host), head("GET", path)), 400, shape, `${host} ${path}`);
  });

  it("refuses the request lines the sidecars refuse with their status, in each host's format", async () => {
    for (const line of REQUEST_LINES)
      for (const { host, path, shape } of LINE_TARGETS) {
        const where = `${line.what} ${host} ${path}`;
        const viaNginx = await send(base(host), line.head(path));
        expectError(viaNginx, line.status, shape(line.what), where);
        const directly = await send(stack!.direct[host], line.head(path));
        expectError(directly, line.status, shape(line.what), `${where} (sidecar)`);
      }
    const absolute = await send(stack!.api, head("GET", "http://localhost/v1/providers"));
    expect(JSON.parse(absolute.body).details).toBe(ORIGIN_FORM_DETAILS);
    const connect = await send(stack!.api, head("CONNECT", "localhost:443"));
    expect(JSON.parse(connect.body).details).toBe(CONNECT_DETAILS);
    expect(connect.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
  });

  it("answers an HTTP/0.9 request (no version) with the 505 body alone: HTTP/0.9 has no status line", async () => {
    for (const { host, path, shape } of LINE_TARGETS) {
      const answer = await send(base(host), `GET ${path}\r\n`);
      expect(answer.status, `${host} ${path}`).toBeUndefined();
      expectBody(answer.body, 505, shape(""), `${host} ${path}`);
      // The sidecar answers it with a status line: nginx cannot (deploy/README.md).
      expect((await send(stack!.direct[host], `GET ${path}\r\n\r\n`)).status).toBe(505);
    }
  });

  it("accepts bare-LF line endings the sidecar refuses, as deploy/README.md states", async () => {
    for (const [host, path] of [
      ["api", "/mirror/text/aws.txt"],
      ["text", "/aws"],
    ] as const) {
      const bare = head("GET", path, "", "HTTP/1.1", "\n");
      expect((await send(base(host), bare)).status, `${host} ${path}`).toBe(200);
      expectError(await send(stack!.direct[host], bare), 400, host === "api" ? "json" : "text", `${host} (sidecar)`);
    }
  });

  it("sends If-Match and If-Unmodified-Since to a sidecar rather than answer nginx's HTML 412", async () => {
    for (const condition of ['If-Match: "nope"\r\n', "If-Unmodified-Since: Mon, 01 Jan 2001 00:00:00 GMT\r\n"]) {
      const bytes = head("GET", "/mirror/text/aws.txt", condition);
      const viaNginx = await send(stack!.api, bytes);
      expect(viaNginx.body).not.toMatch(/<html>/);
      expect(viaNginx.status, condition).toBe((await send(stack!.direct.api, bytes)).status);
    }
  });
});
