/**
 * What the generated nginx configuration answers itself comes in the Error shape on the API host
 * and in the request's rendering on the text host's pages (plain text for curl; JSON under its
 * /v1/): a missing /mirror/ file, the
 * /mirror/ folder, TRACE, an HTTP/2.0 request line, a transfer coding other than chunked; a
 * malformed Host is the sidecars' 400; HTTP/1.0 without Host is answered as it is directly.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyTooLargeDetails, MAX_TEMPLATE_BODY_BYTES } from "../../catalogue/base/limits.ts";
import { requireComponent } from "../helpers/components.ts";
import { startNginxStack, type NginxStack } from "../helpers/nginx-stack.ts";
import { socketExchange } from "../helpers/raw-http.ts";

const nginxBinary = requireComponent("nginx", ["/usr/sbin/nginx", "/usr/bin/nginx"]);
/** What curl --data-binary labels a file. */
const FORM_TYPE = "application/x-www-form-urlencoded";

function parse(raw: string) {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n"), raw: head };
}
const exchange = async (base: string, head: string) => parse((await socketExchange(base, head, 3000)).answer);

describe("deploy-config.ts --help", () => {
  it("prints its usage, not a stack trace", () => {
    const script = new URL("../../scripts/deploy-config.ts", import.meta.url).pathname;
    const help = spawnSync(process.execPath, [script, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: node scripts\/deploy-config.ts/);
    expect(help.stderr).not.toMatch(/at |Error/);
    const unknown = spawnSync(process.execPath, [script, "--bogus"], { encoding: "utf8" });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("usage:");
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });
});

describe.skipIf(!nginxBinary)("nginx's own answers, generated config", () => {
  let stack: NginxStack | undefined;
  let api: string;
  let text: string;
  let direct: { api: string; text: string };

  beforeAll(async () => {
    // The sidecars serve the same build as nginx: a Range request is theirs to answer.
    stack = await startNginxStack(nginxBinary!, { "api/v1/health.json": "{}", "text/aws.txt": "AWS\n" });
    ({ api, text, direct } = stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const request = (method: string, path: string, extra = "") =>
    `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;

  /** The Error shape on the API host (and the text host's /v1/); plain text on the text host's pages. */
  const errorShape = (answer: ReturnType<typeof parse>, status: number) => {
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status, error: expect.any(String), details: expect.any(String) });
  };
  const plainText = (answer: ReturnType<typeof parse>, status: number) => {
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
    expect(answer.body).toMatch(new RegExp(`^${status} `));
  };

  it("gives the deployment check its own 4 MiB body limit on both hosts, a 413 past it naming that limit", async () => {
    // A real template past 64 KiB (146 KB of Bicep output); the fixture catalogue places none of its
    // types, which is the check's answer, not a refusal.
    const template = readFileSync(
      new URL("../fixtures/templates/azure/postgres-agentic-advisor-main.json", import.meta.url),
      "utf8",
    );
    const huge = `{"approvedServiceIds":["aws-s3"],"template":"${"a".repeat(MAX_TEMPLATE_BODY_BYTES)}"}`;
    const post = (base: string, path: string, body: string, type = "application/json") =>
      fetch(`${base}${path}`, { method: "POST", headers: { "content-type": type }, body });
    for (const base of [api, text]) {
      const read = await post(
        base,
        "/v1/deployments/check",
        `{"approvedServiceIds":["aws-s3"],"template":${template}}`,
      );
      expect(read.status, base).toBe(200);
      const refused = await post(base, "/v1/deployments/check", huge);
      expect(refused.status, base).toBe(413);
      expect(await refused.json()).toEqual({
        error: "Payload too large",
        status: 413,
        details: bodyTooLargeDetails(MAX_TEMPLATE_BODY_BYTES),
      });
      // Every other path keeps 64 KiB.
      const other = await post(base, "/v1/feedback", JSON.stringify({ message: "x".repeat(70 * 1024) }));
      expect(other.status).toBe(413);
      expect((await other.json()).details).toBe(bodyTooLargeDetails());
    }
    // The text host's face: the file as curl --data-binary posts it, past 64 KiB; and past 4 MiB.
    const face = await post(text, "/deployments/check?ids=aws-s3&format=md", template, FORM_TYPE);
    expect(face.status).toBe(200);
    expect(await face.text()).toMatch(/^# Deployment check/);
    const tooBig = await post(
      text,
      "/deployments/check?ids=aws-s3",
      "a".repeat(MAX_TEMPLATE_BODY_BYTES + 1),
      FORM_TYPE,
    );
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toContain(bodyTooLargeDetails(MAX_TEMPLATE_BODY_BYTES));
  });

  it("answers a missing /mirror/ file and /mirror/ itself with 404 in the Error shape", async () => {
    expect((await exchange(api, request("GET", "/mirror/text/aws.txt"))).status).toBe(200);
    errorShape(await exchange(api, request("GET", "/mirror/missing.txt")), 404);
    errorShape(await exchange(api, request("GET", "/mirror/")), 404);
  });

  it("answers TRACE with 405 and Allow: JSON on the API host, text on the text host", async () => {
    const onApi = await exchange(api, request("TRACE", "/v1/providers"));
    errorShape(onApi, 405);
    expect(onApi.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
    const onText = await exchange(text, request("TRACE", "/aws"));
    plainText(onText, 405);
    expect(onText.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
    errorShape(await exchange(text, request("TRACE", "/v1/providers")), 405);
  });

  it("answers an HTTP/2.0 request line with 505 and Transfer-Encoding: gzip, chunked with 501", async () => {
    const http2 = "GET /v1/providers HTTP/2.0\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    errorShape(await exchange(api, http2), 505);
    plainText(await exchange(text, http2.replace("/v1/providers", "/aws")), 505);
    const gzip = request("POST", "/v1/lists", "Transfer-Encoding: gzip, chunked\r\nContent-Type: application/json\r\n");
    errorShape(await exchange(api, `${gzip}0\r\n\r\n`), 501);
    plainText(
      await exchange(text, `${request("POST", "/feedback", "Transfer-Encoding: gzip, chunked\r\n")}0\r\n\r\n`),
      501,
    );
  });

  it("answers an unsatisfiable Range with 416 in the host's error format, not cached, headers once", async () => {
    for (const range of ["bytes=5-1", "bytes=999-"]) {
      const onApi = await exchange(api, request("GET", "/mirror/text/aws.txt", `Range: ${range}\r\n`));
      errorShape(onApi, 416);
      expect(JSON.parse(onApi.body).error).toBe("Range not satisfiable");
      expect(onApi.headers["cache-control"]).toBe("no-store");
      expect(onApi.raw.match(/^x-content-type-options:/gim), onApi.raw).toHaveLength(1);
      // The text host's pages are rendered, not files: their sidecar ignores Range (RFC 9110 §14.2).
      const page = await exchange(text, request("GET", "/aws", `Range: ${range}\r\n`));
      expect(page.status).toBe(200);
      expect(page.raw.match(/^x-content-type-options:/gim), page.raw).toHaveLength(1);
    }
    expect((await exchange(api, request("GET", "/mirror/text/aws.txt", "Range: bytes=0-0\r\n"))).status).toBe(206);
  });

  it("answers PROPFIND, SEARCH, LINK and PURGE on /v1/lists with 405 and Allow through both hosts, and Expect: bogus with 417", async () => {
    for (const method of ["PROPFIND", "SEARCH", "LINK", "PURGE"])
      for (const base of [api, text]) {
        const answer = await exchange(base, request(method, "/v1/lists"));
        errorShape(answer, 405);
        expect(answer.headers.allow, `${method} ${base}`).toBe("POST");
      }
    for (const base of [api, text])
      errorShape(await exchange(base, request("GET", "/v1/providers", "Expect: bogus\r\n")), 417);
  });

  it("passes a malformed Host on to the sidecars' 400, and answers HTTP/1.0 without Host as directly", async () => {
    for (const host of ["user@evil.example", "evil.example:80x"]) {
      const onApi = await exchange(api, `GET /v1/services?q=s3 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      errorShape(onApi, 400);
      const onText = await exchange(text, `GET /search?q=s3 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(onText.status).toBe(400);
    }
    for (const [through, straight, path] of [
      [api, direct.api, "/v1/services?q=s3"],
      [text, direct.text, "/search?q=s3"],
    ] as const) {
      const viaNginx = await exchange(through, `GET ${path} HTTP/1.0\r\n\r\n`);
      const directly = await exchange(straight, `GET ${path} HTTP/1.0\r\n\r\n`);
      expect(directly.status, path).toBe(200);
      expect(viaNginx.status, path).toBe(directly.status);
    }
  });
});
