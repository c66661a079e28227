/**
 * Policy documents from an approved list: an AWS service control policy, an Azure policy set
 * definition (initiative) and a Google Cloud organization policy. Pure functions over a Catalogue;
 * what they share (the selection of identifiers, explain mode's checks) is in selection.ts, the
 * errors they throw in errors.ts.
 *
 * Decisions (docs/design.md, "Decisions"; decisions.md#policies-as-documents):
 * - each function returns the document *explained*; the endpoint answers the bare document
 *   (`policyAnswer`/`scpAnswer`) unless `?explain=true`;
 * - the vendor's account-operation essentials (policies/essentials.ts) stay usable unless the
 *   caller opts out, so an approved list never locks administrators out;
 * - nothing to allow (no approved service of the provider, or none with identifiers) throws
 *   PolicyRequestError (400), never a deny-everything document;
 * - a deny-list SCP over AWS's 5,120 characters throws PolicyTooLargeError, which says it cannot be
 *   split and points at the allow-list strategy, whose Allow SCPs add up on one target;
 * - approved means usable (decisions.md#approved-means-usable): each approved service's dependencies (data/dependencies/, see
 *   dependencies.ts) are allowed with it, and so are those of any service the document makes wholly
 *   usable through them; explain mode lists them under `dependencies`, and the catalogue services
 *   they also allow under `implied`;
 * - approved means deployable (decisions.md#approved-means-usable): explain mode checks the list against the vendor's
 *   deployment fixtures (policies/deployments/) under `deployments`, gives the reason for a
 *   dependency no catalogue service owns, says "essentials" in `linkedTo` where they are why a
 *   service is implied, and counts an Azure service whose missing types Indexed mode never
 *   evaluates as `complete`.
 */
import { actionMatches, identifierKey } from "../dependencies/dependencies.ts";
import type { ListCatalogue } from "../lists/list-catalogue.ts";
import { PolicyRequestError, PolicyTooLargeError } from "./errors.ts";
import { awsRegionDeny, azureLocations, gcpLocationValues, AWS_REGION_DENY_NOT_ACTION } from "./locations.ts";
import { AWS_ESSENTIAL_PREFIXES } from "./essentials.ts";
import { SCP_MAX_CHARACTERS, SCP_MAX_PER_TARGET } from "../base/limits.ts";
import {
  AWS,
  AZURE,
  commonNotes,
  count,
  deploymentCheck,
  deploymentNote,
  GCP,
  type PolicyOptions,
  select,
  selectionReport,
  sortedUnique,
  uniqueFor,
} from "./selection.ts";
import type {
  AzurePolicySetDocumentT,
  AzurePolicySetExplainedT,
  GcpOrgPolicyDocumentT,
  GcpOrgPolicyExplainedT,
  ScpDocumentT,
  ScpExplainedT,
} from "../schema/index.ts";

/**
 * Creating the policy set with az, its display name and description taken from the document (the
 * README shows the same command).
 */
export const AZ_SET_DEFINITION_CREATE =
  'az policy set-definition create --name approved-services --management-group <group> --display-name "$(jq -r .properties.displayName policy-set.json)" --description "$(jq -r .properties.description policy-set.json)" --definitions "$(jq .properties.policyDefinitions policy-set.json)" --params "$(jq .properties.parameters policy-set.json)"';

/** Built-in Azure Policy "Allowed resource types" (mode Indexed, effect deny). */
export const AZURE_ALLOWED_RESOURCE_TYPES_DEFINITION =
  "/providers/Microsoft.Authorization/policyDefinitions/a08ec900-254a-4555-9bf5-e42af04b5c5c";
/**
 * Built-in "Allowed locations" (mode Indexed, skips location "global") and "Allowed locations for
 * resource groups" (mode All), both with parameter listOfAllowedLocations (Azure/azure-policy,
 * built-in-policies/policyDefinitions/General/AllowedLocations_Deny.json and
 * ResourceGroupAllowedLocations_Deny.json).
 */
export const AZURE_ALLOWED_LOCATIONS_DEFINITION =
  "/providers/Microsoft.Authorization/policyDefinitions/e56962a6-4747-49cd-b67b-bf8b01975c4c";
export const AZURE_ALLOWED_RESOURCE_GROUP_LOCATIONS_DEFINITION =
  "/providers/Microsoft.Authorization/policyDefinitions/e765b5de-1225-4ba3-bd56-1ac6695af988";
export const GCP_CONSTRAINT = "gcp.restrictServiceUsage";
export const GCP_LOCATIONS_CONSTRAINT = "gcp.resourceLocations";
export const GCP_ORGANIZATION_PLACEHOLDER = "ORGANIZATION_ID";

