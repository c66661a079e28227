/** The policy documents the three generators answer with. */
import { z } from "zod";
import { SCP_MAX_CHARACTERS } from "../limits.ts";
import { d } from "./vocabulary.ts";
const SkippedService = z
  .object({
    id: z.string().meta(d("Service id")),
    providerId: z.string().meta(d("Its provider")),
    reason: z.string().meta(d("Why it is not in the document")),
  })
  .meta({ id: "SkippedService", description: "An approved service left out of a policy document" });

const PolicyMeta = {
  skipped: z.array(SkippedService).meta(d("Approved services not in the document, and why")),
  notes: z.array(z.string()).meta(d("What to review before applying the document")),
};

export const ScpStatement = z
  .object({
    Sid: z.string().meta(d("Statement id")),
    Effect: z.literal("Deny").meta(d("Deny")),
    NotAction: z
      .array(z.string())
      .meta(d("Actions exempted from the deny: the approved services' prefixes, as prefix:*")),
    Resource: z.literal("*").meta(d("All resources")),
  })
  .meta({ id: "ScpStatement", description: "The SCP statement" });

export const ScpPolicy = z
  .object({
    policy: z
      .object({
        Version: z.literal("2012-10-17").meta(d("IAM policy language version")),
        Statement: z.array(ScpStatement).meta(d("One deny-all-but statement")),
      })
      .meta(d("The service control policy, ready to paste into AWS Organizations")),
    characters: z
      .number()
      .int()
      .meta(d(`Length of the policy with white space removed, as AWS counts it (limit ${SCP_MAX_CHARACTERS})`)),
    ...PolicyMeta,
  })
  .meta({ id: "ScpPolicyResult", description: "POST /v1/policies/alpha-scp: an AWS service control policy" });

export const AzurePolicySet = z
  .object({
    policy: z
      .object({
        properties: z
          .object({
            displayName: z.string().meta(d("Display name of the initiative")),
            description: z.string().meta(d("What the initiative enforces")),
            policyType: z.literal("Custom").meta(d("Custom")),
            metadata: z.record(z.string(), z.unknown()).meta(d("Category and generator version")),
            parameters: z.record(z.string(), z.unknown()).meta(d("Initiative parameters: the allowed resource types")),
            policyDefinitions: z
              .array(
                z.object({
                  policyDefinitionReferenceId: z.string().meta(d("Reference id within the initiative")),
                  policyDefinitionId: z.string().meta(d("The built-in 'Allowed resource types' definition")),
                  parameters: z.record(z.string(), z.unknown()).meta(d("listOfResourceTypesAllowed")),
                }),
              )
              .meta(d("The referenced policy definitions")),
          })
          .meta(d("Policy set definition properties")),
      })
      .meta(d("An Azure policy set definition (initiative), ready for az policy set-definition create")),
    resourceTypes: z.array(z.string()).meta(d("The allowed resource types, sorted")),
    ...PolicyMeta,
  })
  .meta({ id: "AzurePolicySetResult", description: "POST /v1/policies/beta-policy: an Azure policy initiative" });

export const GcpOrgPolicy = z
  .object({
    policy: z
      .object({
        name: z.string().meta(d("organizations/ORGANIZATION_ID/policies/gcp.restrictServiceUsage; replace the id")),
        spec: z
          .object({
            rules: z
              .array(z.object({ values: z.object({ allowedValues: z.array(z.string()) }) }))
              .meta(d("One rule allowing the approved API services")),
          })
          .meta(d("The policy spec")),
      })
      .meta(d("A Google Cloud organisation policy, ready for gcloud org-policies set-policy")),
    services: z.array(z.string()).meta(d("The allowed API services, sorted")),
    ...PolicyMeta,
  })
  .meta({ id: "GcpOrgPolicyResult", description: "POST /v1/policies/gamma-org-policy: a GCP organisation policy" });

export type ScpPolicyT = z.infer<typeof ScpPolicy>;
export type AzurePolicySetT = z.infer<typeof AzurePolicySet>;
export type GcpOrgPolicyT = z.infer<typeof GcpOrgPolicy>;
