/**
 * The 503 and 429 bodies nginx answers in place of a sidecar are generated from the error catalogue
 * (scripts/deploy-config.ts NGINX_RENDERED_ERRORS): every one in the rendered configuration names a
 * catalogued title with its status, and the JSON ones parse as the API's Error shape. So do the
 * pages of what nginx refuses itself, each status in every rendering of the host it serves.
 */
import { describe, expect, it } from "vitest";
import { ERRORS, type ErrorTitle } from "../../catalogue/base/error-catalogue.ts";
import { ApiError } from "../../catalogue/schema/index.ts";
import { renderNginxConfig } from "../../scripts/deploy-config.ts";

const config = renderNginxConfig({
  dist: "/srv/dist",
  prefix: "/var/lib/nginx-test",
  apiPort: 8080,
  textPort: 8081,
  sidecars: [{ host: "127.0.0.1", apiPort: 9080, textPort: 9081 }],
});

/** Each `location = /_<name>.<rendering>` answering 503 or 429 with a body nginx returns itself. */
const answers = [
  ...config.matchAll(/location = \/(_[a-z0-9]+)\.([a-z]+) \{[^\n]*? return (503|429) ('[^']*'|"(?:[^"\\]|\\.)*"); \}/g),
].map(([, name, rendering, status, quoted]) => ({
  where: `/${name}.${rendering}`,
  rendering: rendering!,
  status: Number(status),
  body: quoted!.startsWith("'")
    ? quoted!.slice(1, -1).replace(/\\'/g, "'")
    : (JSON.parse(quoted!.replace(/\\n/g, "\\n")) as string),
}));

const catalogued = (title: string, status: number) => title in ERRORS && ERRORS[title as ErrorTitle].status === status;

/** Each internal error location of the configuration, with the status it returns, in file order. */
const pages = [...config.matchAll(/location = \/_([a-z0-9]+)\.([a-z]+) \{ internal;[^\n]*? return (\d{3}) /g)].map(
  ([, name, rendering, status]) => ({ name: name!, rendering: rendering!, status: Number(status) }),
);

describe("nginx's own refusals", () => {
  it("have a page for each status their error_page lines send, in the Error shape on the API host and every rendering on the text host", () => {
    const [, apiServer = "", textServer = ""] = config.split(/\n {2}server \{/);
    for (const [server, renderings] of [
      [apiServer, ["json"]],
      [textServer, ["json", "ansi", "txt", "negotiate", "md", "html"]],
    ] as const) {
      const sent = [
        ...server.matchAll(/error_page [\d ]+ =?\d* ?\/_(\d{3}|\$bad_request_page)\.(?:json|\$text_error_ext);/g),
      ].flatMap(([, status]) => (status === "$bad_request_page" ? ["400", "405", "501", "505"] : [status!]));
      expect(sent.length).toBeGreaterThan(8);
      for (const status of sent)
        for (const rendering of renderings)
          expect(server, `/_${status}.${rendering}`).toContain(`location = /_${status}.${rendering} { internal;`);
    }
    expect(pages.every(({ name, status }) => name === "unavailable" || Number(name) === status)).toBe(true);
  });

  it("take a body of any size on their error pages, so a refused body is not refused again", () => {
    const locations = config.match(/location = \/_[a-z0-9]+\.[a-z]+ \{ internal;[^\n]*/g)!;
    expect(locations.length).toBeGreaterThan(pages.length);
    for (const location of locations) expect(location).toContain("client_max_body_size 0;");
  });
});

describe("nginx's own 503 and 429 bodies", () => {
  it("say when to try again: every 503 and 429 page sends Retry-After", () => {
    // Issue 120: nginx's own 503 (no sidecar answering) had none.
    const refusals = config.match(/location = \/_[a-z0-9]+\.[a-z]+ \{ internal;[^\n]*? return (503|429) [^\n]*/g)!;
    expect(refusals.length).toBe(answers.length);
    for (const location of refusals)
      expect(location, location.slice(0, 60)).toMatch(
        location.includes("return 503") ? / add_header Retry-After 5 always;/ : / add_header Retry-After 60 always;/,
      );
  });

  it("are all generated: the template writes none by hand", () => {
    expect(answers.map((answer) => answer.where).sort()).toEqual(
      [
        "/_unavailable.json",
        ...["ansi", "txt", "negotiate", "md", "html"].map((rendering) => `/_503.${rendering}`),
        ...["ansi", "txt", "negotiate", "md"].map((rendering) => `/_429.${rendering}`),
      ].sort(),
    );
  });

  it("answer the API's Error shape in JSON, with a catalogued title for the status", () => {
    const json = answers.filter((answer) => answer.rendering === "json");
    expect(json).toHaveLength(1);
    for (const { body, status } of json) {
      const parsed = ApiError.parse(JSON.parse(body));
      expect(parsed.status).toBe(status);
      expect(catalogued(parsed.error, status), parsed.error).toBe(true);
    }
  });

  it("head every text rendering with the status and a catalogued title", () => {
    for (const { where, rendering, body, status } of answers.filter((answer) => answer.rendering !== "json")) {
      const heading =
        rendering === "html"
          ? /<h1>(\d{3}) ([^<]+)<\/h1>/.exec(body)
          : new RegExp(`^${rendering === "md" ? "# " : ""}(\\d{3}) ([^\\n]+)\\n\\n.+\\n$`).exec(body);
      expect(heading, where).not.toBeNull();
      expect(Number(heading![1]), where).toBe(status);
      expect(catalogued(heading![2]!, status), `${where}: ${heading![2]}`).toBe(true);
    }
  });
});