export type ScpStrategy = "deny-list" | "allow-list";
export interface LocationOptions extends PolicyOptions {
  /** Regions, countries and groups to allow (policies/locations.ts resolves them per vendor). */
  readonly allowedLocations?: readonly string[];
}
export interface ScpOptions extends LocationOptions {
  readonly strategy?: ScpStrategy;
  /** aws:PrincipalARN patterns exempt from the deny-list's deny (an ArnNotLike condition). */
  readonly exemptPrincipalArns?: readonly string[];
}
export interface GcpOptions extends LocationOptions {
  /** Numeric organization id for the policy name; a placeholder to replace when omitted. */
  readonly organizationId?: string;
}

/** Length of the document as AWS counts it: JSON without white space. */
export const minifiedLength = (document: unknown) => JSON.stringify(document).length;

/** Whether an SCP's action list (prefix:* entries and action patterns) allows an action. */
export function scpAllows(actions: readonly string[], action: string): boolean {
  const [prefix, name] = action.split(":") as [string, string];
  return actions.some((entry) => {
    const [entryPrefix, pattern] = entry.split(":") as [string, string];
    return entryPrefix === prefix && actionMatches(pattern, name);
  });
}

// ---------------------------------------------------------------------------------------------
// AWS service control policies

const SCP_VERSION = "2012-10-17" as const;

type ScpStatementT = ScpDocumentT["Statement"][number];

/** The exemption AWS's own SCP examples write (e.g. for AWSControlTowerExecution), on a Deny. */
const exemption = (exemptPrincipalArns: readonly string[]) =>
  exemptPrincipalArns.length > 0 ? { ArnNotLike: { "aws:PrincipalARN": [...exemptPrincipalArns] } } : {};

/** allowedLocations' Deny: any request for another region, but for AWS's global-service exemptions and Control Tower's account and billing ones. */
function regionDenyStatement(regions: readonly string[], exemptPrincipalArns: readonly string[]): ScpStatementT {
  return {
    Sid: "DenyOutsideAllowedRegions",
    Effect: "Deny",
    NotAction: [...AWS_REGION_DENY_NOT_ACTION],
    Resource: "*",
    Condition: { StringNotEquals: { "aws:RequestedRegion": [...regions] }, ...exemption(exemptPrincipalArns) },
  };
}

function denyListScp(
  actions: readonly string[],
  exemptPrincipalArns: readonly string[],
  regionDeny?: ScpStatementT,
): ScpDocumentT {
  return {
    Version: SCP_VERSION,
    Statement: [
      {
        Sid: "DenyAllButApprovedServices",
        Effect: "Deny",
        NotAction: [...actions],
        Resource: "*",
        ...(exemptPrincipalArns.length > 0 ? { Condition: exemption(exemptPrincipalArns) } : {}),
      },
      ...(regionDeny ? [regionDeny] : []),
    ],
  };
}

function allowListScp(
  actions: readonly string[],
  part: number,
  parts: number,
  regionDeny?: ScpStatementT,
): ScpDocumentT {
  return {
    Version: SCP_VERSION,
    Statement: [
      {
        Sid: parts === 1 ? "AllowApprovedServices" : `AllowApprovedServicesPart${part}`,
        Effect: "Allow",
        Action: [...actions],
        Resource: "*",
      },
      ...(regionDeny ? [regionDeny] : []),
    ],
  };
}

/**
 * Splits the actions into as few allow-list SCPs as fit AWS's size limit, in order; the region deny
 * goes in the first, and every part is sized as if it held it (simpler, and at most one part more).
 */
function allowListParts(actions: readonly string[], regionDeny?: ScpStatementT): ScpDocumentT[] {
  const groups: string[][] = [];
  // The longest Sid a part can carry, so that numbering the parts afterwards cannot push one over.
  const empty = minifiedLength(allowListScp([], SCP_MAX_PER_TARGET, SCP_MAX_PER_TARGET, regionDeny));
  let current: string[] = [];
  let size = empty;
  for (const action of actions) {
    const added = JSON.stringify(action).length + (current.length > 0 ? 1 : 0);
    if (current.length > 0 && size + added > SCP_MAX_CHARACTERS) {
      groups.push(current);
      current = [];
      size = empty;
    }
    size += JSON.stringify(action).length + (current.length > 0 ? 1 : 0);
    current.push(action);
  }
  groups.push(current);
  return groups.map((group, index) =>
    allowListScp(group, index + 1, groups.length, index === 0 ? regionDeny : undefined),
  );
}

