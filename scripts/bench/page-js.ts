/**
 * `node scripts/bench/page-js.ts [dist] [page…]`: the JavaScript a built page ships, raw and
 * brotli-compressed (quality 11, as the build compresses): its module scripts and every chunk they
 * import, statically (loaded with the page) and dynamically (loaded on use), each file counted
 * once. Reads dist/site/client (default dist, pages /list/ and /list/exit/); prints a Markdown table.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";

const [distDir = "dist", ...pageArgs] = process.argv.slice(2);
const pages = pageArgs.length > 0 ? pageArgs : ["/list/", "/list/exit/"];
const client = join(distDir, "site", "client");

const SCRIPT_SRC = /<script[^>]*\bsrc="(\/[^"]+\.js)"/g;
const INLINE_MODULE = /<script type="module">([\s\S]*?)<\/script>/g;
// Rolldown's output: `import{a as b}from"./x.js"`, `import"./x.js"`, a facade's `export{a as b}from"./x.js"`;
// `import("./x.js")`, or `import(\`./x.js\`),__vite__mapDeps(…)` through Vite's preload helper.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*[,)]/g;

const urlsIn = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1]!);
const resolveUrl = (from: string, url: string) => new URL(url, `http://page${from}`).pathname;
const brotliBytes = (bytes: Buffer) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

interface Weight {
  files: number;
  raw: number;
  brotli: number;
}

/** The files a page loads at once, and those it may load later, each counted once. */
function pageScripts(page: string): { eager: Set<string>; lazy: Set<string> } {
  const html = readFileSync(join(client, page, "index.html"), "utf8");
  const eager = new Set<string>();
  const lazy = new Set<string>();
  const queue = urlsIn(html, SCRIPT_SRC).map((url) => ({ url, lazy: false }));
  for (const inline of urlsIn(html, INLINE_MODULE)) {
    queue.push(...urlsIn(inline, STATIC_IMPORT).map((url) => ({ url: resolveUrl(page, url), lazy: false })));
    queue.push(...urlsIn(inline, DYNAMIC_IMPORT).map((url) => ({ url: resolveUrl(page, url), lazy: true })));
  }
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (eager.has(next.url) || (next.lazy && lazy.has(next.url))) continue;
    (next.lazy ? lazy : eager).add(next.url);
    if (!next.lazy) lazy.delete(next.url);
    const code = readFileSync(join(client, next.url), "utf8");
    for (const url of urlsIn(code, STATIC_IMPORT)) queue.push({ url: resolveUrl(next.url, url), lazy: next.lazy });
    for (const url of urlsIn(code, DYNAMIC_IMPORT)) queue.push({ url: resolveUrl(next.url, url), lazy: true });
  }
  return { eager, lazy };
}

function weigh(urls: Iterable<string>): Weight {
  const weight: Weight = { files: 0, raw: 0, brotli: 0 };
  for (const url of urls) {
    const bytes = readFileSync(join(client, url));
    weight.files++;
    weight.raw += bytes.length;
    weight.brotli += brotliBytes(bytes);
  }
  return weight;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const row = (page: string, when: string, weight: Weight) =>
  `| ${page} | ${when} | ${weight.files} | ${kb(weight.raw)} | ${kb(weight.brotli)} |`;

if (!existsSync(client)) throw new Error(`${client} is missing: run npm run build first`);
console.log("| page | loaded | files | raw | brotli |\n| --- | --- | --- | --- | --- |");
for (const page of pages) {
  const { eager, lazy } = pageScripts(page);
  console.log(row(page, "with the page", weigh(eager)));
  if (lazy.size > 0) console.log(row(page, "on use (import())", weigh(lazy)));
  const zod = [...eager, ...lazy].filter((url) =>
    /\$ZodType|zod\.dev|ZodError/.test(readFileSync(join(client, url), "utf8")),
  );
  console.log(`<!-- ${page}: ${zod.length > 0 ? `zod in ${zod.join(", ")}` : "no zod"} -->`);
}
