/**
 * `node scripts/split-services.ts [dataDir…] [--prune]`: turns each old list file
 * services/<provider>.yaml of a data folder (default catalogue/data) into one file per service,
 * services/<provider>/<slug without "<provider>-">.yaml, and deletes the list file.
 *
 * The split is textual, so every entry keeps its field order, quoting and comments; each written
 * file is parsed back and must equal its list entry, or nothing of that provider is written. The
 * list's header comment and its section headings (they concern many entries) go to
 * services/<provider>/README.md; a comment directly above one entry goes to the top of its file.
 * Idempotent: a data folder without list files is left as it is. A folder's files that the list
 * does not hold are kept and named (a service added since the list was copied), or removed with
 * --prune (a service the list's branch deleted).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { serviceFileName } from "../catalogue/load/load-services.ts";

/** A line that marks a section of the old list, e.g. "# ----- Compute" or "# --- Compute ---". */
const RULER = /^#\s*-{3,}|-{3,}\s*$/;
/** Where a list entry starts: "- " at column 0. */
const ENTRY_START = /^- /;
const isGapLine = (line: string) => line.trim() === "" || line.startsWith("#");

interface SplitEntry {
  readonly fileName: string;
  readonly text: string;
}

interface SplitList {
  readonly entries: SplitEntry[];
  /** Comment paragraphs about many entries: the header first, then section headings. */
  readonly header: string[][];
  readonly headings: string[][];
}

/** Paragraphs (runs of comment lines) of a gap between entries; `adjacent` when the last touches the entry. */
function paragraphsOf(gap: readonly string[]): { paragraphs: string[][]; adjacent: boolean } {
  const paragraphs: string[][] = [];
  let current: string[] = [];
  for (const line of gap) {
    if (line.trim() !== "") current.push(line);
    else if (current.length > 0) {
      paragraphs.push(current);
      current = [];
    }
  }
  if (current.length > 0) paragraphs.push(current);
  const last = gap[gap.length - 1];
  return { paragraphs, adjacent: last !== undefined && last.trim() !== "" };
}

/** One list entry's lines as a mapping: "- " and the two-space indent taken off. */
function asMapping(lines: readonly string[]): string {
  return lines.map((line, i) => (i === 0 ? line.slice(2) : line.startsWith("  ") ? line.slice(2) : line)).join("\n");
}

