/**
 * The Policies rows: the AWS SCP, the Azure policy set, the GCP organization policy, the Markdown
 * export and exit plans. See index.ts for the table they join.
 */
import { endpoint, type Endpoint, type Result } from "./endpoint.ts";
import { exitPlan } from "../exit/plan.ts";
import { azurePolicySet, gcpAnswer, gcpOrgPolicy, policyAnswer, scpAnswer, scpPolicy } from "../policies/documents.ts";
import { PolicyRequestError } from "../policies/errors.ts";
import {
  azurePolicySetTerraform,
  gcpOrgPolicyTerraform,
  scpTerraform,
  TERRAFORM_FILES,
  TERRAFORM_MEDIA_TYPE,
} from "../policies/terraform.ts";
import { preferredMediaType } from "../base/media-type.ts";
import { HttpError } from "../base/problem.ts";
import { renderMarkdown } from "../format/markdown.ts";
import { approvedListDoc } from "../render/pages.ts";
import {
  AcceptHeaders,
  ApprovedServicesBody,
  PolicyBody,
  ScpBody,
  AzurePolicySetResponse,
  ExitPlan,
  ExitPlanBody,
  ExitPlanFormatQuery,
  GcpOrgPolicyResponse,
  GcpPolicyQuery,
  PolicyAcceptHeaders,
  type PolicyAnswerFormat,
  PolicyQuery,
  ScpQuery,
  ScpResponse,
} from "../schema/index.ts";
import { approvedIds, EXIT_PLAN_ALTERNATES, exitPlanFormat, exitPlanAnswer } from "./shared.ts";

/** A policy generator's answer, or its refusal (nothing to allow, too large, bad part) as a 400. */
function policyCall<Body>(call: () => Result<Body>): Result<Body> {
  try {
    return call();
  } catch (error) {
    if (error instanceof PolicyRequestError) throw new HttpError(400, error.title, error.message);
    throw error;
  }
}

/** The policy rows' media types, JSON first: the one a tie or a wildcard gets. */
const POLICY_MEDIA_TYPES = ["application/json", "text/x-hcl"] as const;

/** ?format wins; else Accept naming text/x-hcl; else JSON (as exitPlanFormat chooses). */
function policyFormat(query: { format?: PolicyAnswerFormat | undefined }, accept: string | undefined) {
  if (query.format) return query.format;
  return preferredMediaType(accept, POLICY_MEDIA_TYPES, "application/json") === "text/x-hcl" ? "terraform" : "json";
}

/** Terraform configuration, a .tf file to save; explain mode has no such form, so the two are a 400. */
function terraform(query: { explain?: boolean | undefined }, file: string, make: () => string): Result<never> {
  if (query.explain)
    throw new HttpError(
      400,
      "Invalid query",
      "explain=true answers JSON (the document with what was skipped, implied and kept); ask for the Terraform configuration (format=terraform or Accept: text/x-hcl) without explain.",
    );
  return { text: make(), contentType: TERRAFORM_MEDIA_TYPE, filename: file };
}

/** essentials=false opts out of keeping the vendor's account-operation essentials usable. */
const essentials = (query: { essentials?: boolean | undefined }) =>
  query.essentials === false ? { essentials: false } : {};

/** allowedLocations, when the body names any (policies/locations.ts resolves them per vendor). */
const locations = (body: { allowedLocations?: string[] | undefined }) =>
  body.allowedLocations ? { allowedLocations: body.allowedLocations } : {};

