/**
 * Reading what a user will deploy, recognised by its shape: a CloudFormation or SAM template (JSON or
 * YAML, CloudFormation's short-form tags read as custom tags), an ARM template (what `bicep build`
 * writes too; nested resources and child types), a Terraform plan (`terraform show -json`), Terraform
 * configuration (`.tf` files' HCL, ./evaluate/terraform-config.ts), or a plain list of Google API service
 * names (what `gcloud services enable` takes). The answer is the
 * items it creates or calls, each with where in the input it came from; nothing is dropped: an item
 * of no known kind is still an item, and the check (check.ts) lists what it cannot place.
 */
import { isGoogleApi, parseTemplateText, refuseCostly } from "./readers/parse.ts";
import { readArm } from "./evaluate/arm.ts";
import { readCloudFormation } from "./evaluate/cloudformation.ts";
import { TemplateError } from "./model/errors.ts";
import { resolvedDeployment } from "./resolved.ts";
import { looksLikeTerraform, readTerraformConfig } from "./evaluate/terraform-config.ts";
import { readTerraformPlan } from "./evaluate/terraform-plan.ts";
import type { Deployment, ResourceInstance } from "./model/deployment.ts";

export type { Deployment, DeploymentFormat, DeploymentItem } from "./model/deployment.ts";

export { MAX_TEMPLATE_ITEMS } from "./resolved.ts";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What stands in a request's `template` once a reader read it elsewhere (the handler gets the deployment). */
export const READ_TEMPLATE = "(read before the check)";

/**
 * A request's files (path → text, relative to the repository's top) and its root: the root module's
 * folder (Terraform; the top when absent), or the template to check (a CloudFormation or SAM
 * template, whose nested stacks, applications and AWS::Include snippets are read from the files).
 */
export class TerraformFiles {
  readonly files: Readonly<Record<string, string>>;
  readonly root: string | undefined;
  constructor(files: Readonly<Record<string, string>>, root?: string) {
    this.files = files;
    this.root = root === undefined ? undefined : root.replace(/^\.\/+/, "").replace(/\/+$/, "");
  }
}

/** A repository's files with the root the request names: a template file, or a Terraform root module's folder. */
function readRepository(repository: TerraformFiles, given: DeploymentInputs): Deployment {
  const { files, root } = repository;
  const terraform = {
    ...(given.inputs ? { variables: given.inputs } : {}),
    ...(given.region ? { region: given.region } : {}),
  };
  if (root === undefined || root === "." || !Object.hasOwn(files, root))
    return readTerraformConfig(files, { ...terraform, ...(root && root !== "." ? { root } : {}) });
  if (/\.tf$|\.tfvars(\.json)?$|modules\.json$/.test(root))
    throw new TemplateError(
      `root names ${root}, a file of a Terraform module: name the root module's folder (${root.includes("/") ? root.slice(0, root.lastIndexOf("/")) : "."}).`,
    );
  const value = parseTemplateText(files[root]!);
  if (isObject(value) && (isObject(value.Resources) || "AWSTemplateFormatVersion" in value))
    return readCloudFormation(value, given.inputs, given.region, { files, path: root });
  // A template of another format reads alone, as its text would (an ARM template's links are never fetched).
  return readDeploymentOf(files[root]!, given);
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
  const deployment = readDeploymentOf(template, given);
  // The check refuses a region that fits no region of the format's vendor (rules/region.ts).
  return given.region === undefined ? deployment : { ...deployment, requestRegion: given.region };
}

function readDeploymentOf(template: unknown, given: DeploymentInputs): Deployment {
  const terraform = {
    ...(given.inputs ? { variables: given.inputs } : {}),
    ...(given.region ? { region: given.region } : {}),
  };
  if (template instanceof TerraformFiles) return readRepository(template, given);
  if (typeof template === "string" && looksLikeTerraform(template)) {
    try {
      return readTerraformConfig({ "main.tf": template }, terraform);
    } catch (error) {
      // One text sent is "the template" to its sender, as the other formats' errors say.
      if (
        error instanceof TemplateError &&
        error.constructor === TemplateError &&
        error.message.startsWith("main.tf, line ")
      )
        throw new TemplateError(`the template${error.message.slice("main.tf".length)}`);
      throw error;
    }
  }
  const value = typeof template === "string" ? parseTemplateText(template) : template;
  if (typeof template !== "string") refuseCostly(template);
  if (Array.isArray(value)) return apiList(value);
  if (!isObject(value))
    throw new TemplateError(
      `Not a template: ${typeof template === "string" ? "the text parses to a single value" : "the value is not an object"}. Send a CloudFormation or SAM template, an ARM template, a Terraform plan (terraform show -json) or configuration (.tf), or a list of Google API names.`,
    );
  if (isObject(value.Resources) || "AWSTemplateFormatVersion" in value)
    return readCloudFormation(value, given.inputs, given.region);
  const armResources = Array.isArray(value.resources) || isObject(value.resources);
  if (armResources && (typeof value.$schema === "string" || "contentVersion" in value))
    return readArm(value, given.inputs, given.region);
  if ("format_version" in value && ("resource_changes" in value || "planned_values" in value))
    return readTerraformPlan(value, given.region);
  const keys = Object.keys(value).slice(0, 8).join(", ");
  throw new TemplateError(
    `Not a template this check reads: an object with keys ${keys || "(none)"}. It reads a CloudFormation or SAM template (Resources), an ARM template ($schema, contentVersion, resources), a Terraform plan (format_version with resource_changes or planned_values, from terraform show -json), Terraform configuration (.tf text, or files) or a list of Google API names.`,
  );
}

function apiList(values: unknown[]): Deployment {
  const bad = values.filter((value) => !isGoogleApi(value));
  if (bad.length > 0)
    throw new TemplateError(
      `A list is read as Google API names (like run.googleapis.com); these are not: ${bad
        .slice(0, 5)
        .map((value) => JSON.stringify(value).slice(0, 60))
        .join(", ")}.`,
    );
  return resolvedDeployment(
    "gcp-apis",
    (values as string[]).map((api): ResourceInstance => ({
      kind: "gcp-api",
      item: api,
      from: "list",
      providerId: "gcp",
      deployed: { state: "yes" },
      location: { kind: "none" },
    })),
  );
}
