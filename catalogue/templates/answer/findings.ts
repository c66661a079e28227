/**
 * What a CI gate makes of the deployment check's answer (`cloud-catalogue check`, docs/ci-check.md):
 * whether the deployment is allowed, and each finding with the item it is about, where that item
 * came from in the template, and what would allow it (sarif.ts writes them as SARIF results).
 *
 * Allowed: every vendor verdict from the approved list allows all it checked (none denied, none
 * refused), and no service the deployment uses is missing from the list (a service not approved is
 * missing when something of it is denied, or when no verdict speaks for it: a provider no document
 * governs, a type without identifiers), and no resource states a location outside the request's
 * allowedLocations. Unplaced items and what no policy evaluates are warnings:
 * check.ts never counts them in a verdict's `allowed` (the verdict still checks an unplaced type's
 * identifiers where it knows them), so they do not deny; `strict` fails on them too
 * (decisions.md#check-gate).
 *
 * What the verdicts did not read (a module block, a count that is not a literal, an ARM linked
 * template) makes them not allowed: an error of its own (`not-read`), so that every reason a
 * deployment is not allowed is a finding a baseline can accept.
 *
 * Pure: it reads only the answer, so an answer from the API (`--api`) gives the same findings.
 * judge() then weighs them as the gate does: against the repository's baseline (accepted findings,
 * each with a reason and an optional expiry) and the severity the gate fails on.
 */
import { phaseStory } from "../rules/versions.ts";
import type { DeploymentCheckAnswer, PolicyVerdict } from "../model/answer.ts";

/** Every kind of finding, errors' first (sarif.ts gives each a rule). */
export const FINDING_RULES = [
  "denied-action",
  "denied-type",
  "denied-api",
  "service-missing",
  "not-read",
  "deployment-error",
  "location-denied",
  "version-retiring",
  "service-retiring",
  "unplaced",
  "not-evaluated",
  "version-unknown",
  "location-unknown",
] as const;
export type FindingRule = (typeof FINDING_RULES)[number];

export interface Finding {
  readonly rule: FindingRule;
  readonly level: "error" | "warning";
  /** What the finding is about: a resource type, an API, an implicit need or a service. */
  readonly item: string;
  /** Where in the template it came from: logical ids, resource names or plan addresses (may be none). */
  readonly from: readonly string[];
  /** The item, what is wrong and what would allow it, in one sentence or two. */
  readonly message: string;
}

export interface CheckOutcome {
  /** Every approved-list verdict allows what it checked, and no service used is missing. */
  readonly allowed: boolean;
  readonly findings: readonly Finding[];
  /** Versions the deployment names whose support has ended or ends within the request's window. */
  readonly retiring: number;
  /** 0: allowed, nothing retiring (and, under strict, no warning); 1: not allowed, or a version retiring. */
  readonly exitCode: 0 | 1;
}

