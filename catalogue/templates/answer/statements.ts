/**
 * What the deployment check's answer says (check.ts): each sentence with what it was checked
 * against, never more than was evaluated (decisions.md#approved-means-usable).
 */
import type { Deployment } from "../model/deployment.ts";
import type { TemplateIndex } from "../index.node.ts";
import type { DeploymentCheckAnswer, PolicyVerdict, Statement, Vendor } from "../model/answer.ts";
import { SAM_GENERATED_SOURCE } from "../evaluate/sam.ts";
import {
  planIdentifiersFrom,
  terraformInventoriesChecked,
  uncheckedNote,
  uncheckedVendor,
  uncheckedWhy,
} from "../rules/terraform-types.ts";

const sortedUnique = (values: Iterable<string>) => [...new Set(values)].sort();
const FOR_EACH_SOURCE =
  "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-foreach.html";
const GCP_SUPPORTED_PAGE =
  "https://cloud.google.com/resource-manager/docs/organization-policy/restricting-resources-supported-services";
export const VENDOR_NAME: Record<Vendor, string> = { aws: "AWS", azure: "Azure", gcp: "Google Cloud" };
const DOCUMENT: Record<Vendor, string> = {
  aws: "the allow-list SCPs (POST /v1/policies/alpha-scp?strategy=allow-list; the deny-list's NotAction names the same actions), each action evaluated as scpAllows does",
  azure:
    "the Azure policy set (POST /v1/policies/beta-policy), each type Indexed mode evaluates looked up in allowedResourceTypes",
  gcp: "the gcp.restrictServiceUsage organization policy (POST /v1/policies/gamma-org-policy), each API looked up in allowedValues",
};

export type Unstated = Omit<DeploymentCheckAnswer, "statements">;

/** Which of the services used are approved, allowed without approval (the Flex sample's Application Insights), or lacking. */
function usedServicesStatus(answer: Unstated): string {
  const allowedUnlisted = answer.services.filter((service) => !service.approved && service.status === "allowed");
  if (answer.missingServiceIds.length === 0 && allowedUnlisted.length === 0) return ", all on the approved list";
  return [
    answer.missingServiceIds.length > 0 ? `; the approved list lacks ${answer.missingServiceIds.join(", ")}` : "",
    allowedUnlisted.length > 0
      ? `; ${allowedUnlisted.map((service) => service.id).join(", ")} ${allowedUnlisted.length === 1 ? "is" : "are"} not on the approved list but allowed by what came with it`
      : "",
  ].join("");
}

/** What the answer says, each sentence with what backs it: never more than was evaluated. */
export function statementsOf(
  index: TemplateIndex,
  deployment: Deployment,
  answer: Unstated,
  unchecked: readonly string[],
): Statement[] {
  const statements: Statement[] = [
    ...readStatements(deployment, answer),
    {
      kind: "services",
      text: `It uses ${answer.services.length} catalogue service${answer.services.length === 1 ? "" : "s"}${usedServicesStatus(answer)}.`,
      checked: inventoriesChecked(index, deployment),
    },
  ];
  if (answer.choices.length > 0)
    statements.push({
      kind: "services",
      text: `${answer.choices.length} item${answer.choices.length === 1 ? " is" : "s are"} owned by several catalogue services, none approved: each is counted under one (choices names the others, any of which the policy would allow as well): ${answer.choices
        .slice(0, 3)
        .map((choice) => `${choice.item} → ${choice.chosen}`)
        .join("; ")}${answer.choices.length > 3 ? "; …" : ""}.`,
      checked: inventoriesChecked(index, deployment),
    });
  if (answer.unplaced.length > 0)
    statements.push({
      kind: "unplaced",
      text: `${answer.unplaced.length} item${answer.unplaced.length === 1 ? "" : "s"} not placed in a catalogue service (listed in unplaced with the reason): nothing is said of ${answer.unplaced.length === 1 ? "it" : "them"} beyond that.`,
      checked: inventoriesChecked(index, deployment),
    });
  const types = answer.notEvaluated.filter((entry) => !deployment.notRead.includes(entry));
  if (types.length > 0)
    statements.push({
      kind: "not-evaluated",
      text: `${types.length} Azure type${types.length === 1 ? " is" : "s are"} never evaluated by the Indexed-mode policy (no location and tags): ${types.slice(0, 6).join(", ")}${types.length > 6 ? ", …" : ""}; a mode All copy of the policy would evaluate them.`,
      checked: ["catalogue/reference/azure-resource-types.txt (Azure/bicep-types-az)"],
    });
  statements.push(...notReadStatements(deployment));
  statements.push(...needStatements(answer));
  // A plan's identifiers are those its types' inventories keep, as the providers' files say.
  const from = planIdentifiersFrom(index, deployment, answer.implicitNeeds.length > 0);
  // What a document allows beyond the list is said of the approved list's document, once.
  const said = new Set<string>();
  for (const entry of answer.verdicts) {
    const first = !said.has(entry.providerId);
    said.add(entry.providerId);
    statements.push(...verdictStatements(first ? entry : { ...entry, wider: [] }, unchecked, index, from));
  }
  // A governed provider's types without an identifier, where no verdict of that vendor speaks of them.
  const uncovered = unchecked.filter((type) => {
    const vendor = uncheckedVendor(type);
    return vendor && !answer.verdicts.some((entry) => entry.providerId === vendor);
  });
  if (uncovered.length > 0)
    statements.push({
      kind: "not-evaluated",
      text: `${uncovered.length} Terraform type${uncovered.length === 1 ? " has" : "s have"} no policy identifier in ${uncovered.length === 1 ? "its" : "their"} inventory, so no verdict covers ${uncovered.length === 1 ? "it" : "them"}: ${uncovered
        .slice(0, 6)
        .map((type) => `${type} (${uncheckedWhy(type)})`)
        .join(", ")}${uncovered.length > 6 ? ", …" : ""}.`,
      checked: inventoriesChecked(index, deployment),
    });
  const ungoverned = sortedUnique(
    answer.services.map((service) => service.providerId).filter((id) => !(id in VENDOR_NAME)),
  );
  if (ungoverned.length > 0)
    statements.push({
      kind: "not-governed",
      text: `No policy document of this catalogue governs ${ungoverned.join(", ")}: their services are listed, and no verdict is given for them.`,
      checked: ["the policy generators (AWS, Azure, Google Cloud only)"],
    });
  return statements;
}