/** Splits one list file's text into entries and provider-wide comments, checking each entry. */
export function splitList(providerId: string, text: string, where: string): SplitList {
  const lines = text.replace(/\n+$/, "").split("\n");
  const parsed = parse(text, { uniqueKeys: true }) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${where}: not a YAML list`);
  const entries: SplitEntry[] = [];
  const header: string[][] = [];
  const headings: string[][] = [];
  let gap: string[] = [];
  let body: string[] | undefined;
  let own: string[] = [];
  const finish = () => {
    if (!body) return;
    const value = parsed[entries.length] as { slug?: unknown } | undefined;
    const slug = typeof value?.slug === "string" ? value.slug : "";
    const fileName = serviceFileName(providerId, slug);
    if (fileName === undefined)
      throw new Error(`${where}: entry ${entries.length + 1}: slug "${slug}" cannot name a file`);
    const mapping = `${own.length > 0 ? `${own.join("\n")}\n` : ""}${asMapping(body)}\n`;
    if (!isDeepStrictEqual(parse(mapping, { uniqueKeys: true }), value))
      throw new Error(`${where}: entry ${entries.length + 1} (${slug}) does not read back as the same mapping`);
    entries.push({ fileName, text: mapping });
  };
  const takeGap = (beforeEntry: boolean) => {
    const { paragraphs, adjacent } = paragraphsOf(gap);
    own = beforeEntry && adjacent && !paragraphs.at(-1)!.some((line) => RULER.test(line)) ? paragraphs.pop()! : [];
    for (const paragraph of paragraphs)
      (entries.length === 0 && !paragraph.some((line) => RULER.test(line)) ? header : headings).push(paragraph);
    gap = [];
  };
  for (const line of lines) {
    if (ENTRY_START.test(line)) {
      finish();
      takeGap(true);
      body = [line];
    } else if (isGapLine(line) && !line.startsWith(" ")) gap.push(line);
    else if (body) {
      // An indented line after comment lines at column 0: those comments were inside the entry. A
      // section heading there was left behind when fields were appended to the entry above it.
      const { paragraphs } = paragraphsOf(gap);
      for (const paragraph of paragraphs)
        if (paragraph.some((comment) => RULER.test(comment))) headings.push(paragraph);
        else body.push(...paragraph);
      body.push(line);
      gap = [];
    } else throw new Error(`${where}: "${line}" before the first entry`);
  }
  finish();
  takeGap(false);
  if (entries.length !== parsed.length)
    throw new Error(`${where}: found ${entries.length} entries in the text, ${parsed.length} in the YAML`);
  return { entries, header, headings };
}

const uncomment = (paragraph: readonly string[]) => paragraph.map((line) => line.replace(/^#\s?/, "")).join("\n");

/** services/<provider>/README.md: what the provider's entries follow, from the old list's comments. */
function readmeOf(providerId: string, providerName: string, split: SplitList): string {
  const parts = [
    `# ${providerName}: services`,
    `Every \`*.yaml\` here is one service, one YAML mapping: \`<name>.yaml\` holds the slug ` +
      `\`${providerId}-<name>\` (see \`catalogue/data/README.md\`, "services/<providerId>/<name>.yaml").`,
  ];
  if (split.header.length > 0) parts.push("## What these entries follow", ...split.header.map(uncomment));
  const headings = split.headings
    .map((paragraph) =>
      paragraph.filter((line) => !/^#\s*-+\s*$/.test(line)).map((line) => line.replace(/^#\s*-*\s*|\s*-*\s*$/g, "")),
    )
    .map((words) => words.join(" "))
    .filter((words) => words !== "");
  if (headings.length > 0)
    parts.push(
      "## Sections of the former list file",
      `\`services/${providerId}.yaml\` grouped its entries under these headings; each entry's \`category\` now does.`,
      headings.map((heading) => `- ${heading}`).join("\n"),
    );
  return `${parts.join("\n\n")}\n`;
}

/** Splits every list file of one data folder; returns what it did, one line per provider. */
export function splitServices(dataDir: string, prune = false): string[] {
  const servicesDir = join(dataDir, "services");
  const done: string[] = [];
  for (const file of readdirSync(servicesDir)
    .filter((name) => name.endsWith(".yaml"))
    .sort()) {
    const providerId = file.replace(/\.yaml$/, "");
    const listPath = join(servicesDir, file);
    const split = splitList(providerId, readFileSync(listPath, "utf8"), relative(process.cwd(), listPath));
    const providerPath = join(dataDir, "providers", file);
    const named = existsSync(providerPath)
      ? (parse(readFileSync(providerPath, "utf8")) as { name?: unknown }).name
      : undefined;
    const providerName = typeof named === "string" ? named : providerId;
    const folder = join(servicesDir, providerId);
    mkdirSync(folder, { recursive: true });
    const written = new Set(split.entries.map((entry) => `${entry.fileName}.yaml`));
    if (written.size !== split.entries.length) throw new Error(`${file}: two entries name the same file`);
    const others = readdirSync(folder).filter((name) => name.endsWith(".yaml") && !written.has(name));
    for (const entry of split.entries) writeFileSync(join(folder, `${entry.fileName}.yaml`), entry.text);
    writeFileSync(join(folder, "README.md"), readmeOf(providerId, providerName, split));
    if (prune) for (const name of others) rmSync(join(folder, name));
    rmSync(listPath);
    done.push(
      `${relative(process.cwd(), listPath)}: ${split.entries.length} services into ${relative(process.cwd(), folder)}/` +
        (others.length > 0
          ? `; ${prune ? "removed" : "kept"} ${others.length} not in the list: ${others.join(", ")}`
          : ""),
    );
  }
  return done;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const prune = args.includes("--prune");
  const dirs = args.filter((arg) => arg !== "--prune");
  for (const dir of dirs.length > 0 ? dirs : [fileURLToPath(new URL("../catalogue/data/", import.meta.url))]) {
    const lines = splitServices(dir, prune);
    console.log(lines.length > 0 ? lines.join("\n") : `${dir}: no services/<provider>.yaml list left to split`);
  }
}
