/**
 * Reading what a user will deploy, recognised by its shape: a CloudFormation or SAM template (JSON or
 * YAML, CloudFormation's short-form tags read as custom tags), an ARM template (what `bicep build`
 * writes too; nested resources and child types), a Terraform plan (`terraform show -json`), Terraform
 * configuration (`.tf` files' HCL, ./terraform-config.ts), or a plain list of Google API service
 * names (what `gcloud services enable` takes). The answer is the
 * items it creates or calls, each with where in the input it came from; nothing is dropped: an item
 * of no known kind is still an item, and the check (check.ts) lists what it cannot place.
 */
import { isGoogleApi, parseTemplateText, refuseCostly } from "./parse.ts";
import { expandServerless, SAM_TRANSFORM } from "./sam.ts";
import { TemplateError } from "./errors.ts";
import { Items } from "./items.ts";
import { terraformProviderOf } from "./stated-locations.ts";
import { looksLikeTerraform, readTerraformConfig } from "./terraform-config.ts";
import { IMPLICIT_NEEDS } from "../dependencies/implicit-needs.ts";
import type { Deployment, DeploymentFormat } from "./deployment.ts";

export type { Deployment, DeploymentFormat, DeploymentItem } from "./deployment.ts";

export { MAX_TEMPLATE_ITEMS } from "./items.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What stands in a request's `template` once a reader read it elsewhere (the handler gets the deployment). */
export const READ_TEMPLATE = "(read before the check)";

/** A request's `.tf` files (name → text): one Terraform module's configuration. */
export class TerraformFiles {
  readonly files: Readonly<Record<string, string>>;
  constructor(files: Readonly<Record<string, string>>) {
    this.files = files;
  }
}

/** What a deployment is evaluated with beside its text: its inputs' values, and where it is deployed. */
export interface DeploymentInputs {
  /** Values of the deployment's inputs by name: Terraform variables, CloudFormation or ARM parameters. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** Where it is deployed when it does not say: a CloudFormation stack's region, an ARM resource group's location, a Terraform provider's region. */
  readonly region?: string;
}

/**
 * Reads a deployment from the request's `template` (its text, or the JSON value already parsed) or
 * its `.tf` files; a text whose first block is a Terraform block is read as one `.tf` file.
 */
export function readDeployment(template: unknown, given: DeploymentInputs = {}): Deployment {
  const terraform = { ...(given.inputs ? { variables: given.inputs } : {}), ...(given.region ? { region: given.region } : {}) };
  if (template instanceof TerraformFiles) return readTerraformConfig(template.files, terraform);
  if (typeof template === "string" && looksLikeTerraform(template))
    return readTerraformConfig({ "main.tf": template }, terraform);
  const value = typeof template === "string" ? parseTemplateText(template) : template;
  if (typeof template !== "string") refuseCostly(template);
  if (Array.isArray(value)) return apiList(value);
  if (!isObject(value))
    throw new TemplateError(
      `Not a template: ${typeof template === "string" ? "the text parses to a single value" : "the value is not an object"}. Send a CloudFormation or SAM template, an ARM template, a Terraform plan (terraform show -json) or configuration (.tf), or a list of Google API names.`,
    );
  if (isObject(value.Resources) || "AWSTemplateFormatVersion" in value) return cloudFormation(value);
  const armResources = Array.isArray(value.resources) || isObject(value.resources);
  if (armResources && (typeof value.$schema === "string" || "contentVersion" in value)) return arm(value);
  if ("format_version" in value && ("resource_changes" in value || "planned_values" in value))
    return terraformPlan(value);
  const keys = Object.keys(value).slice(0, 8).join(", ");
  throw new TemplateError(
    `Not a template this check reads: an object with keys ${keys || "(none)"}. It reads a CloudFormation or SAM template (Resources), an ARM template ($schema, contentVersion, resources), a Terraform plan (format_version with resource_changes or planned_values, from terraform show -json), Terraform configuration (.tf text, or files) or a list of Google API names.`,
  );
}

const plain = (format: DeploymentFormat, items: Items): Deployment => ({
  format,
  items: items.list(),
  parameterTypes: [],
  cdk: false,
  sam: false,
  expanded: [],
  notRead: [],
  ...items.versionedField(),
});

function apiList(values: unknown[]): Deployment {
  const items = new Items();
  const bad = values.filter((value) => !isGoogleApi(value));
  if (bad.length > 0)
    throw new TemplateError(
      `A list is read as Google API names (like run.googleapis.com); these are not: ${bad
        .slice(0, 5)
        .map((value) => JSON.stringify(value).slice(0, 60))
        .join(", ")}.`,
    );
  for (const api of values as string[]) items.add("gcp-api", api, "list");
  return plain("gcp-apis", items);
}

function transforms(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === "string");
  return [];
}

