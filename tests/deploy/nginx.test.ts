/**
 * The production topology on loopback: Debian's nginx in front of two sidecar processes sharing
 * one redis-server. Static reads are nginx's alone; the strict bucket holds across instances; a
 * list made through one instance reads through the other; the text host limit holds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build as buildDist } from "../../scripts/build.ts";
import { cleanup, freePort, requireComponent, startRedis, type RedisServer } from "../helpers/components.ts";
import { startTwoSidecarsBehindNginx, stopSidecarsBehindNginx, type Nginx } from "../helpers/nginx.ts";
import type { ServerProcess } from "../helpers/process.ts";
import { rawRequest, type RawAnswer } from "../helpers/raw-http.ts";

const nginxBinary = requireComponent("nginx", ["/usr/sbin/nginx", "/usr/bin/nginx"]);

interface Answer {
  status: number;
  /** Every header line as sent, by lower-case name: a header sent twice has two values. */
  headers: Map<string, string[]>;
  text: string;
}

/** One request from the loopback address `from` (127.0.0.x: each is another client to nginx). */
function send(
  url: string,
  options: { from: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "GET",
        localAddress: options.from,
        agent: false,
        headers: {
          ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const headers = new Map<string, string[]>();
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            const name = response.rawHeaders[i]!.toLowerCase();
            headers.set(name, [...(headers.get(name) ?? []), response.rawHeaders[i + 1]!]);
          }
          resolve({ status: response.statusCode ?? 0, headers, text });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const form = (message: string) => `type=bug&message=${encodeURIComponent(message)}`;
const FORM = { "content-type": "application/x-www-form-urlencoded", "user-agent": "curl/8" };
const JSON_BODY = { "content-type": "application/json" };
const redisBinary = requireComponent("redis-server");

describe.skipIf(!nginxBinary || !redisBinary)("nginx + two sidecars + Redis", () => {
  let redis: RedisServer;
  let nginx: Nginx | undefined;
  const sidecars: ServerProcess[] = [];
  let api: string;
  let text: string;
  let dist: string;

  beforeAll(async () => {
    redis = await startRedis(redisBinary!);
    const [apiPort, textPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${apiPort}`;
    text = `http://127.0.0.1:${textPort}`;
    const env = { REDIS_URL: redis.url, TRUST_PROXY: "127.0.0.1", PUBLIC_API_URL: api, PUBLIC_TEXT_URL: text };
    dist = mkdtempSync(join(tmpdir(), "csc-deploy-dist-"));
    await buildDist({ outDir: dist, urls: { apiUrl: api, textUrl: text }, log: () => undefined });
    nginx = await startTwoSidecarsBehindNginx({
      binary: nginxBinary!,
      env,
      dist,
      apiPort,
      textPort,
      sidecars,
      readyUrl: `${api}/v1/providers`,
    });
  }, 240_000);

  afterAll(async () => {
    await stopSidecarsBehindNginx(nginx, sidecars);
    if (redis) await cleanup(redis);
    rmSync(dist, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("serves static reads with content type, ETag, cache header, CORS and precompressed bodies", async () => {
    const response = await fetch(`${api}/v1/providers`, { headers: { "accept-encoding": "br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const etag = response.headers.get("etag")!;
    expect(
      (await fetch(`${api}/v1/providers`, { headers: { "if-none-match": etag, "accept-encoding": "br" } })).status,
    ).toBe(304);
  });

  it("allows exactly 10 strict POSTs a minute per IP whichever instance answers, whatever X-Forwarded-For says", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await post("/v1/export/markdown", { approvedServiceIds: ["aws-s3"] }, { "x-forwarded-for": `203.0.113.${i}` }))
          .status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });

  it("reads through one instance a list created through the other", async () => {
    const [a, b] = sidecars as [ServerProcess, ServerProcess];
    const created = await fetch(`${a.api}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" },
      body: JSON.stringify({ approvedServiceIds: ["aws-s3"], slug: "across-instances" }),
    });
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { id: string }).id;
    expect(((await (await fetch(`${b.api}/v1/lists/across-instances`)).json()) as { id: string }).id).toBe(id);
    expect((await fetch(`${api}/v1/lists/${id}`)).status).toBe(200);
  });

  it("holds the text host to 60 requests a minute per IP, answering 429 in the request's format", async () => {
    const md = await fetch(`${text}/aws`, { headers: { accept: "text/markdown" } });
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await md.text()).toMatch(/^# Amazon Web Services/);
    const statuses: number[] = [];
    for (let i = 1; i < 60; i++)
      statuses.push((await fetch(`${text}/aws/s3`, { headers: { "user-agent": "curl/8" } })).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const limited = await fetch(`${text}/aws/s3`, {
      headers: { "user-agent": "curl/8", "x-forwarded-for": "10.1.1.1" },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await limited.text()).toContain("429 Too many requests");
    const html = await fetch(`${text}/aws/s3`, { headers: { accept: "text/html" } });
    expect(html.status).toBe(429);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    // The site's own 429 page, styled like the rest of the site.
    expect(await html.text()).toMatch(/<h1>Too many requests<\/h1>[\s\S]*limited to 60 requests per minute per IP/);
  });

  it("sends /search and the feedback form's POST to a sidecar's text host", async () => {
    // From another loopback address: 127.0.0.1 spent its text-host minute in the test above.
    const fromOther = (path: string, method = "GET", body?: string) =>
      new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
        const req = request(
          `${text}${path}`,
          {
            method,
            localAddress: "127.0.0.9",
            agent: false,
            headers: {
              "user-agent": "curl/8",
              ...(body
                ? { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) }
                : {}),
            },
          },
          (response) => {
            let textBody = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (textBody += chunk));
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                type: String(response.headers["content-type"]),
                text: textBody,
              }),
            );
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const search = await fromOther("/search?q=s3&color=never");
    expect(search.status).toBe(200);
    expect(search.type).toMatch(/^text\/plain/);
    expect(search.text).toContain("Amazon Simple Storage Service");
    const feedback = await fromOther("/feedback", "POST", "type=bug&message=Through+nginx+to+a+sidecar");
    expect(feedback.status).toBe(201);
    expect(feedback.text).toContain("Thank you");
  });

  it("keeps the client's address through the text host's /v1/ to the sidecars: two clients, two strict counts", async () => {
    const exportList = (from: string, headers: Record<string, string> = {}) =>
      send(`${text}/v1/export/markdown`, {
        from,
        method: "POST",
        headers: { ...JSON_BODY, ...headers },
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
      });
    const first: number[] = [];
    // Naming another client in X-Real-IP or X-Forwarded-For changes nothing: nginx replaces both.
    for (let i = 0; i < 11; i++)
      first.push(
        (await exportList("127.0.0.2", { "x-real-ip": `203.0.113.${i}`, "x-forwarded-for": `198.51.100.${i}` })).status,
      );
    expect(first).toEqual([...Array<number>(10).fill(200), 429]);
    // Another client through the same site has its own ten; on the API host too.
    expect((await exportList("127.0.0.3")).status).toBe(200);
    expect(
      (
        await send(`${api}/v1/export/markdown`, {
          from: "127.0.0.3",
          method: "POST",
          headers: { ...JSON_BODY, "x-real-ip": "127.0.0.2" },
          body: JSON.stringify({ approvedServiceIds: ["aws-s3"] }),
        })
      ).status,
    ).toBe(200);
  });

  it("answers an HCL escape UTF-8 cannot encode with a 400 naming file, line and column on both hosts, never a 500", async () => {
    // Issue 109: "\UFFFFFFFF" was a 500 through nginx too.
    const terraform = 'resource "aws_s3_bucket" "logs" {\n  bucket = "\\UFFFFFFFF"\n}\n';
    for (const base of [api, text]) {
      const answer = await send(`${base}/v1/deployments/check`, {
        from: "127.0.0.4",
        method: "POST",
        headers: JSON_BODY,
        body: JSON.stringify({ approvedServiceIds: ["aws-s3"], files: { "main.tf": terraform } }),
      });
      expect(answer.status, base).toBe(400);
      expect(JSON.parse(answer.text), base).toMatchObject({
        error: "Invalid template",
        status: 400,
        details: expect.stringMatching(/^main\.tf, line 2, column 13: .*cannot be encoded/),
      });
    }
    const page = await send(`${text}/deployments/check?ids=aws-s3&color=never`, {
      from: "127.0.0.4",
      method: "POST",
      headers: { "content-type": "text/plain", accept: "text/plain" },
      body: terraform,
    });
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/^400 Invalid template\n/);
  });

  it("never serves the dump, the manifest or the OpenAPI document to a path with dot segments, on either host", async () => {
    const climbs = [
      "/v1/%2e%2e/catalogue.json",
      "/v1/%2E%2e/manifest.json",
      "/v1/..%2fopenapi.json",
      "/v1/../catalogue.json",
      "/v1/services/%2e%2e/%2e%2e/catalogue.json",
      "/aws/%2e%2e/v1/%2e%2e/manifest.json",
    ];
    for (const host of [api, text])
      for (const path of climbs) {
        const answer = await rawRequest(host, { path, headers: { "user-agent": "curl/8" } });
        expect(answer, path).not.toBe("hang");
        const { status, body, headers } = answer as RawAnswer;
        expect([400, 404], `${host}${path}`).toContain(status);
        expect(body.length, `${host}${path}`).toBeLessThan(2000);
        if (host === api || path.startsWith("/v1/"))
          expect(headers["content-type"], `${host}${path}`).toMatch(/^application\/json/);
      }
  });

  it("sends each header once and right: static reads, health, status and POSTs, on both hosts", async () => {
    const once = (answer: Answer, name: string) => {
      const values = answer.headers.get(name) ?? [];
      expect(values, name).toHaveLength(1);
      return values[0]!;
    };
    for (const base of [api, `${text}`]) {
      const staticRead = await send(`${base}/v1/providers`, {
        from: "127.0.0.4",
        headers: { "accept-encoding": "br" },
      });
      expect(staticRead.status).toBe(200);
      expect(once(staticRead, "cache-control")).toBe("public, max-age=300");
      expect(once(staticRead, "vary")).toBe("Accept-Encoding");
      expect(once(staticRead, "access-control-allow-origin")).toBe("*");
      expect(once(staticRead, "access-control-expose-headers")).toBe("ETag");
      expect(once(staticRead, "x-content-type-options")).toBe("nosniff");
      for (const path of ["/v1/health", "/v1/status"]) {
        const answer = await send(`${base}${path}`, { from: "127.0.0.4" });
        expect(answer.status, path).toBe(200);
        expect(once(answer, "cache-control"), path).toBe("no-store");
        expect((answer.headers.get("vary") ?? []).length, path).toBeLessThanOrEqual(1);
        expect(once(answer, "access-control-allow-origin"), path).toBe("*");
        expect(once(answer, "x-content-type-options"), path).toBe("nosniff");
      }
      const posted = await send(`${base}/v1/feedback`, {
        from: "127.0.0.4",
        method: "POST",
        headers: JSON_BODY,
        body: JSON.stringify({ type: "bug", message: "Headers through nginx" }),
      });
      expect(posted.status).toBe(201);
      expect(once(posted, "cache-control")).toBe("no-store");
      expect(posted.headers.get("vary") ?? []).not.toContain("Accept-Encoding, Accept-Encoding");
      expect((posted.headers.get("vary") ?? []).length).toBeLessThanOrEqual(1);
      expect(once(posted, "access-control-allow-origin")).toBe("*");
    }
    // A text page nginx answers from the build, and one a sidecar computes.
    for (const path of ["/aws", "/search?q=s3"]) {
      const page = await send(`${text}${path}`, { from: "127.0.0.4", headers: { "user-agent": "curl/8" } });
      expect(page.status, path).toBe(200);
      expect(once(page, "vary"), path).toBe("Accept, Accept-Encoding, COLUMNS");
      expect(once(page, "x-content-type-options"), path).toBe("nosniff");
      once(page, "cache-control");
    }
  });

  it("counts the no-JS feedback form in the feedback bucket it shares with POST /v1/feedback, not in the page limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (await send(`${text}/feedback`, { from: "127.0.0.6", method: "POST", headers: FORM, body: form(`Form ${i}`) }))
          .status,
      );
    expect(statuses).toEqual([...Array<number>(30).fill(201), 429]);
    const limited = await send(`${text}/feedback`, {
      from: "127.0.0.6",
      method: "POST",
      headers: FORM,
      body: form("One more"),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")?.[0]).toMatch(/^text\/plain/);
    expect(Number(limited.headers.get("retry-after")?.[0])).toBeGreaterThan(0);
    const api429 = await send(`${text}/v1/feedback`, {
      from: "127.0.0.6",
      method: "POST",
      headers: JSON_BODY,
      body: JSON.stringify({ type: "bug", message: "Same bucket" }),
    });
    expect(api429.status).toBe(429);
    expect(JSON.parse(api429.text)).toMatchObject({ status: 429 });
    // The pages of the text host are still this client's to read.
    expect((await send(`${text}/aws`, { from: "127.0.0.6", headers: { "user-agent": "curl/8" } })).status).toBe(200);
  });

  it("honours Accept q-values on the text host: text/markdown;q=0 gets no Markdown", async () => {
    const refused = await send(`${text}/aws`, {
      from: "127.0.0.7",
      headers: { accept: "text/markdown;q=0, text/plain", "user-agent": "curl/8" },
    });
    expect(refused.status).toBe(200);
    expect(refused.headers.get("content-type")?.[0]).toMatch(/^text\/plain/);
    expect(refused.text).not.toMatch(/^# /);
    const preferred = await send(`${text}/aws`, {
      from: "127.0.0.7",
      headers: { accept: "text/html;q=0.5, text/markdown" },
    });
    expect(preferred.headers.get("content-type")?.[0]).toMatch(/^text\/markdown/);
    expect(preferred.text).toMatch(/^# Amazon Web Services/);
    const browser = await send(`${text}/aws`, {
      from: "127.0.0.7",
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(browser.headers.get("content-type")?.[0]).toMatch(/^text\/html/);
  });

  it("sends another terminal width (?width=, COLUMNS) to a sidecar, which renders it or answers 400", async () => {
    const longest = (body: string) => Math.max(...body.split("\n").map((line) => [...line].length));
    const built = await send(`${text}/aws?color=never`, { from: "127.0.0.10", headers: { "user-agent": "curl/8" } });
    expect(longest(built.text)).toBeLessThanOrEqual(80);
    const wide = await send(`${text}/aws?color=never&width=160`, {
      from: "127.0.0.10",
      headers: { "user-agent": "curl/8" },
    });
    expect(wide.status).toBe(200);
    expect(longest(wide.text)).toBeGreaterThan(80);
    const columns = await send(`${text}/aws?color=never`, {
      from: "127.0.0.10",
      headers: { "user-agent": "curl/8", columns: "120" },
    });
    expect(longest(columns.text)).toBeGreaterThan(80);
    expect(longest(columns.text)).toBeLessThanOrEqual(120);
    const bad = await send(`${text}/aws?width=20`, { from: "127.0.0.10", headers: { "user-agent": "curl/8" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("width must be given once");
  });

  it("answers what nginx refuses itself in the Error shape on the API's paths, as plain text on pages, and 405 with Allow", async () => {
    const from = "127.0.0.8";
    const json = (answer: Answer, status: number) => {
      expect(answer.status).toBe(status);
      expect(answer.headers.get("content-type")).toEqual(["application/json; charset=utf-8"]);
      expect(JSON.parse(answer.text)).toMatchObject({ status, error: expect.any(String) });
    };
    const big = "x".repeat(70 * 1024);
    for (const base of [api, text]) {
      json(await send(`${base}/v1/feedback`, { from, method: "POST", headers: JSON_BODY, body: big }), 413);
      json(await send(`${base}/v1/providers`, { from, headers: { "x-big": "a".repeat(17 * 1024) } }), 431);
    }
    const page = await send(`${text}/aws`, { from, headers: { "x-big": "a".repeat(17 * 1024) } });
    expect(page.status).toBe(431);
    expect(page.headers.get("content-type")?.[0]).toMatch(/^text\/plain/);
    // A page nginx serves from the build, asked with another method: the sidecar's 405, not nginx's HTML.
    const posted = await send(`${text}/aws`, { from, method: "POST", headers: { "user-agent": "curl/8" }, body: "" });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toEqual(["GET, HEAD"]);
    expect(posted.headers.get("content-type")?.[0]).toMatch(/^text\/plain/);
  });

  it("never answers a static /v1/ file for a query it would ignore: a sidecar refuses the parameter, on both hosts", async () => {
    for (const [path, name] of [
      ["/v1/providers?v=1", "v"],
      ["/v1/changelog?jurisdiction=EU", "jurisdiction"],
      ["/v1/services/aws-s3?format=md", "format"],
      ["/v1/services?jurisdictions=EU", "jurisdictions"],
      ["/v1/services?page=2&regions=eu", "regions"],
      ["/v1/exposure?ids=aws-s3&region=eu-central-1", "region"],
    ] as const)
      for (const host of [api, text]) {
        const response = await fetch(`${host}${path}`);
        expect(response.status, `${host}${path}`).toBe(400);
        expect(response.headers.get("content-type"), path).toMatch(/^application\/json/);
        expect(response.headers.get("cache-control"), path).toBe("no-store");
        const body = (await response.json()) as { error: string; status: number; details: string };
        expect(body, path).toMatchObject({ error: "Invalid query", status: 400 });
        expect(body.details, path).toContain(`unknown parameter "${name}"`);
      }
    expect((await fetch(`${api}/v1/services?jurisdiction=eu,ch&limit=1`)).status).toBe(200);
    // The downloads outside /v1/ are files, whatever the query.
    expect((await fetch(`${api}/openapi.json?v=1`)).status).toBe(200);
  });

  it("keeps serving static reads with both sidecars stopped, and answers dynamic requests with 503 in the Error shape", async () => {
    for (const sidecar of sidecars) await sidecar.kill();
    for (const path of [
      "/",
      "/openapi.json",
      "/v1/providers",
      "/v1/categories",
      "/v1/changelog",
      "/v1/services",
      "/v1/services?page=2",
      "/v1/services/aws-s3",
      "/manifest.json",
    ]) {
      expect((await fetch(`${api}${path}`)).status, path).toBe(200);
    }
    const dynamic = await fetch(`${api}/v1/services?q=storage`);
    expect(dynamic.status).toBe(503);
    // Issue 120: nginx's own 503 says when to try again, as the sidecars' do.
    expect(dynamic.headers.get("retry-after")).toBe("5");
    expect(await dynamic.json()).toMatchObject({ status: 503, error: "Service unavailable" });
    const page = await fetch(`${text}/search?q=storage`, { headers: { accept: "text/plain" } });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
  });
});
