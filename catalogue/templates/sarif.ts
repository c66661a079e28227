/**
 * The check's findings (findings.ts) as a SARIF 2.1.0 log, what GitHub code scanning and GitLab
 * read: one run of the tool "cloud-catalogue", a rule per kind of finding, a result per finding
 * located in the template file, on the line of the logical id, resource name or plan address it
 * came from when a cheap search of the text finds it (none otherwise: the file alone).
 * Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html (§3.13 sarifLog, §3.19
 * toolComponent, §3.27 result, §3.30 region); tests validate against the spec's own JSON schema.
 */
import type { Finding, FindingRule } from "./findings.ts";

// The OASIS standard's own URI for the schema (SARIF 2.1.0 errata 01, §3.13.3).
const SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** Each rule: its name, what it finds, and the level a result of it gets. */
const RULES: Record<FindingRule, { name: string; text: string; help: string; level: "error" | "warning" }> = {
  "denied-action": {
    name: "DeniedAction",
    text: "An IAM action the deployment needs is denied by the SCP generated from the approved list.",
    help: "Approve one of the services the message names (they allow the action), or change the template.",
    level: "error",
  },
  "denied-type": {
    name: "DeniedResourceType",
    text: "An Azure resource type the deployment creates is denied by the Azure Policy set generated from the approved list.",
    help: "Approve one of the services the message names (they allow the type), or change the template.",
    level: "error",
  },
  "denied-api": {
    name: "DeniedApi",
    text: "A Google API the deployment calls is denied by the organization policy generated from the approved list.",
    help: "Approve one of the services the message names (they allow the API), or change the template.",
    level: "error",
  },
  "service-missing": {
    name: "ServiceMissingFromList",
    text: "The deployment uses a catalogue service the approved list lacks, and no verdict allows it.",
    help: "Add the service to the approved list.",
    level: "error",
  },
  unplaced: {
    name: "UnplacedItem",
    text: "An item of the deployment is in no catalogue service; nothing is said of it beyond the reason given.",
    help: "The message gives the reason and, where there is one, what to send instead.",
    level: "warning",
  },
  "not-evaluated": {
    name: "NotEvaluated",
    text: "An item of the deployment is evaluated by no policy verdict: the policy neither allows nor denies it.",
    help: "Review it by hand; the message says why no verdict covers it.",
    level: "warning",
  },
  "version-retiring": {
    name: "VersionRetiring",
    text: "A runtime, Kubernetes or engine version the deployment names has ended, or its support ends within the window asked (retiringWithin, 180 days by default).",
    help: "Move to a supported version before the date; the message names the date, the successor where the vendor names one, and the vendor page.",
    level: "error",
  },
  "version-unknown": {
    name: "VersionNotKnown",
    text: "A version the deployment names is not in the catalogue's version data: nothing is said of its support.",
    help: "Check the vendor's support calendar for it by hand.",
    level: "warning",
  },
  "location-denied": {
    name: "LocationDenied",
    text: "A resource of the deployment states a region outside the allowedLocations asked.",
    help: "Move the resource to an allowed region, or add its region, country or group to allowedLocations.",
    level: "error",
  },
  "location-unknown": {
    name: "LocationNotKnown",
    text: "A resource states a location the catalogue's provider regions do not hold: it is neither allowed nor denied.",
    help: "Check the location by hand against the allowed list; the message names it.",
    level: "warning",
  },
};
const RULE_IDS = Object.keys(RULES) as FindingRule[];

/** Finds, cheaply, where a name stands in a template's text: one pass builds the maps, each lookup is one get. */
export class TextIndex {
  private readonly lineStarts: number[] = [0];
  /** A key at the start of a line (YAML or pretty-printed JSON): `Bucket:`, `"Bucket": {`. */
  private readonly keys = new Map<string, number>();
  /** A JSON string literal anywhere (an ARM resource's name, a plan's address on one long line). */
  private readonly literals = new Map<string, number>();
  /** A whole line's text (an API list one a line). */
  private readonly lines = new Map<string, number>();