export const POLICIES_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "generateScp",
    method: "POST",
    path: "/v1/policies/alpha-scp",
    summary: "AWS service control policy",
    description:
      "The SCP itself ({Version, Statement}), ready for aws organizations create-policy --type SERVICE_CONTROL_POLICY --name approved-services --description \"Approved services\" --content file://scp.json. strategy=deny-list (default): one Deny statement whose NotAction lists the approved services' IAM prefixes and the account-operation essentials (iam, sts, organizations, account, billing, support, health…; essentials=false leaves them out), attached beside FullAWSAccess; over AWS's 5,120 characters it is a 400, since a deny-list cannot be split. strategy=allow-list: Allow SCPs attached in place of FullAWSAccess, whose Allows add up on one target (at most 5); when more than one is needed, fetch each with part=1… or all with explain=true (policies). explain=true answers {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes}. Each approved service's actions under other prefixes are allowed too (e.g. ec2:*VerifiedAccess* for Verified Access). exemptPrincipalArns (deny-list only) exempts IAM role or user ARN patterns from the deny with an ArnNotLike aws:PrincipalARN condition. allowedLocations (region codes, country codes, EU or EEA) adds a second Deny statement on aws:RequestedRegion outside the allowed AWS regions, with the global-service NotAction exemptions of AWS's own Region deny example and the same principal exemptions; the regions must be of one partition (aws, or aws-eusc for the European Sovereign Cloud's eusc-de-east-1): mixing them is a 400, an unknown location a 400 naming the nearest. No approved AWS service with an IAM prefix: 400. A starting point: review actions, add co-required permissions, and test in a non-production organisational unit before use. format=terraform (or Accept: text/x-hcl) answers the same document as Terraform/OpenTofu configuration (a .tf: aws_organizations_policy and its aws_organizations_policy_attachment to var.target_id; an allow-list needing several SCPs gives them all, part one of them); not with explain.",
    tag: "Policies",
    bucket: "strict",
    query: ScpQuery,
    body: ScpBody,
    headers: PolicyAcceptHeaders,
    response: { status: 200, schema: ScpResponse, contentType: "application/json", alternates: [TERRAFORM_MEDIA_TYPE] },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/policies/alpha-scp", body: { approvedServiceIds: ["aws-s3", "aws-lambda"] } },
    handler: (c, { body, query, headers }) =>
      policyCall(() => {
        const result = scpPolicy(c.catalogue, approvedIds(c.catalogue, body), {
          strategy: query.strategy,
          ...essentials(query),
          ...(body.exemptPrincipalArns ? { exemptPrincipalArns: body.exemptPrincipalArns } : {}),
          ...locations(body),
        });
        const part = query.part ? { part: query.part } : {};
        if (policyFormat(query, headers.accept) === "terraform")
          return terraform(query, TERRAFORM_FILES.scp, () => {
            // Every SCP an allow-list needs, all attached to the target, unless part picks one
            // (scpAnswer refuses a part the strategy or the list does not have).
            const parts = result.policies ?? [result.policy];
            if (query.part) scpAnswer(result, part);
            const policies = query.part ? [parts[query.part - 1]!] : parts;
            return scpTerraform(policies, { strategy: result.strategy, ...part });
          });
        return { body: scpAnswer(result, { ...(query.explain ? { explain: true } : {}), ...part }) };
      }),
  }),
  endpoint({
    operationId: "generateAzurePolicy",
    method: "POST",
    path: "/v1/policies/beta-policy",
    summary: "Azure policy initiative",
    description:
      "The policy set definition itself, in the ARM shape ({properties: {displayName, policyType, parameters, policyDefinitions…}}), built on the built-in 'Allowed resource types' policy with the approved services' resource types and the account-operation essentials (resource groups, deployments, role assignments, policy, locks, diagnostic settings; essentials=false leaves them out). Create it with az rest --method put --url https://management.azure.com/providers/Microsoft.Management/managementGroups/{group}/providers/Microsoft.Authorization/policySetDefinitions/approved-services?api-version=2023-04-01 --body @policy-set.json, or az policy set-definition create --name approved-services --display-name (properties.displayName) --description (properties.description) --definitions (properties.policyDefinitions) --params (properties.parameters). explain=true answers {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes}. The approved services' child types and quickstart companion types (network interfaces, public IPs, VM extensions…) are allowed too. allowedLocations (region codes, country codes, EU or EEA) adds the built-in 'Allowed locations' and 'Allowed locations for resource groups' with the Azure regions among them (resources whose location is global are not evaluated); an unknown location is a 400 naming the nearest. No approved Azure service with a resource type: 400. format=terraform (or Accept: text/x-hcl) answers the same document as Terraform/OpenTofu configuration (a .tf: azurerm_management_group_policy_set_definition and its azurerm_management_group_policy_assignment at var.management_group_id); not with explain.",
    tag: "Policies",
    bucket: "strict",
    query: PolicyQuery,
    body: PolicyBody,
    headers: PolicyAcceptHeaders,
    response: {
      status: 200,
      schema: AzurePolicySetResponse,
      contentType: "application/json",
      alternates: [TERRAFORM_MEDIA_TYPE],
    },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/policies/beta-policy", body: { approvedServiceIds: ["azure-blob-storage"] } },
    handler: (c, { body, query, headers }) =>
      policyCall(() => {
        const result = azurePolicySet(c.catalogue, approvedIds(c.catalogue, body), {
          ...essentials(query),
          ...locations(body),
        });
        if (policyFormat(query, headers.accept) === "terraform")
          return terraform(query, TERRAFORM_FILES.azure, () => azurePolicySetTerraform(result.policy));
        return { body: policyAnswer(result, query) };
      }),
  }),
  endpoint({
    operationId: "generateGcpOrgPolicy",
    method: "POST",
    path: "/v1/policies/gamma-org-policy",
    summary: "GCP organisation policy",
    description:
      "The organization policy itself ({name, spec.rules}), restricting constraints/gcp.restrictServiceUsage to every approved service's API names (confirmed as supported or not: an unsupported name is harmless) and the essentials (serviceusage, cloudresourcemanager, iam, logging, monitoring…; essentials=false leaves them out). Apply with gcloud org-policies set-policy policy.json after replacing ORGANIZATION_ID, or pass organizationId. explain=true answers {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes}, unconfirmed listing the API names Google does not confirm as supported. The APIs the approved services depend on are allowed too (compute.googleapis.com for GKE…). allowedLocations (region codes, country codes, EU or EEA) adds a second policy, gcp.resourceLocations, allowing Google's value groups (in:eu-locations for EU, in:<region>-locations per region; only supported resource types are covered): fetch each with part=1 (gcp.restrictServiceUsage) and part=2, or both with explain=true (policies); without part such a request is a 400; format=terraform gives both resources in one .tf. An unknown location is a 400 naming the nearest. No approved Google Cloud service with an API name: 400. format=terraform (or Accept: text/x-hcl) answers the same document as Terraform/OpenTofu configuration (a .tf: google_org_policy_policy on organizations/var.organization_id); not with explain.",
    tag: "Policies",
    bucket: "strict",
    query: GcpPolicyQuery,
    body: PolicyBody,
    headers: PolicyAcceptHeaders,
    response: {
      status: 200,
      schema: GcpOrgPolicyResponse,
      contentType: "application/json",
      alternates: [TERRAFORM_MEDIA_TYPE],
    },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/policies/gamma-org-policy", body: { approvedServiceIds: ["gcp-cloud-storage"] } },
    handler: (c, { body, query, headers }) =>
      policyCall(() => {
        const options = {
          ...essentials(query),
          ...locations(body),
          ...(query.organizationId ? { organizationId: query.organizationId } : {}),
        };
        const result = gcpOrgPolicy(c.catalogue, approvedIds(c.catalogue, body), options);
        if (policyFormat(query, headers.accept) === "terraform")
          return terraform(query, TERRAFORM_FILES.gcp, () => {
            // Both policies in one .tf unless part picks one (gcpAnswer refuses a part there is not).
            const parts = result.policies ?? [result.policy];
            if (query.part) gcpAnswer(result, { part: query.part });
            const [first, ...others] = query.part ? [parts[query.part - 1]!] : parts;
            return gcpOrgPolicyTerraform(first!, others);
          });
        return {
          body: gcpAnswer(result, {
            ...(query.explain ? { explain: true } : {}),
            ...(query.part ? { part: query.part } : {}),
          }),
        };
      }),
  }),
  endpoint({
    operationId: "exportMarkdown",
    method: "POST",
    path: "/v1/export/markdown",
    summary: "Markdown export",
    description: "The approved list as Markdown for runbooks, lifecycle shown.",
    tag: "Policies",
    bucket: "strict",
    body: ApprovedServicesBody,
    response: { status: 200, contentType: "text/markdown; charset=utf-8" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    pure: true,
    example: { request: "POST /v1/export/markdown", body: { approvedServiceIds: ["aws-s3", "gcp-bigquery"] } },
    handler: (c, { body }) => ({
      text: renderMarkdown(approvedListDoc(c.catalogue, approvedIds(c.catalogue, body))),
      contentType: "text/markdown; charset=utf-8",
    }),
  }),
  endpoint({
    operationId: "planExit",
    method: "POST",
    path: "/v1/exit-plan",
    summary: "Exit plan",
    description:
      "Maps an approved list onto the providers a target allows (to: providers, sovereignOption, euResidentOnly, jurisdictions, each narrowing; exclude removes). Per service: stays (already on an allowed provider and open to new customers), mapped (its candidates on allowed providers: equivalence-group peers, the same product operated elsewhere, same-category services sharing a compatibility entry; ranked by job fit, lineage, compatibility, category, each provider's flagship, then consolidation onto fewer providers, each with the signal that decided; a service doing several jobs gets a target per job) or no-equivalent (a gap, with up to three similar same-category services marked as not equivalent). Deprecated, sunset and retired services are never proposed; a gap they leave says so. Then the gaps, a proposed target list chosen by greedy set cover to keep the providers few, and the exposure before and after (as GET /v1/exposure computes it; after counts the gaps where they are now). ?format=md or Accept: text/markdown answers a Markdown document to hand over (gaps first, a table per provider moved from, exposure, sources, the catalogue release); ?format=csv or Accept: text/csv a CSV. No criterion, an unknown provider, an unknown body key (named, with the key it most likely meant) or a target no provider meets: 400. Ids given more than once are planned once and named in notes.",
    tag: "Policies",
    bucket: "relaxed",
    query: ExitPlanFormatQuery,
    headers: AcceptHeaders,
    body: ExitPlanBody,
    response: { status: 200, schema: ExitPlan, contentType: "application/json", alternates: EXIT_PLAN_ALTERNATES },
    errors: [400, 413, 415, 429],
    cache: "no-store",
    pure: true,
    example: {
      request: "POST /v1/exit-plan",
      body: {
        approvedServiceIds: ["aws-s3", "aws-ec2", "aws-rds-postgresql"],
        to: { sovereignOption: true },
        dataGb: { "aws-s3": 2000 },
      },
    },
    handler: (c, { body, query, headers }) => {
      approvedIds(c.catalogue, body); // every unknown id named in one 400
      // The ids as given: exitPlan plans each once and notes the repeated ones (never in silence).
      return exitPlanAnswer(
        c.catalogue,
        c.urls,
        exitPlan(c.catalogue, body.approvedServiceIds, body.to, body.jobsUsed, body.dataGb),
        exitPlanFormat(query.format, headers.accept),
        undefined,
        query.bom,
      );
    },
  }),
];
