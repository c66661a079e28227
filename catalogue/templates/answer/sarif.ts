/**
 * The check's findings (findings.ts) as a SARIF 2.1.0 log, what GitHub code scanning and GitLab
 * read: one run of the tool "cloud-catalogue", a rule per kind of finding, a result per finding —
 * one per resource instance — at its place (places.ts: the resource's block, else the file), with
 * partialFingerprints from the finding's identity (rule, item, resource, file), so GitHub matches
 * the same alert across runs and uploads through its REST API alike. Judged (judge.ts), each
 * accepted result carries its suppressions, `state: accepted`, `inSource` for an inline comment,
 * `external` for the baseline or the configuration; with a baseline, each result its baselineState
 * (new, unchanged). An expired suppression (a warning) and a stale baseline entry (a note: never a
 * result, which code scanning would show as an open alert) are the invocation's configuration
 * notifications. When there is no check (exit 2 or 3), failedSarifLog() writes a log with no
 * results whose invocation says why, so an upload step that expects the file finds it.
 * Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html (§3.13 sarifLog, §3.19
 * toolComponent, §3.20 invocation, §3.27 result: §3.27.17 partialFingerprints, §3.27.23 suppressions, §3.27.24 baselineState, §3.34 suppression,
 * §3.30 region, §3.58 notification); tests validate against the spec's own JSON schema.
 */
import { createHash } from "node:crypto";
import type { Finding, FindingRule } from "./findings.ts";
import {
  entryText,
  sourceText,
  type Judgement,
  type JudgedFinding,
  type Place,
  type PlacedFinding,
  type Suppression,
} from "./judge.ts";
import { SourcePlaces } from "./places.ts";

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

/** The catalogue a check was made against (scripts/check/catalogue.ts), as the run's properties name it. */
export interface SarifCatalogue {
  readonly release?: string;
  readonly dataDate?: string;
  readonly from: string;
}