  constructor(text: string) {
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) this.lineStarts.push(at + 1);
    const first = <K>(map: Map<K, number>, key: K, offset: number) => {
      if (!map.has(key)) map.set(key, offset);
    };
    this.lineStarts.forEach((start, line) => {
      const end = this.lineStarts[line + 1] ?? text.length;
      const content = text.slice(start, Math.min(end, start + 400));
      const key = /^(\s*(?:-\s+)?)(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"'#:{}[\],][^:#]*?))\s*:(?:\s|$)/.exec(content);
      if (key) first(this.keys, key[2] ?? key[3] ?? key[4]!, start + key[1]!.length);
      const trimmed = content.trim();
      if (trimmed) first(this.lines, trimmed.replace(/^-\s+/, "").replace(/^["']|["'],?$/g, ""), start);
    });
    // A .tf block's address: resource "type" "name" → type.name, data → data.type.name, module "name" → module.name.
    for (const match of text.matchAll(
      /^[ \t]*(resource|data|ephemeral|module)[ \t]+"([^"\n]+)"(?:[ \t]+"([^"\n]+)")?/gm,
    )) {
      const [, block, first, second] = match as unknown as [string, string, string, string | undefined];
      const address =
        block === "resource" ? `${first}.${second}` : second ? `${block}.${first}.${second}` : `${block}.${first}`;
      this.keys.set(address, this.keys.get(address) ?? match.index + match[0].indexOf(block));
    }
    for (const match of text.matchAll(/"((?:[^"\\\n]|\\.){1,300})"/g)) {
      let value = match[1]!;
      if (value.includes("\\"))
        try {
          value = JSON.parse(`"${value}"`) as string;
        } catch {
          continue;
        }
      first(this.literals, value, match.index);
    }
  }

  /** The 1-based line and column (UTF-16 code units, SARIF's default) where `name` stands, if found. */
  find(name: string): { startLine: number; startColumn: number } | undefined {
    const offset = this.keys.get(name) ?? this.literals.get(name) ?? this.lines.get(name);
    if (offset === undefined) return undefined;
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { startLine: low + 1, startColumn: offset - this.lineStarts[low]! + 1 };
  }
}

/** Where a finding stands: the first of its places found, else the item's own name (an API in a list). */
function regionOf(index: TextIndex, finding: Finding) {
  // A SAM resource's items come "from" `Function (AWS::Serverless::Function)`: the logical id is the place.
  for (const from of finding.from) {
    const found = index.find(from.replace(/ \([^)]*\)$/, ""));
    if (found) return found;
  }
  return index.find(finding.item);
}

export interface SarifOptions {
  /** The template's path relative to the repository root, with forward slashes. */
  readonly path: string;
  /** The template's text, searched for the lines of what each finding names. */
  readonly text: string;
  /** The tool's version (the package's). */
  readonly version: string;
  /** A folder's .tf files (path relative to the repository root, and text), instead of path and text. */
  readonly files?: readonly { readonly path: string; readonly text: string }[];
}

/** The SARIF 2.1.0 log: one run, the rules of every kind of finding, a result per finding. */
export function sarifLog(findings: readonly Finding[], options: SarifOptions) {
  // A folder's .tf files: each finding in the first file where what it names is found, else the first file.
  const files = (options.files ?? [{ path: options.path, text: options.text }]).map((file) => ({
    // A URI reference (RFC 3986): each segment percent-encoded, the slashes kept.
    uri: file.path.split("/").map(encodeURIComponent).join("/"),
    index: new TextIndex(file.text),
  }));
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0" as const,
    runs: [
      {
        tool: {
          driver: {
            name: "cloud-catalogue",
            version: options.version,
            rules: RULE_IDS.map((id) => ({
              id,
              name: RULES[id].name,
              shortDescription: { text: RULES[id].text },
              help: { text: RULES[id].help },
              defaultConfiguration: { level: RULES[id].level },
            })),
          },
        },
        columnKind: "utf16CodeUnits" as const,
        results: findings.map((finding) => {
          const found = files.map((file) => ({ uri: file.uri, region: regionOf(file.index, finding) }));
          const { uri, region } = found.find((file) => file.region) ?? found[0]!;
          return {
            ruleId: finding.rule,
            ruleIndex: RULE_IDS.indexOf(finding.rule),
            level: finding.level,
            message: { text: finding.message },
            locations: [{ physicalLocation: { artifactLocation: { uri }, ...(region ? { region } : {}) } }],
          };
        }),
      },
    ],
  };
}