/** Each implicit need the deployment triggers, then each tool need, said apart. */
function needStatements(answer: Unstated): Statement[] {
  const statements: Statement[] = [];
  for (const row of answer.implicitNeeds)
    statements.push({
      kind: "implicit-need",
      text: `${row.what} needs ${row.identifiers.length} identifier${row.identifiers.length === 1 ? "" : "s"} of ${row.services.join(", ")}${row.approve.length > 0 ? `; approve ${row.approve.join(", ")}` : ""}.`,
      checked: [`implicit-needs row ${row.id}`, row.source.url],
    });
  for (const row of answer.toolNeeds)
    statements.push({
      kind: "implicit-need",
      text: `A tool need, not the deployment's: ${row.what} needs ${row.identifiers.join(", ")} of ${row.services.join(", ")}${row.approve.length > 0 ? ` (approve ${row.approve.join(", ")} to run it)` : ", allowed by the approved list's document"}; no verdict counts it.`,
      checked: [`implicit-needs row ${row.id}`, row.source.url],
    });
  return statements;
}

/** What was read: the deployment, and the Fn::ForEach loops it could not expand. */
function readStatements(deployment: Deployment, answer: Unstated): Statement[] {
  return [
    {
      kind: "read",
      text: `Read a ${deployment.format} deployment with ${answer.items} distinct item${answer.items === 1 ? "" : "s"}${deployment.sam ? `, the SAM transform expanded (${deployment.expanded.length} expansions)` : ""}${deployment.cdk ? ", synthesised by the AWS CDK" : ""}.`,
      checked: ["the template sent", ...(deployment.sam ? [SAM_GENERATED_SOURCE] : [])],
    },
    ...evaluationStatements(deployment),
    ...(deployment.loops
      ? [
          {
            kind: "read" as const,
            text: `${deployment.loops.length} Fn::ForEach loop${deployment.loops.length === 1 ? "'s collection" : "s' collections"} could not be expanded here: ${deployment.loops.slice(0, 3).join("; ")}${deployment.loops.length > 3 ? "; …" : ""}. The types are what the check needs; how many of each the stack creates is not said.`,
            checked: ["the template sent", FOR_EACH_SOURCE],
          },
        ]
      : []),
  ];
}

const EVALUATED: Record<Deployment["format"], string> = {
  cloudformation: "Parameters, Conditions, Mappings and intrinsic functions evaluated",
  arm: "parameters, variables, conditions, copy loops and nested deployments evaluated",
  "terraform-config": "variables, locals, provider blocks, count, for_each and modules evaluated",
  "terraform-plan": "the plan's provider configurations and variables read",
  "gcp-apis": "",
};

const some = (values: readonly string[], max: number) =>
  `${values.slice(0, max).join("; ")}${values.length > max ? `; … (${values.length} in all)` : ""}`;