const DENIED_RULE: Record<PolicyVerdict["providerId"], FindingRule> = {
  aws: "denied-action",
  azure: "denied-type",
  gcp: "denied-api",
};
const VENDOR: Record<PolicyVerdict["providerId"], { name: string; unit: string; document: string }> = {
  aws: { name: "AWS", unit: "action", document: "SCP" },
  azure: { name: "Azure", unit: "resource type", document: "Azure Policy set" },
  gcp: { name: "Google Cloud", unit: "API", document: "organization policy" },
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const some = (values: readonly string[], max: number) =>
  `${values.slice(0, max).join(", ")}${values.length > max ? `, … (${values.length} in all)` : ""}`;

/**
 * The verdicts from the approved list: the first of each vendor (the schema's order: from the list,
 * then, when it lacks something, from suggestedServiceIds).
 */
export function approvedVerdicts(answer: DeploymentCheckAnswer): PolicyVerdict[] {
  const seen = new Set<string>();
  return answer.verdicts.filter((verdict) => !seen.has(verdict.providerId) && seen.add(verdict.providerId));
}

/** Where each item of the answer came from (its services' items and its unplaced items). */
function placesOf(answer: DeploymentCheckAnswer): Map<string, readonly string[]> {
  const places = new Map<string, string[]>();
  const add = (item: string, from: readonly string[]) =>
    places.set(item, [...new Set([...(places.get(item) ?? []), ...from])]);
  for (const service of answer.services) for (const entry of service.items) add(entry.item, entry.from);
  for (const entry of answer.unplaced) add(entry.item, entry.from);
  return places;
}

/** One finding per item a verdict denies something for: the identifiers, and the services that would allow them. */
function deniedFindings(answer: DeploymentCheckAnswer, places: Map<string, readonly string[]>): Finding[] {
  const findings: Finding[] = [];
  for (const verdict of approvedVerdicts(answer)) {
    const vendor = VENDOR[verdict.providerId];
    const byNeed = new Map<string, { identifiers: string[]; approve: Set<string> }>();
    for (const denied of verdict.denied)
      for (const need of denied.neededFor) {
        const entry = byNeed.get(need) ?? { identifiers: [], approve: new Set<string>() };
        entry.identifiers.push(denied.identifier);
        for (const id of denied.approve) entry.approve.add(id);
        byNeed.set(need, entry);
      }
    const list = verdict.approvedServiceIds.join(", ") || "nothing";
    for (const [need, { identifiers, approve }] of byNeed) {
      const row = answer.implicitNeeds.find((entry) => entry.id === need);
      const from = places.get(need) ?? [];
      const what = row
        ? `${row.what} (implicit need ${row.id})`
        : `${need}${from.length > 0 ? ` (${some(from, 3)})` : ""}`;
      const units = plural(identifiers.length, vendor.unit);
      const why = verdict.refused
        ? `needs ${units}, and no ${vendor.name} ${vendor.document} can be made from [${list}] (${verdict.refused.replace(/\.$/, "")})`
        : `needs ${units} that the ${vendor.name} ${vendor.document} generated from [${list}] denies`;
      const allow =
        approve.size > 0
          ? `approve ${[...approve].sort().join(" or ")} to allow ${identifiers.length === 1 ? "it" : "them"}`
          : `no catalogue service allows ${identifiers.length === 1 ? "it" : "them"}`;
      findings.push({
        rule: DENIED_RULE[verdict.providerId],
        level: "error",
        item: need,
        from,
        message: `${what} ${why}: ${some(identifiers, 5)}; ${allow}.`,
      });
    }
  }
  return findings;
}

/** Services the list lacks that no denial already names (no verdict speaks for them). */
function missingFindings(answer: DeploymentCheckAnswer, denied: ReadonlySet<string>): Finding[] {
  return answer.services
    .filter((service) => service.status === "missing" && !service.items.some((entry) => denied.has(entry.item)))
    .map((service) => {
      const governed = service.providerId in VENDOR;
      const items = service.items.map((entry) => entry.item);
      return {
        rule: "service-missing" as const,
        level: "error" as const,
        item: service.id,
        from: [...new Set(service.items.flatMap((entry) => entry.from))],
        message: `${service.id} (for ${some(items, 4)}) is not on the approved list, and no verdict allows it (${governed ? `no ${VENDOR[service.providerId as PolicyVerdict["providerId"]].name} identifier of it was checked` : `no policy document of the catalogue governs ${service.providerId}`}); add ${service.id} to the list to allow it.`,
      };
    });
}

function unplacedFindings(answer: DeploymentCheckAnswer): Finding[] {
  return answer.unplaced.map((entry) => ({
    rule: "unplaced",
    level: "warning",
    item: entry.item,
    from: entry.from,
    message: `${entry.item} is in no catalogue service: ${entry.reason}${entry.arrivesWith?.length ? ` Approving ${some(entry.arrivesWith, 3)} allows it.` : ""}`,
  }));
}

/** Whether `text` names `item` as a whole name (not the start of a longer one). */
function names(text: string, item: string): boolean {
  for (let at = text.indexOf(item); at >= 0; at = text.indexOf(item, at + 1)) {
    const before = text[at - 1] ?? " ";
    // Not a longer name's part: `Microsoft.Network/privateDnsZones` in `…/privateDnsZones/A`.
    const after = text.slice(at + item.length, at + item.length + 2);
    if (!/[\w:./-]/.test(before) && !/^[\w:/-]/.test(after) && !/^\.\w/.test(after)) return true;
  }
  return false;
}

/**
 * What no policy evaluated: the Azure types Indexed mode never sees, and the types the statements
 * say were not checked (no handler permissions, no identifier in an inventory), found by name in them.
 */
function notEvaluatedFindings(answer: DeploymentCheckAnswer, places: Map<string, readonly string[]>): Finding[] {
  // What a verdict from the list did not read: that verdict is not allowed for it (rules/policies.ts's verdict()).
  const unreadBy = new Map<string, string[]>();
  for (const verdict of approvedVerdicts(answer))
    for (const entry of verdict.notEvaluated ?? [])
      unreadBy.set(entry, [...(unreadBy.get(entry) ?? []), VENDOR[verdict.providerId].name]);
  const findings: Finding[] = answer.notEvaluated.map((type) => {
    // What the reader did not read ("<where>: <what>", a linked template or a .tf module): no type.
    if (type.includes(": ")) {
      const vendors = unreadBy.get(type);
      return {
        rule: vendors ? "not-read" : "not-evaluated",
        level: vendors ? "error" : "warning",
        item: type.slice(0, type.indexOf(": ")),
        from: [],
        message: vendors
          ? `${type}: not read by the check, so the ${vendors.join(" and ")} verdict it concerns is not given as allowed; check it on its own (a plan reads it), or accept it in the baseline with the reason.`
          : `${type}: not read by the check, so no verdict it concerns is given as allowed; check it on its own.`,
      };
    }
    const item = [...places.keys()].find((name) => name.toLowerCase() === type.toLowerCase()) ?? type;
    return {
      rule: "not-evaluated",
      level: "warning",
      item: type,
      from: places.get(item) ?? [],
      message: `${type} is never evaluated by the Azure policy in Indexed mode (it has no location and tags): the policy neither allows nor denies it; a copy of the policy in mode All would evaluate it.`,
    };
  });
  const said = new Set(answer.notEvaluated.map((type) => type.toLowerCase()));
  // Where the statements say what was not checked (statements.ts's statementsOf and rules/terraform-types.ts's
  // uncheckedNote): a not-evaluated statement whole, or a verdict's "… were not checked (A, B, …)".
  const clauses = answer.statements.flatMap((statement) =>
    statement.kind === "not-evaluated"
      ? [statement.text]
      : statement.kind === "verdict"
        ? [...statement.text.matchAll(/[^;]*\bnot checked \([^)]*\)/g)].map((match) => `${match[0].trim()}.`)
        : [],
  );
  for (const clause of clauses)
    for (const [item, from] of places)
      if (!said.has(item.toLowerCase()) && names(clause, item)) {
        said.add(item.toLowerCase());
        findings.push({
          rule: "not-evaluated",
          level: "warning",
          item,
          from,
          message: `${item} is evaluated by no policy verdict, which neither allows nor denies it: ${clause}`,
        });
      }
  return findings;
}

