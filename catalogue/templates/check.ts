/**
 * The deployment check (POST /v1/deployments/check): a deployment read by read.ts, the approved
 * list, and the answer — the services the deployment uses with the items that made it so, what the
 * catalogue cannot place, the slugs the list lacks, the implicit needs its tools and types bring
 * (dependencies/implicit-needs.ts, each with its vendor page), and the three policies' verdict for this
 * deployment: the document generated from the approved list, then from the list with what the
 * check says to add. Every statement says what it checked (decisions.md#approved-means-usable).
 */
import type { Catalogue } from "../load/load.ts";
import type { FailOn } from "../schema/index.ts";
import type { Deployment } from "./model/deployment.ts";
import {
  describedOnce,
  serviceLifecycleAnswers,
  serviceLifecycleStatements,
  versionAnswers,
  versionStatements,
  unknownVersionStatements,
} from "./rules/versions.ts";
import { locationAnswers, locationStatements } from "./rules/locations.ts";
import { checkRequestRegion } from "./rules/region.ts";
import type { DeploymentCheckAnswer } from "./model/answer.ts";
import type { TemplateIndex } from "./index.node.ts";
import { RENAMED_TYPES, TERRAFORM_IDENTIFIERS } from "./tables/generic-types.ts";
import { statementsOf } from "./answer/statements.ts";
import { policyVerdicts } from "./rules/policies.ts";
import { place } from "./rules/services.ts";

export type {
  DeniedIdentifier,
  DeploymentCheckAnswer,
  LocationAnswer,
  NeedAnswer,
  NotGoverned,
  PolicyVerdict,
  Statement,
  StatementKind,
  UnplacedItem,
  UsedService,
  Vendor,
} from "./model/answer.ts";
/** The day versions are judged on, and the window within which one is retiring. */
export interface VersionWindow {
  readonly asOf: string;
  readonly withinDays: number;
  /** The first phase a version fails on (deprecated when absent; ./retiring.ts). */
  readonly failOn?: FailOn;
}
/** The window when a request gives none. */
export const RETIRING_WITHIN_DAYS = 180;
/**
 * The index, reading a type a newer provider release renamed as its new name, and a type whose
 * identifier no inventory can give from generic-types.ts's table.
 */
function withRenamedTypes(index: TemplateIndex): TemplateIndex {
  const named = (type: string) => RENAMED_TYPES.get(type) ?? type;
  return {
    ...index,
    terraformOwners: (type) => index.terraformOwners(named(type)),
    terraformApi: (type) => index.terraformApi(named(type)),
    terraformNeed: (type) => index.terraformNeed(named(type)) ?? TERRAFORM_IDENTIFIERS.get(type),
    terraformExclusion: (type) => index.terraformExclusion(named(type)),
  };
}
/**
 * The check's answer. `approvedServiceIds` are known ids (the endpoint checked them); an unknown
 * location of `allowedLocations` is a PolicyRequestError (a 400, as at the policy endpoints).
 */
export function checkDeployment(
  catalogue: Catalogue,
  inventories: TemplateIndex,
  deployment: Deployment,
  approvedServiceIds: readonly string[],
  window: VersionWindow,
  allowedLocations?: readonly string[],
): DeploymentCheckAnswer {
  const index = withRenamedTypes(inventories);
  checkRequestRegion(catalogue, deployment, deployment.requestRegion);
  const locations = locationAnswers(catalogue, deployment, allowedLocations);
  const approved = new Set(approvedServiceIds);
  const placement = place(catalogue, index, deployment, approved);
  const { needs, unchecked, services, verdicts, suggested, toolNeeds } = policyVerdicts(
    catalogue,
    index,
    deployment,
    placement,
    approvedServiceIds,
  );
  const answer = {
    format: deployment.format,
    tools: [...(deployment.cdk ? ["aws-cdk"] : []), ...(deployment.sam ? ["aws-sam"] : [])],
    expanded: deployment.expanded,
    items: deployment.items.length,
    services,
    // Every service the suggested list adds: the verdict needs each one's approval.
    missingServiceIds: suggested.filter((id) => !approved.has(id)),
    choices: placement.choices,
    unplaced: placement.unplaced,
    notEvaluated: [...placement.notEvaluated, ...deployment.notRead],
    implicitNeeds: needs,
    toolNeeds,
    verdicts,
    suggestedServiceIds: suggested,
    versions: describedOnce(versionAnswers(catalogue, deployment, window.asOf, window.withinDays, window.failOn)),
    // Each service the deployment uses, against its own lifecycle (Azure Blueprints' sunset).
    serviceLifecycle: serviceLifecycleAnswers(
      catalogue,
      services.map((service) => service.id),
      window.asOf,
      window.withinDays,
      window.failOn,
    ),
    locations,
    inputs: deployment.inputs ?? [],
    notDeployed: deployment.notDeployed ?? [],
    dependsOnInputs: deployment.dependsOnInputs ?? [],
    unknownLocations: deployment.unknownLocations ?? [],
    deploymentErrors: deployment.failures ?? [],
  };
  return {
    ...answer,
    statements: [
      ...statementsOf(index, deployment, answer, unchecked),
      ...versionStatements(answer.versions, window.withinDays, window.failOn),
      ...unknownVersionStatements(deployment),
      ...serviceLifecycleStatements(answer.serviceLifecycle, window.withinDays),
      ...locationStatements(deployment, locations, allowedLocations),
    ],
  };
}
