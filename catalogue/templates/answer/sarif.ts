/**
 * The check's findings (findings.ts) as a SARIF 2.1.0 log, what GitHub code scanning and GitLab
 * read: one run of the tool "cloud-catalogue", a rule per kind of finding, a result per finding
 * located in the template file, on the line of the logical id, resource name or plan address it
 * came from when a cheap search of the text finds it (none otherwise: the file alone).
 * With a baseline (findings.ts's judge()), each result has its baselineState (new, unchanged) and
 * the entries that accept it as external suppressions, and each entry that accepts nothing any more
 * is an absent result; the invocation says the exit status and any expired entry. When there is no
 * check (exit 2 or 3), failedSarifLog() writes a log with no results whose invocation says why, so
 * an upload step that expects the file finds it, and shows the reason.
 * Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html (§3.13 sarifLog, §3.19
 * toolComponent, §3.20 invocation, §3.27 result: §3.27.23 suppressions, §3.27.24 baselineState,
 * §3.30 region, §3.58 notification); tests validate against the spec's own JSON schema.
 */
import type { Finding, FindingRule, JudgedFinding, Suppression } from "./findings.ts";

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
  "not-read": {
    name: "NotRead",
    text: "A part of the deployment the check did not read (a module block, a count or for_each that is not a literal, an ARM linked template, a CloudFormation nested stack, application, macro or include held elsewhere): the verdicts it concerns are not given as allowed.",
    help: "Check what it names on its own (a Terraform plan reads modules and counts; a macro's output is the processed template), send its files with the repository's, or accept it in the baseline with the reason.",
    level: "error",
  },
  "deployment-error": {
    name: "DeploymentError",
    text: "The vendor's deployment would refuse the template as written (a Fn::FindInMap with no entry for the stack's region, a nested stack passed parameters its template does not declare).",
    help: "Fix the template: add the Mapping's entry for the region, or pass only the parameters the nested template declares.",
    level: "error",
  },
  "version-retiring": {
    name: "VersionRetiring",
    text: "A runtime, Kubernetes or engine version the deployment names has ended, or its support ends within the window asked (retiringWithin, 180 days by default).",
    help: "Move to a supported version before the date; the message names the date, the successor where the vendor names one, and the vendor page.",
    level: "error",
  },
  "service-retiring": {
    name: "ServiceRetiring",
    text: "A service the deployment uses is retired, deprecated, or sunsets within the window asked (its own lifecycle, as its vendor announced it).",
    help: "Move to its successor before the date; the message names the date, the successor and the vendor's notice.",
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

/** The catalogue a check was made against (scripts/check/catalogue.ts), as the run's properties name it. */
export interface SarifCatalogue {
  readonly release?: string;
  readonly dataDate?: string;
  readonly from: string;
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
  /** The findings judged against a baseline: each result's baselineState and suppressions. */
  readonly baseline?: {
    readonly findings: readonly JudgedFinding[];
    /** Entries that accept no finding any more: absent results. */
    readonly unmatched: readonly Suppression[];
    readonly expired: readonly Suppression[];
    /** Pull-request mode: only new results (and absent ones). */
    readonly newOnly?: boolean;
  };
  readonly catalogue?: SarifCatalogue;
  /** The command's exit status, for the invocation (absent: no invocation is written). */
  readonly exitCode?: number;
}

/** The tool: the rules of every kind of finding. */
function driverOf(version: string) {
  return {
    name: "cloud-catalogue",
    version,
    rules: RULE_IDS.map((id) => ({
      id,
      name: RULES[id].name,
      shortDescription: { text: RULES[id].text },
      help: { text: RULES[id].help },
      defaultConfiguration: { level: RULES[id].level },
    })),
  };
}

const entryText = (entry: Suppression) =>
  [entry.rule, entry.item, entry.resource, entry.file].filter((part) => part !== undefined).join(" ");

/** A result's location: the file, and the line and column when found (§3.28). */
interface SarifLocation {
  readonly physicalLocation: {
    readonly artifactLocation: { readonly uri: string };
    readonly region?: { readonly startLine: number; readonly startColumn: number };
  };
}

/** A result (§3.27): a finding where it stands, and against a baseline, its state and what accepts it. */
export interface SarifResult {
  readonly ruleId: FindingRule;
  readonly ruleIndex: number;
  readonly level: Finding["level"];
  readonly message: { readonly text: string };
  readonly locations: readonly SarifLocation[];
  readonly baselineState?: "new" | "unchanged" | "absent";
  readonly suppressions?: readonly { readonly kind: "external"; readonly justification: string }[];
}

/** The SARIF 2.1.0 log: one run, the rules of every kind of finding, a result per finding. */
export function sarifLog(findings: readonly Finding[], options: SarifOptions) {
  // A folder's .tf files: each finding in the first file where what it names is found, else the first file.
  const files = (options.files ?? [{ path: options.path, text: options.text }]).map((file) => ({
    // A URI reference (RFC 3986): each segment percent-encoded, the slashes kept.
    uri: uriOf(file.path),
    index: new TextIndex(file.text),
  }));
  const locate = (finding: Finding): SarifLocation[] => {
    const found = files.map((file) => ({ uri: file.uri, region: regionOf(file.index, finding) }));
    const { uri, region } = found.find((file) => file.region) ?? found[0]!;
    return [{ physicalLocation: { artifactLocation: { uri }, ...(region ? { region } : {}) } }];
  };
  const resultOf = (finding: Finding): SarifResult => ({
    ruleId: finding.rule,
    ruleIndex: RULE_IDS.indexOf(finding.rule),
    level: finding.level,
    message: { text: finding.message },
    locations: locate(finding),
  });
  const baseline = options.baseline;
  const results: SarifResult[] = baseline ? baselineResults(baseline, resultOf, options.path) : findings.map(resultOf);
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0" as const,
    runs: [
      {
        tool: { driver: driverOf(options.version) },
        ...(options.exitCode === undefined
          ? {}
          : {
              invocations: [
                {
                  executionSuccessful: true,
                  exitCode: options.exitCode,
                  ...(baseline && baseline.expired.length > 0
                    ? {
                        toolConfigurationNotifications: baseline.expired.map((entry) => ({
                          level: "warning" as const,
                          descriptor: { id: "expired-baseline-entry" },
                          message: {
                            text: `The baseline's ${entryText(entry)} expired on ${entry.expires} (${entry.reason}): the findings it accepted count again.`,
                          },
                        })),
                      }
                    : {}),
                },
              ],
            }),
        columnKind: "utf16CodeUnits" as const,
        results,
        ...(options.catalogue ? { properties: { catalogue: options.catalogue } } : {}),
      },
    ],
  };
}