/** What the evaluation used and found: the inputs without a value, what is never deployed, what depends on inputs. */
function evaluationStatements(deployment: Deployment): Statement[] {
  const inputs = deployment.inputs ?? [];
  const missing = inputs.filter((input) => input.source === "no value");
  const notDeployed = deployment.notDeployed ?? [];
  const depends = deployment.dependsOnInputs ?? [];
  if (EVALUATED[deployment.format] === "" || (inputs.length === 0 && notDeployed.length === 0 && depends.length === 0))
    return [];
  const parts = [
    `${EVALUATED[deployment.format]}: ${inputs.length} input${inputs.length === 1 ? "" : "s"} read${
      missing.length > 0
        ? `, ${missing.length} without a value (${missing
            .slice(0, 6)
            .map((input) => input.name)
            .join(", ")}${missing.length > 6 ? ", …" : ""}; give them as inputs)`
        : ""
    }.`,
    ...(notDeployed.length > 0
      ? [
          `${notDeployed.length} resource${notDeployed.length === 1 ? " is" : "s are"} not deployed with these inputs and in no verdict: ${some(
            notDeployed.map((entry) => `${entry.from} (${entry.because})`),
            3,
          )}.`,
        ]
      : []),
    ...(depends.length > 0
      ? [
          `${depends.length} resource${depends.length === 1 ? " is" : "s are"} deployed or not depending on inputs without a value, and counted as deployed: ${some(
            depends.map((entry) => `${entry.from} (${entry.because})`),
            3,
          )}.`,
        ]
      : []),
  ];
  return [{ kind: "inputs", text: parts.join(" "), checked: ["the template sent", "the request's inputs and region"] }];
}

function inventoriesChecked(index: TemplateIndex, deployment: Deployment): string[] {
  const kinds = new Set(deployment.items.map((item) => item.kind));
  return [
    ...(kinds.has("cloudformation-type") ? [`inventory aws/cloudformation (${index.cloudFormationSource})`] : []),
    ...(kinds.has("azure-type")
      ? ["the Azure services' resourceTypes and catalogue/reference/azure-resource-types.txt"]
      : []),
    ...(kinds.has("gcp-api") ? ["the Google Cloud services' apiServices"] : []),
    ...(kinds.has("terraform-type") ? ["the services' terraformResources"] : []),
    ...terraformInventoriesChecked(deployment),
  ];
}

function verdictStatements(
  entry: PolicyVerdict,
  unchecked: readonly string[],
  index: TemplateIndex,
  from: Partial<Record<Vendor, string>>,
): Statement[] {
  const vendor = VENDOR_NAME[entry.providerId];
  const list = entry.approvedServiceIds.join(", ");
  const fromTypes = from[entry.providerId];
  const checked = [
    DOCUMENT[entry.providerId],
    ...(entry.providerId === "aws"
      ? [`CloudFormation handler permissions (${index.cloudFormationSource})`]
      : entry.providerId === "azure"
        ? ["catalogue/reference/azure-resource-types.txt (indexed flags)"]
        : []),
    ...(fromTypes ? [index.terraformNeedSource[entry.providerId]] : []),
  ];
  const needed = `${unitOf(entry.providerId)} this deployment was found to need${fromTypes ?? ""}`;
  const skipped = uncheckedNote(entry.providerId, unchecked);
  const statements: Statement[] = [];
  const ungoverned = entry.notGoverned.length;
  const subject = `the ${vendor} document generated from [${list}]`;
  if (entry.refused)
    statements.push({
      kind: "verdict",
      text: `There is no ${vendor} document for [${list}]: ${entry.refused}`,
      checked,
    });
  else if (entry.notEvaluated)
    statements.push({
      kind: "verdict",
      text: `Under ${subject}, no verdict is given: ${entry.notEvaluated.length} ${unreadNoun(entry.notEvaluated)} not read (notEvaluated). Of the ${entry.checked} ${needed} in what was read, ${
        entry.denied.length === 0
          ? "none"
          : `${entry.denied.length} (${entry.denied
              .slice(0, 5)
              .map((denied) => denied.identifier)
              .join(", ")}${entry.denied.length > 5 ? ", …" : ""})`
      } would be denied${skipped}.`,
      checked,
    });
  else if (entry.allowed)
    statements.push({
      kind: "verdict",
      text: `Under ${subject}, all ${entry.checked} ${needed} are allowed${ungoverned > 0 ? ` (${ungoverned} of them because the constraint does not govern them)` : ""}${skipped}. Nothing else was evaluated.`,
      checked,
    });
  else
    statements.push({
      kind: "verdict",
      text: `Under ${subject}, ${entry.denied.length} of ${entry.checked} ${needed} would be denied: ${entry.denied
        .slice(0, 5)
        .map((denied) => denied.identifier)
        .join(
          ", ",
        )}${entry.denied.length > 5 ? ", …" : ""} (denied lists each with what needs it and the services that would allow it)${skipped}.`,
      checked,
    });
  if (ungoverned > 0)
    statements.push({
      kind: "not-governed",
      text: `${ungoverned} ${unitOf(entry.providerId)} this deployment needs ${ungoverned === 1 ? "is" : "are"} not governed by gcp.restrictServiceUsage, so never denied (notGoverned lists each with why): ${entry.notGoverned
        .slice(0, 5)
        .map((item) => item.identifier)
        .join(", ")}${ungoverned > 5 ? ", …" : ""}.`,
      checked: [index.gcpSupportedSource, GCP_SUPPORTED_PAGE],
    });
  for (const wider of entry.wider)
    statements.push({
      kind: "wider",
      text: `The same document also allows ${wider.id}${wider.complete ? " wholly" : " in part"}, which came with ${wider.cameWith.join(", ")}.`,
      checked: [DOCUMENT[entry.providerId], "the dependencies of the approved services (explain mode's implied)"],
    });
  return statements;
}

