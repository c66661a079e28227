/**
 * The site in text browsers (issue 101): w3m and lynx, which run no script and read no CSS (they
 * show `hidden` elements), dump each page type of the running stack. Each reads (its own content
 * is there), shows no control that needs JavaScript, and the exit planner's plain form, submitted
 * as a browser submits it, answers a plan. Skips loudly without either; under CI=true fails.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireComponent } from "../helpers/components.ts";
import { startStack, type Stack } from "../helpers/stack.ts";

const w3m = requireComponent("w3m");
const lynx = requireComponent("lynx");
const run = promisify(execFile);

/** Each text browser found, with its arguments for a dump 100 columns wide. */
const BROWSERS = [
  ["w3m", w3m, ["-dump", "-cols", "100"]],
  ["lynx", lynx, ["-dump", "-nolist", "-width=100"]],
].flatMap(([name, binary, args]) =>
  binary ? [{ name: name as string, binary: binary as string, args: args as string[] }] : [],
);

/** Texts only a control needing JavaScript shows (site/src/components/JsOnly.astro keeps them out of text browsers). */
const JS_ONLY_TEXTS = [
  "+ Add to my list",
  "◐",
  "Copy address",
  // A saved list's own (issue 126: lynx and w3m showed them).
  "Copy into my list",
  "Download CSV",
  "use my list",
  "More results",
  "Search the pages' text too",
  "Remove ",
  "data-js-only",
  "<button",
];

/** Each page type, with a text its content must show. */
const PAGES: readonly (readonly [string, string])[] = [
  ["/", "Cloud Services Catalogue"],
  ["/aws/", "Amazon Web Services"],
  ["/aws/s3", "Amazon Simple Storage Service"],
  ["/category/storage/", "Storage"],
  ["/search/?q=alternative+to+Snowflake", "Snowflake is not in the catalogue; shown instead, the services of its kind"],
  ["/search/?q=xyzzyqwerty", "the catalogue does not know what that is"],
  ["/search/?q=kubernetes&sort=provider&dir=asc", "Azure Kubernetes Service"],
  ["/compare/aws-s3,azure-blob-storage", "Azure Blob Storage"],
  ["/equivalents/", "Equivalents"],
  ["/equivalents/data-warehouse", "Data warehouses"],
  ["/lifecycle/", "Lifecycle"],
  ["/exposure/?ids=aws-s3", "Exposure"],
  ["/list/", "list"],
  ["/lists/w3m-list", "W3m list"],
  ["/lists/w3m-list/exit-plan", "Exit plan: W3m list"],
  ["/list/exit/", "Services to plan"],
  ["/feedback/", "Feedback"],
];

