/**
 * The deployment check's row (contract 1.10.0): a template and the approved list (or a saved list)
 * in, what it uses and whether the policies allow it out. See index.ts for the table it joins.
 */
import { endpoint, type Endpoint } from "./endpoint.ts";
import { HttpError } from "../base/problem.ts";
import { requireKnownIds } from "../search/ids.ts";
import {
  bodyLimitText,
  LIST_LIFETIME_DAYS,
  MAX_BODY_BYTES,
  MAX_TEMPLATE_BODY_BYTES,
  TEMPLATE_BUDGET_TEXT,
} from "../base/limits.ts";
import { resolveList } from "../lists/lists.ts";
import { TemplateCheck, TemplateCheckBody, type FailOn, type TemplateCheckBodyT } from "../schema/index.ts";
import type { Catalogue } from "../load/load.ts";
import type { RecordStore } from "./ports.ts";
import { checkDeployment, RETIRING_WITHIN_DAYS, type VersionWindow } from "../templates/check.ts";
import { TemplateBudgetError, TemplateError } from "../templates/model/errors.ts";
import { templateIndex } from "../templates/index.node.ts";
import { readDeployment, TerraformFiles, type Deployment, type DeploymentInputs } from "../templates/read.ts";
import { storeCall } from "./shared.ts";
import { PolicyRequestError } from "../policies/errors.ts";
import { readList } from "./read-list.ts";

/** The approved ids: as given, or the saved list's (a missing list is a 404). */
async function approvedOf(
  catalogue: Catalogue,
  store: RecordStore,
  now: Date,
  body: TemplateCheckBodyT,
): Promise<string[]> {
  if (body.approvedServiceIds) return requireKnownIds(catalogue, body.approvedServiceIds);
  const list = await storeCall(() => readList(store, body.listId!, now));
  if (!list)
    throw new HttpError(
      404,
      "List not found",
      `No list has this slug or id; lists expire ${LIST_LIFETIME_DAYS} days after they are saved or last read.`,
    );
  return resolveList(catalogue, list).services.map((service) => service.slug);
}

/**
 * Checks a deployment: one read already (where a costly template fails alone), or a template read
 * here; what cannot be read is a 400 naming it, one past the values budget a 422.
 */
export function checkTemplate(
  catalogue: Catalogue,
  template: unknown,
  approved: readonly string[],
  window: VersionWindow = versionWindow(new Date(), undefined),
  allowedLocations?: readonly string[],
  given: DeploymentInputs = {},
) {
  try {
    const deployment = template instanceof ReadDeployment ? template.deployment : readDeployment(template, given);
    return checkDeployment(catalogue, templateIndex(catalogue), deployment, approved, window, allowedLocations);
  } catch (error) {
    if (error instanceof PolicyRequestError) throw new HttpError(400, error.title, error.message);
    if (error instanceof TemplateBudgetError) throw new HttpError(422, "Template too costly", error.message);
    if (error instanceof TemplateError) throw new HttpError(400, "Invalid template", error.message);
    throw error;
  }
}

/**
 * The day (UTC) versions are judged on, the request's retiringWithin ("90d") or the default window,
 * and the first phase it fails on (failOn, added in 1.12.0).
 */
export function versionWindow(now: Date, retiringWithin: string | undefined, failOn?: FailOn): VersionWindow {
  return {
    asOf: now.toISOString().slice(0, 10),
    withinDays: retiringWithin === undefined ? RETIRING_WITHIN_DAYS : Number(retiringWithin.replace(/d$/, "")),
    ...(failOn ? { failOn } : {}),
  };
}

/** A deployment read before the check (checkTemplate's input that is not a template to read). */
export class ReadDeployment {
  readonly deployment: Deployment;
  constructor(deployment: Deployment) {
    this.deployment = deployment;
  }
}

