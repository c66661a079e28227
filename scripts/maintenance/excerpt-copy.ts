/**
 * `node scripts/maintenance/excerpt-copy.ts <slug>…`: vendors the passages that back each service's description
 * where its sources cite a published package's file at an exact version (`via`
 * https://unpkg.com/<package>@<version>/<path>, catalogue/quality/backed-copies.ts). For each such
 * source it packs that version from the npm registry (.cache/npm-copies/), reads the file, and
 * writes to catalogue/reference/copies/<provider>.yaml the file's blocks (paragraphs, list items)
 * that hold the source's claims, word for word, with the day read and the package's licence. A
 * claim no block holds is printed and the command exits 1: the claim is not in the copy.
 * Repository files (GitHub blobs) are excerpted by hand from what the index's read_file gives.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { loadCatalogue } from "../../catalogue/load/load.ts";
import { quoteFound } from "../../catalogue/quality/backed-copies.ts";
import { COPIES_DIR } from "../../catalogue/quality/copies.node.ts";

const NPM_COPY = /^https:\/\/unpkg\.com\/((?:@[^/]+\/)?[^/@]+)@([^/]+)\/(.+)$/;
const CACHE = join(import.meta.dirname, "..", "..", ".cache", "npm-copies");
const today = new Date().toISOString().slice(0, 10);

/** The package's folder, unpacked once per version. */
function unpacked(name: string, version: string): string {
  const dir = join(CACHE, `${name.replace("/", "+")}@${version}`);
  if (existsSync(join(dir, "package", "package.json"))) return dir;
  mkdirSync(dir, { recursive: true });
  const tarball = execFileSync("npm", ["pack", `${name}@${version}`, "--silent", "--pack-destination", dir], {
    encoding: "utf8",
  }).trim();
  execFileSync("tar", ["-xzf", join(dir, tarball), "-C", dir]);
  return dir;
}

/**
 * A file's blocks as written: paragraphs (blank lines, or an HTML paragraph's end), list items, and a
 * code comment's paragraphs (a generated client's JSDoc, whose lines start with "*" deeper than a list item's).
 * In a code file a line starting with "*" is a comment's line, never a list item: Oracle's generated
 * models write their top-level JSDoc at column 0.
 */
function blocks(text: string, code = false): string[] {
  const listItem = code ? /\n(?=[ \t]{0,3}(?:-|\d+\.)\s)/ : /\n(?=[ \t]{0,3}(?:[-*]|\d+\.)\s)/;
  return text
    .split(
      new RegExp(
        [
          /\n\s*\n|(?<=<\/p>)\s*\n|(?<=<\/li>)\s*\n/.source,
          listItem.source,
          /\n[ \t]*\*[ \t]*\n|(?<=\*\/)[ \t]*\n|\n(?=[ \t]*\/\*\*)/.source,
        ].join("|"),
      ),
    )
    .map((block) => block.replace(/\s+$/, ""))
    .filter((block) => block.trim().length > 0);
}

/** A provider's copies file, headed as excerpts.yaml is. */
const header = (providerId: string) =>
  [
    `# Word-for-word passages of the pinned copies that back ${providerId}'s descriptions (issue 128), read`,
    "# on `read`; ../../quality/backed-copies.ts says what a pinned copy is. Written by",
    "# scripts/maintenance/excerpt-copy.ts for packages' files, by hand from the index's read_file for repository files.",
    "",
  ].join("\n");

const catalogue = loadCatalogue();
let failed = false;
for (const slug of process.argv.slice(2)) {
  const service = catalogue.bySlug.get(slug);
  const providerId = catalogue.services.find((entry) => entry.slug === slug)?.providerId;
  if (!service || !providerId) throw new Error(`no service ${slug}`);
  for (const source of service.sources) {
    const match = source.via ? NPM_COPY.exec(source.via) : null;
    if (!match || !source.claims?.length) continue;
    const [, name, version, path] = match as unknown as [string, string, string, string];
    const dir = unpacked(name, version);
    const text = readFileSync(join(dir, "package", path), "utf8");
    const licence = (JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8")) as { license?: string })
      .license;
    const all = blocks(text, /\.[cm]?[jt]s$/.test(path));
    const kept = new Set<number>();
    for (const claim of source.claims) {
      const at = all.findIndex((block) => quoteFound(claim, block));
      if (at < 0) {
        console.error(`${slug}: not in ${source.via}: ${claim}`);
        failed = true;
      } else kept.add(at);
    }
    const file = join(COPIES_DIR.pathname, `${providerId}.yaml`);
    const isNew = !existsSync(file);
    const doc = parseDocument(isNew ? "copies: []\n" : readFileSync(file, "utf8"));
    const copies = doc.get("copies") as YAMLSeq;
    copies.flow = false;
    // Several services may cite one copy (an API's discovery document): keep the passages
    // excerpted for the others, so that writing one service's never drops another's.
    const index = copies.items.findIndex((item) => (item as YAMLMap).get("via") === source.via);
    const earlier = index >= 0 ? (((copies.items[index] as YAMLMap).get("excerpt") as string | undefined) ?? "") : "";
    for (const block of earlier.split(/\n\n/)) {
      const at = all.indexOf(block.replace(/\s+$/, ""));
      if (at >= 0) kept.add(at);
    }
    const excerpt = [...kept]
      .sort((a, b) => a - b)
      .map((i) => all[i])
      .join("\n\n");
    const entry = doc.createNode({
      via: source.via,
      read: today,
      licence: `${licence ?? "see the package"} (npm ${name}@${version})`,
    }) as YAMLMap;
    entry.flow = false;
    const passage = new Scalar(`${excerpt}\n`);
    passage.type = Scalar.BLOCK_LITERAL;
    entry.set("excerpt", passage);
    if (index >= 0) copies.set(index, entry);
    else copies.add(entry);
    writeFileSync(file, (isNew ? header(providerId) : "") + doc.toString({ lineWidth: 0 }));
    console.log(`${slug}: ${kept.size} passage(s) of ${source.via} → copies/${providerId}.yaml`);
  }
}
process.exit(failed ? 1 : 0);