function cloudFormation(template: Record<string, unknown>): Deployment {
  const resources = template.Resources;
  if (!isObject(resources)) throw new TemplateError("A CloudFormation template needs a Resources object.");
  const sam = transforms(template.Transform).includes(SAM_TRANSFORM);
  const parameters = isObject(template.Parameters) ? template.Parameters : {};
  const parameterTypes = [
    ...new Set(
      Object.values(parameters)
        .map((parameter) => (isObject(parameter) ? parameter.Type : undefined))
        .filter((type): type is string => typeof type === "string"),
    ),
  ].sort();
  const cdk =
    "BootstrapVersion" in parameters ||
    Object.values(resources).some((resource) => isObject(resource) && resource.Type === "AWS::CDK::Metadata");
  const items = new Items();
  const functionGlobals =
    isObject(template.Globals) && isObject(template.Globals.Function) ? template.Globals.Function : {};
  const expanded = new Set<string>();
  const loops: string[] = [];
  const shows = new Set<string>();
  const read = (logicalId: string, resource: unknown, at: string) => {
    if (!isObject(resource) || typeof resource.Type !== "string")
      throw new TemplateError(`${at.slice(0, 120)} has no Type: every resource needs one.`);
    const type = resource.Type.startsWith("Custom::") ? "AWS::CloudFormation::CustomResource" : resource.Type;
    // The CDK's metadata resource is read by the CDK, not deployed as a service's resource.
    if (type === "AWS::CDK::Metadata") return;
    // SAM's Globals give every function what it does not set itself (its Runtime, most often).
    const globals = sam && type === "AWS::Serverless::Function" ? functionGlobals : {};
    items.versions(
      "cloudformation-type",
      type,
      { ...globals, ...(isObject(resource.Properties) ? resource.Properties : {}) },
      logicalId,
    );
    if (sam && type.startsWith("AWS::Serverless::")) {
      for (const generated of expandServerless(type, resource)) {
        items.add("cloudformation-type", generated, `${logicalId} (${type})`);
        expanded.add(`${type} → ${generated}`);
      }
      return;
    }
    items.add("cloudformation-type", type, logicalId);
    // A stack's resources go to the stack's region, which the template does not state.
    items.locate(type, "aws", undefined, logicalId);
    for (const id of propertyNeeds(type, resource.Properties)) shows.add(id);
  };
  for (const [logicalId, resource] of Object.entries(resources))
    if (logicalId.startsWith(FOR_EACH)) forEach(logicalId, resource, `Resources.${logicalId}`, read, loops);
    else read(logicalId, resource, `Resources.${logicalId}`);
  return {
    format: "cloudformation",
    items: items.list(),
    parameterTypes,
    cdk,
    sam,
    expanded: [...expanded].sort(),
    notRead: [],
    ...(loops.length > 0 ? { loops } : {}),
    ...(shows.size > 0 ? { shows: [...shows].sort() } : {}),
    ...items.versionedField(),
  };
}

/** The implicit-needs rows a resource's Properties trigger (a runtime need the template shows). */
function propertyNeeds(type: string, properties: unknown): string[] {
  return IMPLICIT_NEEDS.flatMap(({ id, trigger }) =>
    trigger.kind === "property" &&
    trigger.type === type &&
    valuesAt(properties, trigger.path.split(".")).some((value) => String(value).toLowerCase() === trigger.equals)
      ? [id]
      : [],
  );
}

/** The values at a dotted path (`*`: every item of a list). */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  const [head, ...rest] = path as [string, ...string[]];
  if (head === "*") return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
  return isObject(value) && Object.hasOwn(value, head) ? valuesAt(value[head], rest) : [];
}

const FOR_EACH = "Fn::ForEach::";

/**
 * Fn::ForEach (the AWS::LanguageExtensions transform): `Fn::ForEach::Name: [Identifier, Collection,
 * {OutputKey: resource}]`, an output key being a resource or a nested loop. Each output resource is
 * read once per value of a literal collection, its logical id and type with `${Identifier}` (or
 * `&{Identifier}`) replaced; a collection given by Ref, a parameter or another function cannot be
 * expanded here, so each output resource's type is read once and the loop is named in `loops`
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-foreach.html).
 */
function forEach(
  key: string,
  loop: unknown,
  at: string,
  read: (logicalId: string, resource: unknown, at: string) => void,
  loops: string[],
  outer: (text: string) => string = (text) => text,
): void {
  if (!Array.isArray(loop) || loop.length !== 3 || typeof loop[0] !== "string" || !isObject(loop[2]))
    throw new TemplateError(
      `${at.slice(0, 120)} is not a loop CloudFormation reads: Fn::ForEach takes [identifier, collection, {output key: resource}].`,
    );
  const [identifier, collection, outputs] = loop as [string, unknown, Record<string, unknown>];
  const values =
    Array.isArray(collection) && collection.every((value) => typeof value === "string") ? collection : undefined;
  const note = `${key.slice(FOR_EACH.length)} (its collection is given by ${describe(collection)}: each resource's type read once)`;
  if (!values && !loops.includes(note)) loops.push(note);
  // Each value binds the identifier, inside the loops that enclose this one (outer) as well.
  const bind = (value: string | undefined) => (text: string) =>
    value === undefined
      ? outer(text)
      : outer(text)
          .replaceAll(`\${${identifier}}`, value)
          .replaceAll(`&{${identifier}}`, value.replace(/[^A-Za-z0-9]/g, ""));
  for (const [outputKey, output] of Object.entries(outputs))
    for (const value of (values ?? [undefined]) as (string | undefined)[]) {
      const substitute = bind(value);
      if (outputKey.startsWith(FOR_EACH)) {
        forEach(outputKey, output, `${at}.${outputKey}`, read, loops, substitute);
        continue;
      }
      const resource =
        isObject(output) && typeof output.Type === "string" ? { ...output, Type: substitute(output.Type) } : output;
      read(substitute(outputKey), resource, `${at}.${outputKey}`);
    }
}

