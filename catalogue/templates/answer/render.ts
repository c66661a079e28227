/**
 * The deployment check's answer as a document (render/doc.ts), for the text host's face
 * (POST /deployments/check: ANSI, plain text, Markdown or the site's HTML) and the site's box: the
 * verdict first, then what to add, the services, the implicit needs with their vendor pages, what
 * no service owns, and every statement with what it was checked against.
 */
import { phaseStory, withDescriptions } from "../rules/versions.ts";
import { approvedVerdicts, checkOutcome } from "./findings.ts";
import { heading, link, paragraph, type Block, type Doc, type Inline } from "../../format/doc.ts";
import type { DeploymentCheckAnswer, PolicyVerdict } from "../model/answer.ts";

const VENDOR_NAMES: Record<PolicyVerdict["providerId"], string> = {
  aws: "AWS (service control policy)",
  azure: "Azure (Azure Policy, Indexed mode)",
  gcp: "Google Cloud (organization policy)",
};

const list = (items: readonly (readonly Inline[])[]): Block => ({ kind: "list", items });

function verdictBlocks(answer: DeploymentCheckAnswer): Block[] {
  return answer.verdicts.map((verdict) => {
    const which = verdict.approvedServiceIds.join(", ") || "nothing";
    const head = `${VENDOR_NAMES[verdict.providerId]}, from ${which}: `;
    const ungoverned =
      verdict.notGoverned.length > 0
        ? ` Not governed by the document: ${verdict.notGoverned.map((entry) => entry.identifier).join(", ")}.`
        : "";
    if (verdict.allowed) return paragraph(head, { strong: `allowed` }, ` (${verdict.checked} checked).${ungoverned}`);
    if (verdict.notEvaluated)
      return paragraph(
        head,
        { strong: "not evaluated" },
        ` (not read: ${verdict.notEvaluated.join("; ")}; ${verdict.denied.length} of ${verdict.checked} denied in what was read).`,
      );
    const denied = verdict.denied.map(
      (entry) =>
        `${entry.identifier} (for ${entry.neededFor.join(", ")}; ${entry.approve.length > 0 ? `approve ${entry.approve.join(" or ")}` : "no catalogue service allows it"})`,
    );
    return paragraph(head, { strong: "denied" }, ` ${verdict.refused ?? denied.join("; ")}.${ungoverned}`);
  });
}

/**
 * What the list lacks, in one sentence (here and in the site's box): the services missingServiceIds
 * names, or, when it names none, whether the approved list's documents allow everything they checked
 * (a denied item no catalogue service allows is said to be so, never "every service"), and that part
 * of the deployment was not read when so.
 */
export function whatToAdd(answer: {
  readonly missingServiceIds: readonly string[];
  readonly verdicts: readonly Pick<PolicyVerdict, "allowed" | "denied" | "notEvaluated">[];
}): string {
  const unread = answer.verdicts.some((verdict) => verdict.notEvaluated);
  const partly = unread
    ? " Part of the deployment was not read (a linked template, a Terraform module or count, a nested stack, macro or include): no verdict allows it."
    : "";
  if (answer.missingServiceIds.length > 0) return `Add to your list: ${answer.missingServiceIds.join(", ")}.${partly}`;
  if (unread) return partly.trim();
  const denied = answer.verdicts.filter((verdict) => !verdict.allowed);
  if (denied.length === 0) return "Your list holds every service this deployment uses.";
  const identifiers = [...new Set(denied.flatMap((verdict) => verdict.denied.map((entry) => entry.identifier)))];
  return identifiers.length > 0
    ? `No catalogue service would allow what stays denied: ${identifiers.slice(0, 5).join(", ")}${identifiers.length > 5 ? ", …" : ""}.`
    : "No document could be made from your list (see the verdicts).";
}

/** Where each resource goes, as the evaluation found it: stated, from its provider block or the request, global, or not known. */
function placeBlocks(answer: DeploymentCheckAnswer): Block[] {
  // An answer of an API before 1.12.0 has no unknownLocations.
  const unknown = answer.unknownLocations ?? [];
  if (answer.locations.length === 0 && unknown.length === 0) return [];
  const verdict = (allowed: boolean | null | undefined) =>
    allowed === undefined
      ? ""
      : allowed === null
        ? " — not known to the catalogue"
        : allowed
          ? " — allowed"
          : " — outside the allowed locations";
  return [
    heading(2, "Locations"),
    list([
      ...answer.locations.map((place): Inline[] => [
        place.global
          ? `${place.from}: global — ${place.global}${verdict(place.allowed)}`
          : `${place.from}: ${place.location}${place.region && place.region !== place.location ? ` (${place.region})` : ""}${place.country ? `, ${place.country}` : ""}${place.multiRegion ? ` (a multi-region: ${place.multiRegion.join(", ")})` : ""}${place.via ? `, from ${place.via}` : ""}${verdict(place.allowed)}`,
      ]),
      ...unknown.map((place): Inline[] => [`${place.from}: not known — ${place.why}`]),
    ]),
  ];
}

