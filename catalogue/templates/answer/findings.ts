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
 * One finding per resource instance (issue 122): a denied type deployed by seven queues is seven
 * findings, each naming its queue, so a baseline, a suppression or a pull request's new findings
 * speak of each resource on its own, never of the first few. What comes from no resource (an
 * implicit need, a module not read) is one finding of its own.
 *
 * Pure: it reads only the answer, so an answer from the API (`--api`) gives the same findings.
 * judge.ts then weighs them as the gate does: against the suppressions (baseline, inline comments,
 * configuration) and the severity the gate fails on.
 */
import { phaseStory, withDescriptions } from "../rules/versions.ts";
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
  /** The resource instance it is about: a logical id, resource name or plan address (none: the deployment's). */
  readonly resource?: string;
  /** The resource, what is wrong and what would allow it, in one sentence or two. */
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

/**
 * The resources a finding of `item` is about, one finding each: its places (a list of Google API
 * names is read from "list", so there the API itself is the place), or none when it has no place.
 */
function resourcesOf(item: string, from: readonly string[]): (string | undefined)[] {
  const resources = [...new Set(from.map((place) => (place === "list" ? item : place)))];
  return resources.length > 0 ? resources : [undefined];
}

/** "aws_sqs_queue.orders (aws_sqs_queue)": a resource and its type, or the item alone when there is no resource. */
const subject = (item: string, resource: string | undefined) =>
  resource === undefined || resource === item ? item : `${resource} (${item})`;

/** Where each item of the answer came from (its services' items and its unplaced items). */
function placesOf(answer: DeploymentCheckAnswer): Map<string, readonly string[]> {
  const places = new Map<string, string[]>();
  const add = (item: string, from: readonly string[]) =>
    places.set(item, [...new Set([...(places.get(item) ?? []), ...from])]);
  for (const service of answer.services) for (const entry of service.items) add(entry.item, entry.from);
  for (const entry of answer.unplaced) add(entry.item, entry.from);
  return places;
}

/** One finding per resource of each item a verdict denies something for: the identifiers, and the services that would allow them. */
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
      const units = plural(identifiers.length, vendor.unit);
      const why = verdict.refused
        ? `needs ${units}, and no ${vendor.name} ${vendor.document} can be made from [${list}] (${verdict.refused.replace(/\.$/, "")})`
        : `needs ${units} that the ${vendor.name} ${vendor.document} generated from [${list}] denies`;
      const allow =
        approve.size > 0
          ? `approve ${[...approve].sort().join(" or ")} to allow ${identifiers.length === 1 ? "it" : "them"}`
          : `no catalogue service allows ${identifiers.length === 1 ? "it" : "them"}`;
      // An implicit need is the deployment's, not a resource's: one finding.
      for (const resource of row ? [undefined] : resourcesOf(need, places.get(need) ?? []))
        findings.push({
          rule: DENIED_RULE[verdict.providerId],
          level: "error",
          item: need,
          ...(resource === undefined ? {} : { resource }),
          message: `${row ? `${row.what} (implicit need ${row.id})` : subject(need, resource)} ${why}: ${some(identifiers, 5)}; ${allow}.`,
        });
    }
  }
  return findings;
}

/** Services the list lacks that no denial already names (no verdict speaks for them). */
function missingFindings(answer: DeploymentCheckAnswer, denied: ReadonlySet<string>): Finding[] {
  return answer.services
    .filter((service) => service.status === "missing" && !service.items.some((entry) => denied.has(entry.item)))
    .flatMap((service) => {
      const governed = service.providerId in VENDOR;
      const why = governed
        ? `no ${VENDOR[service.providerId as PolicyVerdict["providerId"]].name} identifier of it was checked`
        : `no policy document of the catalogue governs ${service.providerId}`;
      return service.items.flatMap((entry) =>
        resourcesOf(entry.item, entry.from).map((resource): Finding => ({
          rule: "service-missing",
          level: "error",
          item: service.id,
          ...(resource === undefined ? {} : { resource }),
          message: `${subject(entry.item, resource)} uses ${service.id}, which is not on the approved list, and no verdict allows it (${why}); add ${service.id} to the list to allow it.`,
        })),
      );
    });
}