export interface SarifOptions {
  /** The template's path relative to the repository root, with forward slashes (a finding without a place points at it). */
  readonly path: string;
  /** The template's text, searched for the lines of findings that come without a place. */
  readonly text?: string;
  /** The tool's version (the package's). */
  readonly version: string;
  /** A folder's .tf files (path relative to the repository root, and text), instead of path and text. */
  readonly files?: readonly { readonly path: string; readonly text: string }[];
  /**
   * The findings judged (judge.ts): each accepted one's suppressions (with their state, accepted),
   * expired suppressions and stale baseline entries as the invocation's notifications.
   */
  readonly judged?: Pick<Judgement, "findings" | "expired" | "unmatched">;
  /** A baseline was given: each result's baselineState (new, unchanged). */
  readonly baseline?: boolean;
  /** Pull-request mode: only the results no suppression accepts. */
  readonly newOnly?: boolean;
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

/** A result's location: the file, and the line and column when found (§3.28). */
interface SarifLocation {
  readonly physicalLocation: {
    readonly artifactLocation: { readonly uri: string };
    readonly region?: { readonly startLine: number; readonly startColumn: number };
  };
}

/** A suppression (§3.34): where it is kept (inSource: an inline comment; external: the baseline, the configuration, an option), accepted. */
interface SarifSuppression {
  readonly kind: "inSource" | "external";
  readonly state: "accepted";
  readonly justification: string;
  readonly location?: SarifLocation;
}

/** A result (§3.27): a finding where it stands, its fingerprints, and against a baseline, its state and what accepts it. */
export interface SarifResult {
  readonly ruleId: FindingRule;
  readonly ruleIndex: number;
  readonly level: Finding["level"];
  readonly message: { readonly text: string };
  readonly locations: readonly SarifLocation[];
  /** §3.27.17: what identifies the result across runs, so an upload through the REST API never duplicates an alert. */
  readonly partialFingerprints: Readonly<Record<string, string>>;
  readonly baselineState?: "new" | "unchanged";
  readonly suppressions?: readonly SarifSuppression[];
  /** The finding's item and resource, for the tools that read them. */
  readonly properties: { readonly item: string; readonly resource?: string };
}

/** A notification (§3.58) of the invocation's configuration: an expired suppression, a stale baseline entry. */
interface SarifNotification {
  readonly level: "warning" | "note";
  readonly descriptor: { readonly id: string };
  readonly message: { readonly text: string };
}

const locationOf = (place: Place | undefined, path: string): SarifLocation => ({
  physicalLocation: {
    artifactLocation: { uri: uriOf(place?.file ?? path) },
    ...(place?.line !== undefined ? { region: { startLine: place.line, startColumn: place.column ?? 1 } } : {}),
  },
});

/** A suppression as SARIF keeps it: accepted, with the reason (and its last day), an inline one at its comment. */
function suppressionOf(entry: Suppression): SarifSuppression {
  const source = entry.source;
  return {
    kind: source?.kind === "inline" ? "inSource" : "external",
    state: "accepted",
    justification: `${entry.reason}${entry.expires ? ` (until ${entry.expires})` : ""} [${sourceText(entry)}]`,
    ...(source?.kind === "inline"
      ? {
          location: {
            physicalLocation: {
              artifactLocation: { uri: uriOf(source.file) },
              region: { startLine: source.line, startColumn: 1 },
            },
          },
        }
      : {}),
  };
}

/** What the expired suppressions that would have accepted a finding say beside it: they no longer apply. */
export const expiredText = (expiredBy: readonly Suppression[]): string =>
  expiredBy
    .map(
      (entry) =>
        ` The suppression in ${sourceText(entry)} (${entry.reason}) expired on ${entry.expires}: it no longer applies.`,
    )
    .join("");

/** The SARIF 2.1.0 log: one run, the rules of every kind of finding, a result per finding. */
export function sarifLog(findings: readonly PlacedFinding[], options: SarifOptions) {
  // Findings the caller did not place are found in the texts, read only when one needs it.
  let places: SourcePlaces | undefined;
  const placeOf = (finding: PlacedFinding) => {
    if (finding.place) return finding.place;
    const sources = options.files ?? [{ path: options.path, text: options.text ?? "" }];
    places ??= new SourcePlaces(
      sources.map((file) => ({ ...file, name: file.path })),
      false,
    );
    return places.place(finding);
  };
  const judged: readonly JudgedFinding[] =
    options.judged?.findings ?? findings.map((finding) => ({ finding, acceptedBy: [], expiredBy: [] }));
  const results = judged
    .filter((entry) => !options.newOnly || entry.acceptedBy.length === 0)
    .map(({ finding, acceptedBy, expiredBy }): SarifResult => {
      const place = placeOf(finding);
      return {
        ruleId: finding.rule,
        ruleIndex: RULE_IDS.indexOf(finding.rule),
        level: finding.level,
        message: { text: `${finding.message}${expiredText(expiredBy)}` },
        locations: [locationOf(place, options.path)],
        partialFingerprints: fingerprintsOf(finding, place),
        ...(options.baseline
          ? {
              baselineState: acceptedBy.some((entry) => !entry.source || entry.source.kind === "baseline")
                ? "unchanged"
                : "new",
            }
          : {}),
        ...(acceptedBy.length > 0 ? { suppressions: acceptedBy.map(suppressionOf) } : {}),
        properties: { item: finding.item, ...(finding.resource === undefined ? {} : { resource: finding.resource }) },
      };
    });
  const notifications: SarifNotification[] = [
    ...(options.judged?.expired ?? []).map((entry) => ({
      level: "warning" as const,
      descriptor: { id: "expired-suppression" },
      message: {
        text: `The suppression ${entryText(entry)} in ${sourceText(entry)} expired on ${entry.expires} (${entry.reason}): the findings it accepted count again.`,
      },
    })),
    // A stale entry is a note of the configuration, never a result: code scanning would open an alert for it.
    ...(options.judged?.unmatched ?? []).map((entry) => ({
      level: "note" as const,
      descriptor: { id: "stale-baseline-entry" },
      message: {
        text: `The baseline's ${entryText(entry)} (${entry.reason}) accepts no finding any more: remove it.`,
      },
    })),
  ];
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
                  ...(notifications.length > 0 ? { toolConfigurationNotifications: notifications } : {}),
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
 * A result's fingerprints (§3.27.17): the finding's identity — its rule, item, resource and file —
 * hashed, stable while the resource is, wherever its block moves in the file. GitHub code scanning
 * combines primaryLocationLineHash with the path and rule; given here, it is used as it is.
 */
function fingerprintsOf(finding: Finding, place: Place | undefined): Record<string, string> {
  const hash = createHash("sha256")
    .update([finding.rule, finding.item, finding.resource ?? "", place?.file ?? ""].join("\0"))
    .digest("hex");
  return { "cloudCatalogueFinding/v1": hash.slice(0, 32), primaryLocationLineHash: `${hash.slice(0, 16)}:1` };
}

/** A URI reference (RFC 3986) of a path relative to the repository: each segment percent-encoded. */
export const uriOf = (path: string) => path.split("/").map(encodeURIComponent).join("/");
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