export const DEPLOYMENTS_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "checkDeployment",
    method: "POST",
    path: "/v1/deployments/check",
    summary: "Deployment check",
    description: `Reads what will be deployed, recognised by its shape: a CloudFormation or SAM template (JSON or YAML, short-form tags such as !Ref and !Sub read; Transform AWS::Serverless-2016-10-31 expanded to what SAM creates), an ARM template (what bicep build writes too, comments allowed; nested resources and child types), a Terraform plan (terraform show -json: the catalogue's Terraform types, azapi resources by their ARM type, google_* types by the API each calls, aws_* types by the IAM prefix of their provider package and azurerm_* types by the ARM type each imports, which the Google, AWS and Azure verdicts then check), Terraform configuration without a plan (one .tf file's text as template, or a module's files as files: name to text; resource and data blocks read as a plan's types by their addresses, azurerm data sources aside as Azure Policy evaluates no read; a module block, and a count or for_each that is not a literal, listed in notEvaluated with file and line, the verdicts they concern then not allowed; a count of 0 or an empty literal for_each is no instance; HCL that does not parse is a 400 naming the file and line), or Google API names (what gcloud services enable takes). With approvedServiceIds or a saved list's listId it answers: the catalogue services the deployment uses, each with the items that made it so; the items no service owns (unplaced, with the reason: never dropped); the services the list lacks; the implicit needs of its tools and types (CloudFormation's own calls, SSM parameter types, CDK bootstrap, SAM's bucket and sam logs, an Azure ML workspace's companions, private endpoints' DNS zones, Eventarc's Pub/Sub…), each with its vendor page; and per vendor the generated document's verdict, from the list and from suggestedServiceIds (the list plus what to add): allowed, or each denied action, type or API with what needs it and the services that would allow it. With allowedLocations (as the policy endpoints take it: region codes of any provider, country codes, EU or EEA), each resource stating a literal region, location or zone (Terraform plan and .tf attributes, ARM location) is matched to its provider's catalogue region and answered in locations, allowed or not, the same way on every provider, including those without an organisation-policy engine (a location the catalogue does not know: allowed null; an unknown allowedLocations entry: a 400 Unknown locations naming the nearest). statements says it in sentences, each with what was checked. A body that is no such document, unparseable, holds more than 2,000 resources or a key twice in one object (400 naming the key and its path, as CloudFormation's linter does) is a 400 Invalid template naming what was not understood. Reading has budgets (${TEMPLATE_BUDGET_TEXT}); a template past one is a 422 Template too costly naming it, and fails alone: no other request shares its reading. The body may hold ${bodyLimitText(MAX_TEMPLATE_BODY_BYTES)} (Bicep's and the CDK's output reach megabytes; other rows take ${bodyLimitText(MAX_BODY_BYTES)}); over that a 413.`,
    tag: "Policies",
    bucket: "strict",
    bodyLimit: MAX_TEMPLATE_BODY_BYTES,
    // Reading a template of megabytes takes the event loop long enough to slow every other client.
    offThread: true,
    readsTemplate: true,
    body: TemplateCheckBody,
    response: { status: 200, schema: TemplateCheck, contentType: "application/json" },
    errors: [400, 404, 413, 415, 422, 429, 503],
    cache: "no-store",
    example: {
      request: "POST /v1/deployments/check",
      body: {
        template: { Resources: { Bucket: { Type: "AWS::S3::Bucket" } } },
        approvedServiceIds: ["aws-s3"],
      },
    },
    handler: async (c, { body, deployment }) => {
      const approved = await approvedOf(c.catalogue, c.store, c.now(), body);
      const given = {
        ...(body.inputs ? { inputs: body.inputs } : {}),
        ...(body.region ? { region: body.region } : {}),
      };
      // A template given unread (MCP's) is read where the server reads them: a costly one fails alone.
      const read =
        deployment ??
        (await c.readTemplate?.(
          body.files
            ? { files: body.files, ...(body.root ? { root: body.root } : {}), given }
            : { template: body.template, given },
        ));
      return {
        body: checkTemplate(
          c.catalogue,
          read ? new ReadDeployment(read) : body.files ? new TerraformFiles(body.files, body.root) : body.template,
          approved,
          versionWindow(c.now(), body.retiringWithin, body.failOn),
          body.allowedLocations,
          given,
        ),
      };
    },
  }),
];