/** What the vendor's deployment would refuse (a Mapping without the stack's region): an error, the stack failing. */
function deploymentErrorFindings(answer: DeploymentCheckAnswer): Finding[] {
  // An answer of an API before 1.13.0 has no deploymentErrors.
  return (answer.deploymentErrors ?? []).map((entry): Finding => {
    const where = entry.includes(": ") ? entry.slice(0, entry.indexOf(": ")) : entry;
    return {
      rule: "deployment-error",
      level: "error",
      item: where,
      from: [where],
      message: `${entry}: deploying it fails, whatever the policies allow; fix the template (a Mapping entry for the region, the parameters the nested template declares).`,
    };
  });
}

/** A service used that is retired, deprecated (failOn deprecated) or sunsets within the window: an error. */
function serviceFindings(answer: DeploymentCheckAnswer): Finding[] {
  // An answer of an API before 1.12.0 has no serviceLifecycle.
  return (answer.serviceLifecycle ?? [])
    .filter((entry) => entry.retiring)
    .map((entry): Finding => ({
      rule: "service-retiring",
      level: "error",
      item: entry.serviceId,
      // Where its items are: a list of Google API names is read from "list", so there the API name is the place.
      from:
        answer.services
          .find((service) => service.id === entry.serviceId)
          ?.items.flatMap((item) => item.from.map((from) => (from === "list" ? item.item : from))) ?? [],
      message: `${entry.serviceId} is ${entry.status}${entry.date ? ` (${entry.status === "retired" ? "since" : "from"} ${entry.date})` : ""}${entry.successor ? `; successor: ${entry.successor}` : ""}${entry.announcementUrl ? ` (${entry.announcementUrl})` : ""}.`,
    }));
}