/** The inputs read, what is never deployed and what depends on inputs. */
function evaluationBlocks(answer: DeploymentCheckAnswer): Block[] {
  const inputs = answer.inputs ?? [];
  const notDeployed = answer.notDeployed ?? [];
  const depends = answer.dependsOnInputs ?? [];
  const blocks: Block[] = [];
  if (inputs.length > 0)
    blocks.push(
      heading(2, "Inputs"),
      list(inputs.map((input): Inline[] => [`${input.name} = ${input.value ?? "(no value)"} — ${input.source}`])),
    );
  if (notDeployed.length > 0 || depends.length > 0)
    blocks.push(
      heading(2, "Not deployed, or depending on inputs"),
      list([
        ...notDeployed.map((entry): Inline[] => [`${entry.from}: not deployed — ${entry.because}`]),
        ...depends.map((entry): Inline[] => [`${entry.from}: counted as deployed — ${entry.because}`]),
      ]),
    );
  return blocks;
}

/** The outcome the CLI's exit code reads (findings.ts), said first: the vendors' verdicts are one part of it. */
function outcomeBlock(answer: DeploymentCheckAnswer): Block {
  const { allowed, retiring } = checkOutcome(answer);
  const verdicts = approvedVerdicts(answer);
  // A verdict over a part not read (a module, a linked template) is no denial: it cannot allow.
  const unread = verdicts.some((verdict) => verdict.notEvaluated);
  const denied = verdicts.filter((verdict) => !verdict.allowed && !verdict.notEvaluated).length;
  const outside = answer.locations.filter((place) => place.allowed === false).length;
  const reasons = [
    ...(unread ? ["part of the deployment was not read, so no verdict allows it (the verdicts below say what)"] : []),
    ...(denied > 0 ? [`${denied} vendor ${denied === 1 ? "document denies" : "documents deny"} it`] : []),
    ...(answer.missingServiceIds.length > 0 ? [`the list lacks ${answer.missingServiceIds.join(", ")}`] : []),
    ...(outside > 0
      ? [`${outside} ${outside === 1 ? "resource goes" : "resources go"} outside the allowed locations`]
      : []),
  ];
  const errors = answer.deploymentErrors ?? [];
  const refused =
    errors.length > 0
      ? ` The vendor would refuse it as written, so deploying it fails: ${errors.slice(0, 3).join("; ")}${errors.length > 3 ? "; …" : ""}.`
      : "";
  const versions =
    retiring > 0
      ? ` ${retiring} ${retiring === 1 ? "version or service is" : "versions or services are"} retiring (see Versions).`
      : "";
  return allowed
    ? paragraph(
        { strong: "Allowed" },
        `: the list allows everything this deployment was found to use.${versions}${refused}`,
      )
    : paragraph({ strong: "Not allowed" }, `: ${reasons.join("; ") || "see the verdicts below"}.${versions}${refused}`);
}

/** The check's answer as a page. */
export function deploymentCheckDoc(answer: DeploymentCheckAnswer): Doc {
  const added = answer.suggestedServiceIds.filter((id) => answer.missingServiceIds.includes(id));
  const blocks: Block[] = [
    heading(1, "Deployment check"),
    paragraph(
      `Read as ${answer.format}${answer.tools.length > 0 ? ` (${answer.tools.join(", ")})` : ""}: ${answer.items} distinct types or APIs.`,
    ),
    heading(2, "Verdict"),
    outcomeBlock(answer),
    ...verdictBlocks(answer),
    heading(2, "What to add"),
    paragraph(
      added.length > 0
        ? `Add ${added.join(", ")}: the list becomes ${answer.suggestedServiceIds.join(", ")}.`
        : whatToAdd(answer),
    ),
    heading(2, "Services used"),
    {
      kind: "table",
      head: ["Service", "Approved", "Because of"],
      rows: answer.services.map((service) => [
        service.id,
        service.approved ? "yes" : service.allowedThrough ? `allowed with ${service.allowedThrough.join(", ")}` : "no",
        service.items.map((item) => item.item).join(", "),
      ]),
    },
  ];
  if (answer.implicitNeeds.length > 0)
    blocks.push(
      heading(2, "Implicit needs"),
      list(answer.implicitNeeds.map((need) => [`${need.what} `, link("(vendor page)", need.source.url)])),
    );
  if (answer.toolNeeds.length > 0)
    blocks.push(
      heading(2, "Tool needs (not the deployment's)"),
      list(answer.toolNeeds.map((need) => [`${need.what} `, link("(vendor page)", need.source.url)])),
    );
  if (answer.unplaced.length > 0)
    blocks.push(heading(2, "Not placed"), list(answer.unplaced.map((item) => [`${item.item}: ${item.reason}`])));
  blocks.push(...placeBlocks(answer), ...evaluationBlocks(answer));
  if (answer.versions.length > 0)
    blocks.push(
      heading(2, "Versions"),
      list(
        withDescriptions(answer.versions).map((version): Inline[] => [
          `${version.from}: ${version.attribute} ${version.value} — ${
            version.status === "unknown"
              ? "not known to the catalogue"
              : `${phaseStory(version) ?? version.status}${version.retiring ? " (retiring)" : ""}${version.successor ? `, successor ${version.successor}` : ""} `
          }`,
          ...(version.source ? [link("(vendor page)", version.source.url)] : []),
        ]),
      ),
    );
  blocks.push(
    heading(2, "Statements"),
    list(answer.statements.map((statement) => [`${statement.text} Checked: ${statement.checked.join("; ")}.`])),
  );
  return { title: "Deployment check", blocks };
}