function unplacedFindings(answer: DeploymentCheckAnswer): Finding[] {
  return answer.unplaced.flatMap((entry) =>
    resourcesOf(entry.item, entry.from).map((resource): Finding => ({
      rule: "unplaced",
      level: "warning",
      item: entry.item,
      ...(resource === undefined ? {} : { resource }),
      message: `${subject(entry.item, resource)}: ${entry.item} is in no catalogue service: ${entry.reason}${entry.arrivesWith?.length ? ` Approving ${some(entry.arrivesWith, 3)} allows it.` : ""}`,
    })),
  );
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
  const findings: Finding[] = answer.notEvaluated.flatMap((type): Finding[] => {
    // What the reader did not read ("<where>: <what>", a linked template or a .tf module): no type.
    if (type.includes(": ")) {
      const vendors = unreadBy.get(type);
      return [
        {
          rule: vendors ? "not-read" : "not-evaluated",
          level: vendors ? "error" : "warning",
          item: type.slice(0, type.indexOf(": ")),
          message: vendors
            ? `${type}: not read by the check, so the ${vendors.join(" and ")} verdict it concerns is not given as allowed; check it on its own (a plan reads it), or accept it in the baseline with the reason.`
            : `${type}: not read by the check, so no verdict it concerns is given as allowed; check it on its own.`,
        },
      ];
    }
    const item = [...places.keys()].find((name) => name.toLowerCase() === type.toLowerCase()) ?? type;
    return resourcesOf(type, places.get(item) ?? []).map((resource) => ({
      rule: "not-evaluated",
      level: "warning",
      item: type,
      ...(resource === undefined ? {} : { resource }),
      message: `${subject(type, resource)}: ${type} is never evaluated by the Azure policy in Indexed mode (it has no location and tags): the policy neither allows nor denies it; a copy of the policy in mode All would evaluate it.`,
    }));
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
        for (const resource of resourcesOf(item, from))
          findings.push({
            rule: "not-evaluated",
            level: "warning",
            item,
            ...(resource === undefined ? {} : { resource }),
            message: `${subject(item, resource)}: ${item} is evaluated by no policy verdict, which neither allows nor denies it: ${clause}`,
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
      resource: where,
      message: `${entry}: deploying it fails, whatever the policies allow; fix the template (a Mapping entry for the region, the parameters the nested template declares).`,
    };
  });
}

/** A service used that is retired, deprecated (failOn deprecated) or sunsets within the window: an error. */
function serviceFindings(answer: DeploymentCheckAnswer): Finding[] {
  // An answer of an API before 1.12.0 has no serviceLifecycle.
  return (answer.serviceLifecycle ?? [])
    .filter((entry) => entry.retiring)
    .flatMap((entry): Finding[] => {
      const items = answer.services.find((service) => service.id === entry.serviceId)?.items ?? [];
      const resources = items.flatMap((item) =>
        resourcesOf(item.item, item.from).filter((found) => found !== undefined),
      );
      return (resources.length > 0 ? resources : [undefined]).map((resource) => ({
        rule: "service-retiring",
        level: "error",
        item: entry.serviceId,
        ...(resource === undefined ? {} : { resource }),
        message: `${resource === undefined ? "" : `${resource} uses ${entry.serviceId}: `}${entry.serviceId} is ${entry.status}${entry.date ? ` (${entry.status === "retired" ? "since" : "from"} ${entry.date})` : ""}${entry.successor ? `; successor: ${entry.successor}` : ""}${entry.announcementUrl ? ` (${entry.announcementUrl})` : ""}.`,
      }));
    });
}

/** A version that has ended or ends within the window is an error (the gate fails on it); one not known, a warning. */
function versionFindings(answer: DeploymentCheckAnswer): Finding[] {
  // An answer describes each version on its first entries only: the others take it from them.
  return withDescriptions(answer.versions).flatMap((version): Finding[] => {
    const at = `${version.from}: ${version.attribute} ${version.value} (${version.serviceId})`;
    if (version.retiring)
      return [
        {
          rule: "version-retiring",
          level: "error",
          item: version.value,
          resource: version.from,
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
          resource: version.from,
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
          resource: entry.from,
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
          resource: entry.from,
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
      resource: entry.from,
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