/** A version that has ended or ends within the window is an error (the gate fails on it); one not known, a warning. */
function versionFindings(answer: DeploymentCheckAnswer): Finding[] {
  return answer.versions.flatMap((version): Finding[] => {
    const at = `${version.attribute} ${version.value} (${version.serviceId})`;
    if (version.retiring)
      return [
        {
          rule: "version-retiring",
          level: "error",
          item: version.value,
          from: [version.from],
          // The phase it is in and those to come, as the vendor names them (a Lambda runtime is deprecated, never extended).
          message: `${at}: ${phaseStory(version) ?? `support ends ${version.ends}`}${version.successor ? `; successor: ${version.successor}` : ""}${version.source ? ` (${version.source.url})` : ""}.`,
        },
      ];
    if (version.status === "unknown")
      return [
        {
          rule: "version-unknown",
          level: "warning",
          item: version.value,
          from: [version.from],
          message: `${at}: a version the catalogue does not know, so nothing is said of its support.`,
        },
      ];
    return [];
  });
}

/**
 * With allowedLocations (allowed present): a resource in a region outside them is an error (the gate
 * fails on it), one whose location the catalogue does not know a warning.
 */
function locationFindings(answer: DeploymentCheckAnswer): Finding[] {
  // An answer of an API before 1.11.0 has no locations.
  const stated = (answer.locations ?? []).flatMap((entry): Finding[] => {
    const at = `${entry.from} (${entry.type}) states ${entry.attribute} ${entry.location}`;
    if (entry.allowed === false)
      return [
        {
          rule: "location-denied",
          level: "error",
          item: entry.region ?? entry.location,
          from: [entry.from],
          message: entry.multiRegion
            ? `${at}: a multi-region of ${entry.providerId} that may keep data in ${entry.multiRegion.slice(0, 8).join(", ")}${entry.multiRegion.length > 8 ? ", …" : ""}, not all within allowedLocations; choose a region or a multi-region inside them.`
            : `${at}: region ${entry.region}${entry.country ? ` (${entry.country})` : ""} of ${entry.providerId}, outside allowedLocations; move it to an allowed region or allow the location.`,
        },
      ];
    if (entry.allowed === null)
      return [
        {
          rule: "location-unknown",
          level: "warning",
          item: entry.location,
          from: [entry.from],
          message: `${at}: a location the catalogue's regions${entry.providerId ? ` of ${entry.providerId}` : ""} do not hold, so it is neither allowed nor denied; check it by hand.`,
        },
      ];
    return [];
  });
  // With allowedLocations (the answer then says so in a locations statement), a resource whose
  // location the input does not say is a warning too (from 1.12.0).
  const judged = answer.statements.some((statement) => statement.kind === "locations");
  const unsaid = judged ? (answer.unknownLocations ?? []) : [];
  return [
    ...stated,
    ...unsaid.map((entry): Finding => ({
      rule: "location-unknown",
      level: "warning",
      item: entry.type,
      from: [entry.from],
      message: `${entry.from} (${entry.type}): its location is not known, so it is neither allowed nor denied: ${entry.why}.`,
    })),
  ];
}

/** Every finding of an answer, errors first, and whether the deployment is allowed. */
export function checkOutcome(answer: DeploymentCheckAnswer, options: { strict?: boolean } = {}): CheckOutcome {
  const places = placesOf(answer);
  const denied = deniedFindings(answer, places);
  const versions = versionFindings(answer);
  const locations = locationFindings(answer);
  const notEvaluated = notEvaluatedFindings(answer, places);
  const findings = [
    ...denied,
    ...missingFindings(answer, new Set(denied.map((finding) => finding.item))),
    ...notEvaluated.filter((finding) => finding.level === "error"),
    ...deploymentErrorFindings(answer),
    ...locations.filter((finding) => finding.level === "error"),
    ...versions.filter((finding) => finding.level === "error"),
    ...serviceFindings(answer),
    ...unplacedFindings(answer),
    ...notEvaluated.filter((finding) => finding.level === "warning"),
    ...versions.filter((finding) => finding.level === "warning"),
    ...locations.filter((finding) => finding.level === "warning"),
  ];
  // A resource outside allowedLocations is not allowed, whatever the verdicts say of its services.
  const allowed =
    approvedVerdicts(answer).every((verdict) => verdict.allowed) &&
    answer.missingServiceIds.length === 0 &&
    !locations.some((finding) => finding.level === "error");
  const retiring =
    answer.versions.filter((version) => version.retiring).length +
    (answer.serviceLifecycle ?? []).filter((entry) => entry.retiring).length;
  // A stack the vendor would refuse fails the check, whatever the verdicts say.
  const refused = (answer.deploymentErrors ?? []).length > 0;
  const failed = !allowed || retiring > 0 || refused || (options.strict === true && findings.length > 0);
  return { allowed, findings, retiring, exitCode: failed ? 1 : 0 };
}