const unitOf = (vendor: Vendor) => (vendor === "aws" ? "actions" : vendor === "azure" ? "resource types" : "APIs");

/** What a verdict's notEvaluated entries are, in words: linked templates, a .tf module's blocks, or a stack's parts. */
function unreadNoun(entries: readonly string[]): string {
  const linked = entries.every((entry) => entry.includes(": linked template "));
  const one = entries.length === 1;
  if (linked) return `linked template${one ? " was" : "s were"}`;
  const stack = entries.every((entry) => / \(Resources\.|\(Transform\)/.test(entry));
  return stack
    ? `nested stack${one ? ", macro or include was" : "s, macros or includes were"}`
    : `block${one ? " was" : "s were"}`;
}

/** What the reader did not read: an ARM template's linked templates, a .tf module's modules and counts; what the vendor would refuse. */
function notReadStatements(deployment: Deployment): Statement[] {
  const statements: Statement[] = [];
  const failures = deployment.failures ?? [];
  if (failures.length > 0)
    statements.push({
      kind: "read",
      text: `CloudFormation would refuse ${failures.length === 1 ? "this" : `these ${failures.length}`} as written, so the stack fails whatever the policies allow (deploymentErrors): ${failures.slice(0, 3).join("; ")}${failures.length > 3 ? "; …" : ""}.`,
      checked: [
        "the template sent",
        "https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-findinmap.html",
      ],
    });
  const unread = deployment.notRead.length;
  if (unread > 0 && deployment.format === "terraform-config")
    statements.push({
      kind: "not-evaluated",
      text: `${unread} module${unread === 1 ? " was" : "s were"} not read: ${deployment.notRead.slice(0, 3).join("; ")}${unread > 3 ? "; …" : ""}. No verdict ${unread === 1 ? "it concerns" : "they concern"} is given as allowed; send a local module's folder with the root's files, paths relative to the repository's top (files, with root naming the root module's folder; cloud-catalogue check reads modules anywhere under the repository's top, never outside it), a registry module's after terraform init (.terraform/modules), or the plan (terraform show -json).`,
      checked: ["the .tf files sent"],
    });
  else if (unread > 0 && deployment.format === "cloudformation")
    statements.push({
      kind: "not-evaluated",
      text: `${unread} part${unread === 1 ? " was" : "s were"} not read, ${unread === 1 ? "it brings" : "they bring"} in resources the check did not see (a nested stack or application held elsewhere, a macro, an include): ${deployment.notRead.slice(0, 3).join("; ")}${unread > 3 ? "; …" : ""}. No AWS verdict is given as allowed; send the nested templates and snippets with the template (files, root naming the template, paths relative to the repository's top; cloud-catalogue check reads them from the repository), check the template sam build writes, or check the processed template of a macro.`,
      checked: ["the template sent", "the files sent with it"],
    });
  else if (unread > 0)
    statements.push({
      kind: "not-evaluated",
      text: `${unread} linked template${unread === 1 ? " was" : "s were"} not read (the check never fetches a templateLink): ${deployment.notRead.slice(0, 3).join("; ")}${unread > 3 ? "; …" : ""}. Nothing is said of what ${unread === 1 ? "it deploys" : "they deploy"}, and no Azure verdict is given as allowed; check ${unread === 1 ? "it" : "them"} on ${unread === 1 ? "its" : "their"} own.`,
      checked: ["the template sent"],
    });
  return statements;
}