/**
 * The results against a baseline: each finding new or unchanged (then suppressed by the entries that
 * accept it, with their reasons), only the new ones in pull-request mode; each entry that accepts
 * nothing any more, absent.
 */
function baselineResults(
  baseline: NonNullable<SarifOptions["baseline"]>,
  resultOf: (finding: Finding) => SarifResult,
  path: string,
): SarifResult[] {
  return [
    ...baseline.findings
      .filter((entry) => !baseline.newOnly || entry.acceptedBy.length === 0)
      .map(({ finding, acceptedBy }): SarifResult => ({
        ...resultOf(finding),
        baselineState: acceptedBy.length > 0 ? "unchanged" : "new",
        ...(acceptedBy.length > 0
          ? {
              suppressions: acceptedBy.map((entry) => ({
                // No status: a suppression without one is in force (§3.35.3).
                kind: "external",
                justification: `${entry.reason}${entry.expires ? ` (until ${entry.expires})` : ""}`,
              })),
            }
          : {}),
      })),
    ...baseline.unmatched.map((entry): SarifResult => ({
      ruleId: entry.rule,
      ruleIndex: RULE_IDS.indexOf(entry.rule),
      level: RULES[entry.rule].level,
      message: { text: `No longer found: the baseline's ${entryText(entry)} (${entry.reason}).` },
      baselineState: "absent",
      locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(entry.file ?? path) } } }],
    })),
  ];
}

/** A URI reference (RFC 3986) of a path relative to the repository: each segment percent-encoded. */
const uriOf = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/**
 * The log of a run that gave no verdict (exit 2: no check; 3: the API unreachable): no result, and
 * the reason as the invocation's tool execution notification, which code scanning shows.
 */
export function failedSarifLog(options: {
  readonly version: string;
  readonly exitCode: number;
  readonly reason: string;
  readonly catalogue?: SarifCatalogue;
}) {
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0" as const,
    runs: [
      {
        tool: { driver: driverOf(options.version) },
        invocations: [
          {
            executionSuccessful: false,
            exitCode: options.exitCode,
            toolExecutionNotifications: [
              {
                level: "error" as const,
                descriptor: { id: options.exitCode === 3 ? "api-unreachable" : "no-check" },
                message: { text: options.reason },
              },
            ],
          },
        ],
        results: [],
        ...(options.catalogue ? { properties: { catalogue: options.catalogue } } : {}),
      },
    ],
  };
}