/**
 * An entry of the repository's baseline (docs/ci-check.md, "Baseline"): findings of `rule` accepted,
 * narrowed to an item, a resource and the checked file when given, with the reason, until the end
 * of `expires` (UTC) when given. `cloud-catalogue check --write-baseline` writes one per finding
 * and resource; people write them by hand too.
 */
export interface Suppression {
  readonly rule: FindingRule;
  /** The finding's item: a resource type, an API, an implicit need or a service. */
  readonly item?: string;
  /** One resource it came from: a logical id, resource name or plan address. */
  readonly resource?: string;
  /** The checked file or folder, as given to the check (relative to the repository's root). */
  readonly file?: string;
  readonly reason: string;
  /** The last day it applies (YYYY-MM-DD); after it, the findings count again and the entry is reported. */
  readonly expires?: string;
}

export interface JudgedFinding {
  readonly finding: Finding;
  /** The entries that accept it, each of its resources by one at least; empty: it is new, and counts. */
  readonly acceptedBy: readonly Suppression[];
}

export interface Judgement {
  readonly findings: readonly JudgedFinding[];
  /** Findings no entry accepts: those the gate weighs. */
  readonly counted: readonly Finding[];
  /** Counted findings at or above the severity the gate fails on. */
  readonly failing: readonly Finding[];
  /** Entries past their expiry: applied to nothing, reported. */
  readonly expired: readonly Suppression[];
  /** Entries in force that accept no finding: what they accepted is gone (SARIF's absent). */
  readonly unmatched: readonly Suppression[];
  /** 0: nothing fails; 1: a counted finding at or above the threshold. */
  readonly exitCode: 0 | 1;
}

export interface JudgeOptions {
  /** The severity the gate fails on: error (default) or warning (every finding). */
  readonly failOn?: Finding["level"];
  readonly suppressions?: readonly Suppression[];
  /** The checked file or folder, as entries name it. */
  readonly file?: string;
  /** Today (YYYY-MM-DD, UTC): entries that expired before it are not applied. */
  readonly today: string;
}

const accepts = (entry: Suppression, finding: Finding, file: string | undefined, resource: string | undefined) =>
  entry.rule === finding.rule &&
  (entry.item === undefined || entry.item === finding.item) &&
  (entry.file === undefined || entry.file === file) &&
  (entry.resource === undefined || entry.resource === resource);

/**
 * The findings weighed as the gate does: each accepted when every resource it came from (or the
 * finding itself, when it names none) is accepted by an entry in force; the rest counted, and
 * failing when at or above the threshold.
 */
export function judge(findings: readonly Finding[], options: JudgeOptions): Judgement {
  const entries = options.suppressions ?? [];
  const expired = entries.filter((entry) => entry.expires !== undefined && entry.expires < options.today);
  const inForce = entries.filter((entry) => !expired.includes(entry));
  const used = new Set<Suppression>();
  const judged = findings.map((finding): JudgedFinding => {
    const resources = finding.from.length > 0 ? finding.from : [undefined];
    const byResource = resources.map((resource) =>
      inForce.filter((entry) => accepts(entry, finding, options.file, resource)),
    );
    if (!byResource.every((found) => found.length > 0)) return { finding, acceptedBy: [] };
    const acceptedBy = [...new Set(byResource.flat())];
    for (const entry of acceptedBy) used.add(entry);
    return { finding, acceptedBy };
  });
  const counted = judged.filter((entry) => entry.acceptedBy.length === 0).map((entry) => entry.finding);
  const failing = counted.filter((finding) => options.failOn === "warning" || finding.level === "error");
  return {
    findings: judged,
    counted,
    failing,
    expired,
    unmatched: inForce.filter((entry) => !used.has(entry)),
    exitCode: failing.length > 0 ? 1 : 0,
  };
}

/** A baseline accepting these findings: an entry per finding and resource it came from. */
export function baselineOf(findings: readonly Finding[], file: string, today: string): Suppression[] {
  return findings.flatMap((finding) =>
    (finding.from.length > 0 ? finding.from : [undefined]).map((resource) => ({
      rule: finding.rule,
      item: finding.item,
      ...(resource === undefined ? {} : { resource }),
      file,
      reason: `in the baseline written ${today}`,
    })),
  );
}