export function scpPolicy(catalogue: ListCatalogue, ids: readonly string[], options: ScpOptions = {}): ScpExplainedT {
  const strategy = options.strategy ?? "deny-list";
  const exempt = sortedUnique(options.exemptPrincipalArns ?? []);
  if (exempt.length > 0 && strategy !== "deny-list")
    throw new PolicyRequestError(
      "Invalid request",
      "exemptPrincipalArns applies to strategy=deny-list only: an exemption is a condition on the Deny statement, and an allow-list SCP has none. Use the deny-list, or attach the allow-list only to OUs the exempt roles do not act in.",
    );
  const locations = options.allowedLocations
    ? awsRegionDeny(
        catalogue,
        AWS,
        options.allowedLocations,
        exempt,
        ids,
        options.essentials === false ? [] : AWS_ESSENTIAL_PREFIXES,
      )
    : undefined;
  const regionDeny = locations && regionDenyStatement(locations.regions, exempt);
  const selection = select(catalogue, ids, AWS, options);
  // Each approved prefix whole, and the dependencies under prefixes not approved (e.g. ec2:*VerifiedAccess*).
  const actions = [...selection.allowed.map((prefix) => `${prefix}:*`), ...selection.extra];
  const deployments = deploymentCheck(catalogue, AWS, ids, (action) => scpAllows(actions, action));
  const notes = [
    "A starting point: review the actions, add co-required permissions, and test in a non-production organisational unit before use.",
    ...commonNotes(selection, AWS, "essentials=false"),
    ...deploymentNote(deployments, AWS),
    "SCPs do not affect the management account or service-linked roles, and grant nothing: identity policies must still allow the actions.",
    ...(locations?.notes ?? []),
  ];
  if (strategy === "deny-list") {
    const policy = denyListScp(actions, exempt, regionDeny);
    const characters = minifiedLength(policy);
    if (characters > SCP_MAX_CHARACTERS)
      throw new PolicyTooLargeError(
        `The deny-list SCP would be ${characters} characters${regionDeny ? `, ${minifiedLength(regionDeny)} of them the region deny` : ""}; AWS allows ${SCP_MAX_CHARACTERS}. A deny-list SCP cannot be split: two deny-all-but SCPs on one target deny everything not in both lists. Remove services from the list, or use strategy=allow-list, whose Allow SCPs add up on one target (up to ${SCP_MAX_PER_TARGET}).`,
      );
    return {
      policy,
      strategy,
      characters,
      ...selectionReport(selection),
      unconfirmed: [],
      deployments,
      notes: [
        'Deny-list: attach beside FullAWSAccess (aws organizations create-policy --type SERVICE_CONTROL_POLICY --name approved-services --description "Approved services" --content file://scp.json, then aws organizations attach-policy --policy-id <id> --target-id <ou-or-account>). Everything not listed in NotAction is denied.',
        ...(exempt.length > 0
          ? [
              `Exempt from the deny: principals whose ARN matches ${exempt.join(", ")} (Condition ArnNotLike aws:PrincipalARN). Keep that list short and those roles guarded: they may use every service.`,
            ]
          : []),
        ...notes,
      ],
    };
  }
  const policies = allowListParts(actions, regionDeny);
  if (policies.length > SCP_MAX_PER_TARGET)
    throw new PolicyTooLargeError(
      `The allow-list needs ${policies.length} SCPs of at most ${SCP_MAX_CHARACTERS} characters; AWS attaches at most ${SCP_MAX_PER_TARGET} to one target. Remove services from the list.`,
    );
  return {
    policy: policies[0]!,
    ...(policies.length > 1 ? { policies } : {}),
    strategy,
    characters: minifiedLength(policies[0]),
    ...selectionReport(selection),
    unconfirmed: [],
    deployments,
    notes: [
      `Allow-list: attach ${policies.length === 1 ? "this SCP" : `all ${policies.length} SCPs`} to the target in place of FullAWSAccess (attach first, then detach FullAWSAccess). Allows of several SCPs on one target add up; AWS allows ${SCP_MAX_PER_TARGET} SCPs per target, counting any other SCP attached there.`,
      "An action must be allowed at every level above the account too (root and each OU): keep FullAWSAccess there, or attach the same allow-list.",
      ...notes,
    ],
  };
}

/**
 * The body of POST /v1/policies/alpha-scp: the SCP itself, the `part`-th allow-list SCP, or with
 * `explain` the explained result. An allow-list needing several SCPs and no `part` is a 400 that
 * says how to fetch them, so the body is never a file AWS would refuse.
 */