const describe = (value: unknown): string =>
  isObject(value)
    ? (Object.keys(value)[0] ?? "an object")
    : Array.isArray(value)
      ? "a list of non-strings"
      : typeof value;

/** ARM resources: an array, or (languageVersion 2.0, Bicep with symbolic names) an object keyed by name. */
const armResources = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];

/** The linked template's URI as written (an expression is kept as text), for the answer. */
const linkOf = (link: unknown): string => {
  const uri = isObject(link) ? (link.uri ?? link.id ?? link.relativePath) : undefined;
  return typeof uri === "string" ? uri.slice(0, 200) : "(no uri)";
};

/**
 * ARM: every resource, its nested resources with their full type (parent type / child name), and
 * each nested deployment's own template (Microsoft.Resources/deployments, mode inline: Bicep's modules).
 * A nested deployment's linked template (properties.templateLink) lives elsewhere and is never
 * fetched: it is listed in notRead, so no verdict speaks for it.
 */
function arm(template: Record<string, unknown>): Deployment {
  const items = new Items();
  const notRead: string[] = [];
  const walk = (resources: unknown[], parentType: string | undefined, path: string) => {
    resources.forEach((resource, index) => {
      const at = `${path}[${index}]`;
      if (!isObject(resource) || typeof resource.type !== "string")
        throw new TemplateError(`${at} has no type: every ARM resource needs one.`);
      // `existing` resources (Bicep's `existing` keyword) are read, not deployed: the policy never sees them.
      if (resource.existing === true) return;
      const type =
        parentType && !resource.type.includes("/") ? `${parentType}/${resource.type}` : resource.type.split("@")[0]!;
      const name = typeof resource.name === "string" ? resource.name.slice(0, 80) : at;
      items.add("azure-type", type, name);
      items.versions("azure-type", type, resource, name);
      items.locate(type, "azure", resource, name);
      walk(armResources(resource.resources), type, `${at}.resources`);
      const inner = isObject(resource.properties) ? resource.properties.template : undefined;
      if (isObject(inner)) walk(armResources(inner.resources), undefined, `${at}.properties.template.resources`);
      const link = isObject(resource.properties) ? resource.properties.templateLink : undefined;
      if (link !== undefined && !isObject(inner))
        notRead.push(`${name}: linked template ${linkOf(link)} (${at}.properties.templateLink)`);
    });
  };
  walk(armResources(template.resources), undefined, "resources");
  return { ...plain("arm", items), notRead };
}

interface PlanResource {
  address?: unknown;
  type?: unknown;
  mode?: unknown;
  provider_name?: unknown;
  values?: unknown;
  change?: { actions?: unknown; after?: unknown };
}

/** What an azapi resource creates: its ARM type, without the API version. */
function azapiType(values: unknown): string | undefined {
  return isObject(values) && typeof values.type === "string" ? values.type.split("@")[0] : undefined;
}

/** Terraform plan: each managed resource changed (resource_changes) or planned (planned_values). */
function terraformPlan(plan: Record<string, unknown>): Deployment {
  const items = new Items();
  const add = (resource: PlanResource, values: unknown) => {
    if (resource.mode !== undefined && resource.mode !== "managed") return;
    if (typeof resource.type !== "string") throw new TemplateError("A Terraform plan resource has no type.");
    const address = typeof resource.address === "string" ? resource.address.slice(0, 120) : resource.type;
    const armType = resource.type.startsWith("azapi_") ? azapiType(values) : undefined;
    if (armType) items.add("azure-type", armType, address);
    else items.add("terraform-type", resource.type, address);
    items.versions("terraform-type", resource.type, values, address);
    items.locate(resource.type, terraformProviderOf(resource.type), values, address);
  };
  if (Array.isArray(plan.resource_changes)) {
    for (const change of plan.resource_changes as PlanResource[]) {
      const actions = Array.isArray(change.change?.actions) ? change.change.actions : [];
      // A resource the plan deletes or leaves alone asks nothing of the policy.
      if (actions.length > 0 && actions.every((action) => action === "delete" || action === "no-op")) continue;
      add(change, change.change?.after);
    }
    return plain("terraform-plan", items);
  }
  const walk = (module: unknown) => {
    if (!isObject(module)) return;
    for (const resource of (Array.isArray(module.resources) ? module.resources : []) as PlanResource[])
      add(resource, resource.values);
    for (const child of Array.isArray(module.child_modules) ? module.child_modules : []) walk(child);
  };
  walk(isObject(plan.planned_values) ? plan.planned_values.root_module : undefined);
  return plain("terraform-plan", items);
}