describe.skipIf(!w3m || !lynx)("the site in w3m and lynx, without JavaScript", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ textPerMinute: 100_000 });
    const saved = await fetch(`${stack.apiUrl}/v1/lists`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "W3m list", slug: "w3m-list", approvedServiceIds: ["aws-s3", "aws-lambda"] }),
    });
    expect(saved.ok).toBe(true);
  }, 300_000);
  afterAll(async () => stack?.close());

  const dump = async (path: string, browser = BROWSERS[0]!) =>
    (await run(browser.binary, [...browser.args, `${stack.textUrl}${path}`], { timeout: 30_000 })).stdout
      // lynx joins a wrapped line's words with a newline and indents: read it as running text.
      .replace(/\s+/g, " ");

  it.each(BROWSERS.flatMap((browser) => PAGES.map(([path, shows]) => [browser.name, path, shows] as const)))(
    "%s: %s reads and shows no control that needs JavaScript",
    async (name, path, shows) => {
      const text = await dump(
        path,
        BROWSERS.find((browser) => browser.name === name),
      );
      expect(text).toContain(shows);
      expect(text.length).toBeGreaterThan(300);
      for (const control of JS_ONLY_TEXTS) expect(text, `${path} shows "${control}"`).not.toContain(control);
    },
  );

  // Issue 126: the search page is a table people work in, without script too.
  it("the search table in w3m: the form as a browser submits it, a header's sort, the picked rows compared", async () => {
    const html = await (await fetch(`${stack.textUrl}/search/?q=kafka`, { headers: { accept: "text/html" } })).text();
    const start = /<form\b[^>]*data-search-form[^>]*>/.exec(html)!.index;
    const form = html.slice(start, html.indexOf("</form>", start));
    // Every field of the form, as a browser sends it: the untouched ones empty, jurisdiction chosen.
    const fields = [...form.matchAll(/<(?:input|select)\b[^>]*\bname="([^"]+)"[^>]*>/g)]
      .filter((match) => !/type="checkbox"/.test(match[0]))
      .map((match) => {
        const name = match[1]!;
        const value = /type="hidden"/.test(match[0]) ? (/value="([^"]*)"/.exec(match[0])?.[1] ?? "") : "";
        return [name, name === "q" ? "kafka" : name === "jurisdiction" ? "EU" : value] as [string, string];
      });
    expect(fields.map(([name]) => name)).toEqual(
      expect.arrayContaining(["via", "q", "provider", "jurisdiction", "region"]),
    );
    const filtered = await dump(`/search/?${new URLSearchParams(fields)}`);
    expect(filtered).toContain("Apache Kafka");
    expect(filtered).not.toMatch(/Amazon Managed Streaming|Azure Event Hubs|Google Cloud Managed Service/);
    // A header's link sorts on the server: by provider, then the other way.
    const sorted = await (
      await fetch(`${stack.textUrl}/search/?q=kafka&sort=provider&dir=desc`, { headers: { accept: "text/html" } })
    ).text();
    const providers = [
      ...sorted.matchAll(/<tr data-slug="[^"]+">[\s\S]*?<\/td>\s*<td>[\s\S]*?<\/td>\s*<td>([^<]+)<\/td>/g),
    ].map((match) => match[1]!);
    expect(providers.length).toBeGreaterThan(5);
    expect(providers).toEqual([...providers].sort((a, b) => b.localeCompare(a, "en")));
    expect(await dump("/search/?q=kafka&sort=provider&dir=desc")).toContain("Provider");
    // The picked rows, as the compare form sends them (ids=a&ids=b), compared without script.
    const compared = await dump("/compare/?ids=aws-msk&ids=azure-event-hubs");
    expect(compared).toContain("Amazon Managed Streaming for Apache Kafka");
    expect(compared).toContain("Azure Event Hubs");
  });

  it("the exit planner's plain form, submitted over HTTP as a browser does, answers the plan", async () => {
    const html = await (await fetch(`${stack.textUrl}/list/exit/`, { headers: { accept: "text/html" } })).text();
    const form = /<form[^>]*data-exit-plain-form[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toMatch(/method="get"/);
    const action = /action="([^"]+)"/.exec(form)?.[1];
    expect(action).toBe("/list/exit/");
    // The form's own defaults: the ids typed, the sovereign-option box as it comes ticked.
    const plainForm = html.slice(html.indexOf(form), html.indexOf("</form>", html.indexOf(form)));
    const ticked = [...plainForm.matchAll(/<input type="checkbox" name="([a-zA-Z]+)" checked/g)].map((m) => m[1]!);
    expect(ticked).toEqual(["sovereignOption"]);
    const query = new URLSearchParams([["ids", "aws-s3,aws-lambda"], ...ticked.map((name) => [name, "on"])]);
    const response = await fetch(`${stack.textUrl}${action}?${query}`, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    const plan = await response.text();
    expect(plan).toContain("Exit plan: your list");
    expect(plan).toMatch(/<a href="[^"]*\/aws\/s3">Amazon Simple Storage Service<\/a>/);
  });

  it("the exit planner's plain form in w3m: its submission's address answers the plan, readable", async () => {
    const text = await dump("/list/exit/?ids=aws-s3%2Caws-lambda&sovereignOption=on&jurisdictions=EU");
    expect(text).toContain("Exit plan: your list");
    expect(text).toContain("2 services: 0 stay, 2 mapped, 0 gaps.");
    expect(text).toContain("Moving from Amazon Web Services");
    expect(text).toContain("Planned on the server from the planner's form.");
    for (const control of JS_ONLY_TEXTS) expect(text).not.toContain(control);
  });
});