export function scpAnswer(
  result: ScpExplainedT,
  request: { explain?: boolean; part?: number },
): ScpExplainedT | ScpExplainedT["policy"] {
  const parts = result.policies ?? [result.policy];
  if (request.part !== undefined) {
    if (result.strategy !== "allow-list")
      throw new PolicyRequestError("Invalid query", "part applies to strategy=allow-list only.");
    if (request.part > parts.length)
      throw new PolicyRequestError(
        "Invalid query",
        `This allow-list needs ${count(parts.length, "SCP")}; part must be 1 to ${parts.length}.`,
      );
  }
  const policy = parts[(request.part ?? 1) - 1]!;
  if (request.explain) return { ...result, policy, characters: minifiedLength(policy) };
  if (parts.length > 1 && request.part === undefined)
    throw new PolicyRequestError(
      "Several SCPs needed",
      `This allow-list needs ${parts.length} SCPs, all attached to the same target: download each with part=1 to part=${parts.length}, or all of them with explain=true (policies).`,
    );
  return policy;
}

/** The body of the Azure and GCP endpoints: the document, or with `explain` the explained result. */
export function policyAnswer<T extends { policy: unknown }>(
  result: T,
  request: { explain?: boolean },
): T | T["policy"] {
  return request.explain ? result : result.policy;
}

// ---------------------------------------------------------------------------------------------
// Azure policy set definitions

