/**
 * The implicit needs a deployment triggers (rule "needs"): the rows of
 * ../../dependencies/implicit-needs.ts its tools, types and resource properties set off, each with
 * its vendor page, and the tool commands a user may run beside it.
 */
import { IMPLICIT_NEEDS, type ImplicitNeed } from "../../dependencies/implicit-needs.ts";
import type { Deployment, DeploymentItem } from "../model/deployment.ts";
import type { TemplateIndex } from "../index.node.ts";
import { azureTypeOf } from "./terraform-types.ts";

/** The Google APIs a deployment names: its API list, or the APIs its google_* Terraform types call. */
const googleApis = (index: TemplateIndex, deployment: Deployment): string[] =>
  deployment.items.flatMap(({ kind, item }) =>
    kind === "gcp-api" ? [item] : kind === "terraform-type" ? [index.terraformApi(item) ?? []].flat() : [],
  );

/**
 * The implicit-needs rows the deployment's tools and types trigger (a plan's APIs through `index`):
 * what deploying it needs, or (`tools`) the tool commands a user may run beside it (sam logs).
 */
export function triggeredNeeds(deployment: Deployment, index?: TemplateIndex, tools = false): ImplicitNeed[] {
  const apis = new Set(index ? googleApis(index, deployment) : []);
  // A plan's azurerm_* types ask for their ARM types as an ARM template's resources do.
  const azure = new Set(index ? deployment.items.flatMap((item) => azureTypeOf(index, item)?.toLowerCase() ?? []) : []);
  const has = (kind: DeploymentItem["kind"], type: string) =>
    (kind === "gcp-api" && apis.has(type)) ||
    (kind === "azure-type" && azure.has(type.toLowerCase())) ||
    deployment.items.some((item) => item.kind === kind && item.item.toLowerCase() === type.toLowerCase());
  return IMPLICIT_NEEDS.filter((row) => {
    if ((row.tool === true) !== tools) return false;
    const trigger = row.trigger;
    if (trigger.kind === "cloudformation-template") return deployment.format === "cloudformation";
    if (trigger.kind === "parameter-type")
      return deployment.parameterTypes.some((type) => type.startsWith(trigger.prefix));
    if (trigger.kind === "cdk") return deployment.cdk;
    if (trigger.kind === "sam") return deployment.sam;
    if (trigger.kind === "property") return deployment.shows?.includes(row.id) === true;
    const kind =
      row.providerId === "aws" ? "cloudformation-type" : row.providerId === "azure" ? "azure-type" : "gcp-api";
    return has(kind, trigger.type) && (trigger.with === undefined || has(kind, trigger.with));
  });
}