export function azurePolicySet(
  catalogue: ListCatalogue,
  ids: readonly string[],
  options: LocationOptions = {},
): AzurePolicySetExplainedT {
  const locations = options.allowedLocations && azureLocations(catalogue, AZURE, options.allowedLocations, ids);
  const selection = select(catalogue, ids, AZURE, options);
  const policy: AzurePolicySetDocumentT = {
    properties: {
      displayName: "Approved Azure services",
      description: `Allows only the resource types of ${count(selection.included.length, "approved service")}${selection.essentials.length > 0 ? " and the account-operation essentials (resource groups, deployments, role assignments, policy, monitoring)" : ""}${locations ? `, in ${count(locations.locations.length, "allowed location")}` : ""}. Generated by the Cloud Services Catalogue.`,
      policyType: "Custom",
      metadata: { category: "General", version: "1.0.0", generatedBy: "cloud-services-catalogue" },
      parameters: {
        allowedResourceTypes: {
          type: "Array",
          metadata: { displayName: "Allowed resource types", description: "Resource types that may be deployed" },
          defaultValue: uniqueFor(AZURE, [...selection.allowed, ...selection.extra]),
        },
        ...(locations && {
          allowedLocations: {
            type: "Array" as const,
            metadata: { displayName: "Allowed locations", description: "Locations resources may be deployed in" },
            defaultValue: locations.locations,
          },
        }),
      },
      policyDefinitions: [
        {
          policyDefinitionReferenceId: "allowedResourceTypes",
          policyDefinitionId: AZURE_ALLOWED_RESOURCE_TYPES_DEFINITION,
          parameters: { listOfResourceTypesAllowed: { value: "[parameters('allowedResourceTypes')]" } },
        },
        ...(locations
          ? [
              {
                policyDefinitionReferenceId: "allowedLocations",
                policyDefinitionId: AZURE_ALLOWED_LOCATIONS_DEFINITION,
                parameters: { listOfAllowedLocations: { value: "[parameters('allowedLocations')]" } },
              },
              {
                policyDefinitionReferenceId: "allowedResourceGroupLocations",
                policyDefinitionId: AZURE_ALLOWED_RESOURCE_GROUP_LOCATIONS_DEFINITION,
                parameters: { listOfAllowedLocations: { value: "[parameters('allowedLocations')]" } },
              },
            ]
          : []),
      ],
    },
  };
  const allowedTypes = new Set(
    policy.properties.parameters.allowedResourceTypes!.defaultValue.map((type) => identifierKey("azure", type)),
  );
  const deployments = deploymentCheck(catalogue, AZURE, ids, (type) => allowedTypes.has(identifierKey("azure", type)));
  return {
    policy,
    characters: minifiedLength(policy),
    ...selectionReport(selection),
    unconfirmed: [],
    deployments,
    notes: [
      `Create at a management group with the ARM shape: az rest --method put --url 'https://management.azure.com/providers/Microsoft.Management/managementGroups/<group>/providers/Microsoft.Authorization/policySetDefinitions/approved-services?api-version=2023-04-01' --body @policy-set.json; or ${AZ_SET_DEFINITION_CREATE}. Then assign it (az policy assignment create --policy-set-definition approved-services …).`,
      "The built-in 'Allowed resource types' runs in Indexed mode: only resource types that support tags and location are checked.",
      "The approved services' child types that the policy evaluates and the companion types their quickstart deployments create are allowed (dependencies in explain mode). A deployment may still create other types: assign with enforcement mode DoNotEnforce first to see what would be denied.",
      ...commonNotes(selection, AZURE, "essentials=false"),
      ...deploymentNote(deployments, AZURE),
      ...(locations?.notes ?? []),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Google Cloud organization policies

export function gcpOrgPolicy(
  catalogue: ListCatalogue,
  ids: readonly string[],
  options: GcpOptions = {},
): GcpOrgPolicyExplainedT {
  const locations = options.allowedLocations && gcpLocationValues(catalogue, GCP, options.allowedLocations, ids);
  const selection = select(catalogue, ids, GCP, options);
  // A dependency is confirmed when a catalogue service names it as an API Google confirms.
  const confirmed = new Set(
    catalogue.services.flatMap(
      (service) =>
        catalogue.bySlug
          .get(service.slug)!
          .policyIdentifiers.apiServices?.filter((api) => api.restrictServiceUsage)
          .map((api) => api.name) ?? [],
    ),
  );
  const unconfirmed = sortedUnique([
    ...selection.included.flatMap(
      (service) =>
        catalogue.bySlug
          .get(service.slug)!
          .policyIdentifiers.apiServices?.filter((api) => !api.restrictServiceUsage)
          .map((api) => api.name) ?? [],
    ),
    ...selection.extra.filter((name) => !confirmed.has(name)),
  ]);
  const organization = options.organizationId ?? GCP_ORGANIZATION_PLACEHOLDER;
  const policy: GcpOrgPolicyDocumentT = {
    name: `organizations/${organization}/policies/${GCP_CONSTRAINT}`,
    spec: { rules: [{ values: { allowedValues: uniqueFor(GCP, [...selection.allowed, ...selection.extra]) } }] },
  };
  const locationPolicy: GcpOrgPolicyDocumentT | undefined = locations && {
    name: `organizations/${organization}/policies/${GCP_LOCATIONS_CONSTRAINT}`,
    spec: { rules: [{ values: { allowedValues: locations.values } }] },
  };
  const allowedApis = new Set(policy.spec.rules[0]!.values.allowedValues);
  const deployments = deploymentCheck(catalogue, GCP, ids, (api) => allowedApis.has(api));
  return {
    policy,
    ...(locationPolicy ? { policies: [policy, locationPolicy] } : {}),
    characters: minifiedLength(policy),
    ...selectionReport(selection),
    unconfirmed,
    deployments,
    notes: [
      options.organizationId
        ? "Apply with: gcloud org-policies set-policy policy.json"
        : `Replace ${GCP_ORGANIZATION_PLACEHOLDER} (or request organizationId=<id>), then apply with: gcloud org-policies set-policy policy.json`,
      "Every approved service's API names are listed, whether or not Google confirms gcp.restrictServiceUsage supports them: naming an unsupported service is harmless, leaving out a supported one would block it. unconfirmed (explain mode) lists those not confirmed.",
      "Google exempts some essential services (IAM, Cloud Logging, Cloud Monitoring) from this constraint whatever the policy says.",
      ...commonNotes(selection, GCP, "essentials=false"),
      ...deploymentNote(deployments, GCP),
      ...(locations?.notes ?? []),
    ],
  };
}

/**
 * The body of POST /v1/policies/gamma-org-policy: the policy, or with allowedLocations the `part`-th
 * of the two (gcloud applies one per file), or with `explain` the explained result. Two policies
 * and no `part` is a 400 that says how to fetch them, as scpAnswer does for an allow-list.
 */
export function gcpAnswer(
  result: GcpOrgPolicyExplainedT,
  request: { explain?: boolean; part?: number },
): GcpOrgPolicyExplainedT | GcpOrgPolicyDocumentT {
  const parts = result.policies ?? [result.policy];
  if (request.part !== undefined && request.part > parts.length)
    throw new PolicyRequestError(
      "Invalid query",
      "part applies with allowedLocations only: 1 is gcp.restrictServiceUsage, 2 gcp.resourceLocations.",
    );
  const policy = parts[(request.part ?? 1) - 1]!;
  if (request.explain) return { ...result, policy, characters: minifiedLength(policy) };
  if (parts.length > 1 && request.part === undefined)
    throw new PolicyRequestError(
      "Several policies needed",
      "With allowedLocations the answer is two organization policies, each applied with gcloud org-policies set-policy: download gcp.restrictServiceUsage with part=1 and gcp.resourceLocations with part=2, or both with explain=true (policies).",
    );
  return policy;
}
