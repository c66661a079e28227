/**
 * Schemas of the three policy endpoints (contract 1.8.0): their query parameters, the vendor
 * documents they answer with (the body *is* the document, nothing else, so it can be saved and
 * applied unchanged), and the `?explain=true` answer that wraps the document with what was
 * skipped, implied and kept. The pure functions that build these live in ../policies/documents.ts.
 */
import { z } from "zod";
import { SCP_MAX_CHARACTERS, SCP_MAX_PER_TARGET } from "../base/limits.ts";
import { d, queryBoolean } from "./vocabulary.ts";

// ---------------------------------------------------------------------------------------------
// Query parameters

/** What a policy endpoint answers: the vendor's JSON document, or that document as Terraform/OpenTofu configuration. */
export const POLICY_ANSWER_FORMATS = ["json", "terraform"] as const;
export type PolicyAnswerFormat = (typeof POLICY_ANSWER_FORMATS)[number];

const policyQueryShape = {
  format: z
    .enum(POLICY_ANSWER_FORMATS)
    .optional()
    .meta(
      d(
        "json (default): the vendor's document; terraform: the same document as Terraform/OpenTofu configuration (text/x-hcl, a .tf file: the provider's resources, their variables and the attachment or assignment); wins over the Accept header; not with explain (added in 1.11.0)",
      ),
    ),
  explain: queryBoolean(
    "true: answer {policy, characters, skipped, implied, dependencies, essentials, unconfirmed, notes, deployments} instead of the bare document",
  ),
  essentials: queryBoolean(
    "false: leave out the account-operation essentials (identity, billing, support, deployments, logging) that are otherwise always kept usable",
  ),
};

export const PolicyQuery = z.object(policyQueryShape);

/** Accept: text/x-hcl asks for the Terraform configuration when ?format is absent. */
export const PolicyAcceptHeaders = z.object({
  accept: z
    .string()
    .optional()
    .meta(d("text/x-hcl for the Terraform/OpenTofu configuration (?format wins); anything else: the JSON document")),
});

export const SCP_STRATEGIES = ["deny-list", "allow-list"] as const;
export const ScpQuery = z.object({
  ...policyQueryShape,
  strategy: z
    .enum(SCP_STRATEGIES)
    .default("deny-list")
    .meta(
      d(
        "deny-list (default): one Deny/NotAction SCP attached beside FullAWSAccess; allow-list: Allow SCPs attached in place of FullAWSAccess",
      ),
    ),
  part: z.coerce
    .number()
    .int()
    .min(1)
    .max(SCP_MAX_PER_TARGET)
    .optional()
    .meta(
      d(
        `allow-list only: which of the SCPs to answer with (1 to ${SCP_MAX_PER_TARGET}) when the approved list needs more than one`,
      ),
    ),
});

/**
 * A Google Cloud organization id as Google documents it: the organization resource's numeric
 * identifier ("organizations/123456789012"), a positive number, so digits with no leading zero.
 */
export const GCP_ORGANIZATION_ID_PATTERN = /^[1-9][0-9]{0,19}$/;

export const GcpPolicyQuery = z.object({
  ...policyQueryShape,
  part: z.coerce
    .number()
    .int()
    .min(1)
    .max(2)
    .optional()
    .meta(
      d(
        "With allowedLocations only: which organization policy to answer with, 1 (gcp.restrictServiceUsage) or 2 (gcp.resourceLocations); without it such a request is a 400, since gcloud applies one policy per file (added in 1.11.0)",
      ),
    ),
  organizationId: z
    .string()
    .regex(
      GCP_ORGANIZATION_ID_PATTERN,
      "must be a Google Cloud organization id: 1 to 20 digits with no leading zero, e.g. 123456789012",
    )
    .optional()
    .meta(
      d(
        "Organization id (digits, no leading zero) to put in the policy name; ORGANIZATION_ID is left to replace when omitted",
      ),
    ),
});

export type PolicyQueryT = z.output<typeof PolicyQuery>;
export type ScpQueryT = z.output<typeof ScpQuery>;
export type GcpPolicyQueryT = z.output<typeof GcpPolicyQuery>;

// ---------------------------------------------------------------------------------------------
// The vendor documents

export const ScpStatement = z
  .strictObject({
    Sid: z.string().meta(d("Statement id")),
    Effect: z
      .enum(["Deny", "Allow"])
      .meta(d("Deny (deny-list strategy, and the region deny of allowedLocations) or Allow (allow-list strategy)")),
    NotAction: z
      .array(z.string())
      .min(1)
      .optional()
      .meta(
        d(
          "deny-list: actions exempted from the deny, as prefix:*: the approved services and the essentials; region deny: AWS's global-service exemptions",
        ),
      ),
    Action: z
      .array(z.string())
      .min(1)
      .optional()
      .meta(d("allow-list: actions allowed, as prefix:*: the approved services and the essentials")),
    Resource: z.literal("*").meta(d("All resources")),
    Condition: z
      .strictObject({
        StringNotEquals: z
          .strictObject({
            "aws:RequestedRegion": z.array(z.string()).min(1).meta(d("The allowed regions (allowedLocations)")),
          })
          .optional()
          .meta(d("Region deny only: the deny applies to requests for any other region (added in 1.11.0)")),
        ArnNotLike: z
          .strictObject({
            "aws:PrincipalARN": z
              .array(z.string())
              .min(1)
              .meta(d("The exempt principals' ARN patterns (exemptPrincipalArns), * and ? as wildcards")),
          })
          .meta(d("The deny applies only to principals whose ARN matches none of the patterns"))
          .optional(),
      })
      .optional()
      .meta(
        d(
          "deny-list with exemptPrincipalArns: exempts those principals from the deny (added in 1.7.0); the region deny: the allowed regions, and the same exemption (added in 1.11.0)",
        ),
      ),
  })
  .meta({
    id: "ScpStatement",
    description:
      "A statement of an SCP: NotAction when it denies, Action when it allows; with allowedLocations a second, the region deny",
  });

export const ScpDocument = z
  .strictObject({
    Version: z.literal("2012-10-17").meta(d("IAM policy language version")),
    Statement: z
      .array(ScpStatement)
      .min(1)
      .max(2)
      .meta(
        d(
          "One deny-all-but or allow statement; with allowedLocations, then the region deny (in the first SCP of an allow-list)",
        ),
      ),
  })
  .meta({
    id: "ScpDocument",
    description: `An AWS service control policy, at most ${SCP_MAX_CHARACTERS} characters minified: aws organizations create-policy --type SERVICE_CONTROL_POLICY --name approved-services --description "Approved services" --content file://scp.json`,
  });

export const AzurePolicyDefinitionReference = z
  .strictObject({
    policyDefinitionReferenceId: z.string().meta(d("Reference id within the initiative")),
    policyDefinitionId: z
      .string()
      .meta(
        d(
          "The built-in 'Allowed resource types' definition; with allowedLocations also 'Allowed locations' and 'Allowed locations for resource groups'",
        ),
      ),
    parameters: z
      .record(z.string(), z.object({ value: z.unknown().meta(d("The value")) }))
      .meta(d("listOfResourceTypesAllowed or listOfAllowedLocations, bound to the initiative's parameter")),
  })
  .meta({ id: "AzurePolicyDefinitionReference", description: "A policy definition referenced by the initiative" });

export const AzurePolicySetDocument = z
  .strictObject({
    properties: z
      .strictObject({
        displayName: z.string().meta(d("Display name of the initiative")),
        description: z.string().meta(d("What the initiative enforces")),
        policyType: z.literal("Custom").meta(d("Custom")),
        metadata: z.record(z.string(), z.unknown()).meta(d("Category and generator")),
        parameters: z
          .record(
            z.string(),
            z.object({
              type: z.literal("Array").meta(d("Array")),
              metadata: z.record(z.string(), z.unknown()).meta(d("Display name and description")),
              defaultValue: z.array(z.string()).meta(d("The allowed resource types or locations, sorted")),
            }),
          )
          .meta(d("Initiative parameters: allowedResourceTypes, and allowedLocations with allowedLocations")),
        policyDefinitions: z.array(AzurePolicyDefinitionReference).min(1).meta(d("The referenced policy definitions")),
      })
      .meta(d("Policy set definition properties")),
  })
  .meta({
    id: "AzurePolicySetDocument",
    description:
      "An Azure policy set definition (initiative) in the ARM shape: PUT it with az rest, or pass properties.policyDefinitions and properties.parameters to az policy set-definition create",
  });

export const GcpOrgPolicyDocument = z
  .strictObject({
    name: z
      .string()
      .meta(
        d(
          "organizations/{ORGANIZATION_ID}/policies/gcp.restrictServiceUsage, or …/gcp.resourceLocations for the location policy",
        ),
      ),
    spec: z
      .strictObject({
        rules: z
          .array(
            z.strictObject({
              values: z
                .strictObject({
                  allowedValues: z
                    .array(z.string())
                    .min(1)
                    .meta(d("The allowed API services, sorted; or the allowed locations' value groups (in:…)")),
                })
                .meta(d("Allowed values of the list constraint")),
            }),
          )
          .length(1)
          .meta(d("One rule allowing the approved API services and the essentials, or the allowed locations")),
      })
      .meta(d("The policy spec")),
  })
  .meta({
    id: "GcpOrgPolicyDocument",
    description:
      "A Google Cloud organization policy (Organization Policy API v2): gcloud org-policies set-policy policy.json",
  });

// ---------------------------------------------------------------------------------------------
// Explain mode

export const SkippedService = z
  .object({
    id: z.string().meta(d("Service id")),
    providerId: z.string().meta(d("Its provider")),
    reason: z.string().meta(d("Why it is not in the document")),
  })
  .meta({ id: "SkippedService", description: "An approved service left out of a policy document" });

export const PolicyDependency = z
  .object({
    identifier: z
      .string()
      .meta(
        d(
          "The identifier allowed: an Azure resource type, a Google API service name, or an AWS IAM action (pattern) as it appears in the document",
        ),
      ),
    neededBy: z
      .array(z.string())
      .meta(
        d(
          "The services that need it: approved ones, and any service the document makes wholly usable through another's dependency (listed in implied)",
        ),
      ),
    sources: z.array(z.string()).meta(d("URLs of the sources that show the need (see the service's dependencies)")),
    reason: z
      .string()
      .optional()
      .meta(
        d(
          "Present when no catalogue service owns the identifier (an Azure public IP address, for one): why it is allowed and with which services (added in 1.8.0)",
        ),
      ),
  })
  .meta({
    id: "PolicyDependency",
    description:
      "An identifier the document allows because an approved service needs it besides its own identifiers (added in 1.7.0)",
  });

export const ImpliedService = z
  .object({
    id: z.string().meta(d("Catalogue service id, not in the approved list")),
    identifiers: z.array(z.string()).meta(d("The identifiers in the document that also name this service")),
    linkedTo: z
      .array(z.string())
      .meta(
        d(
          'The approved services carrying those identifiers, and "essentials" when the account-operation essentials carry one (since 1.8.0; before, essentials left it empty)',
        ),
      ),
    complete: z
      .boolean()
      .meta(
        d(
          "true when the document lets this service be wholly used: every identifier of it is in the document, or (Azure) is a type the Indexed-mode policy never evaluates (since 1.8.0)",
        ),
      ),
  })
  .meta({
    id: "ImpliedService",
    description: "A catalogue service the document also allows, because it shares an identifier",
  });

export const DeploymentFixtureRef = z
  .object({
    id: z.string().meta(d("The fixture's id")),
    name: z.string().meta(d("The workload")),
    sources: z.array(z.string()).meta(d("URLs of the vendor quickstart, template or guide it is written from")),
  })
  .meta({ id: "DeploymentFixtureRef", description: "A deployment fixture the approved list fully covers" });

export const DeploymentGap = z
  .object({
    id: z.string().meta(d("The fixture's id")),
    name: z.string().meta(d("The workload")),
    sources: z.array(z.string()).meta(d("URLs of the vendor quickstart, template or guide it is written from")),
    missing: z
      .array(z.string())
      .min(1)
      .meta(d("What the workload creates or calls that the document does not allow (types, APIs or actions)")),
    approve: z
      .array(z.string())
      .meta(
        d(
          "Catalogue services not approved whose own identifiers include a missing one, and the fixture's services not approved: approving them closes the gap",
        ),
      ),
  })
  .meta({ id: "DeploymentGap", description: "A deployment fixture the approved list touches but does not cover" });

export const DeniedResourceType = z
  .object({
    service: z.string().meta(d("The approved service that owns the resource type")),
    resourceType: z
      .string()
      .meta(
        d(
          "The resource type, as the vendor's schemas name it (AWS::Lambda::Function, Microsoft.App/containerApps), or for Google Cloud the API service name",
        ),
      ),
    missing: z
      .array(z.string())
      .min(1)
      .meta(d("What deploying it needs that the document does not allow (actions, types or APIs)")),
  })
  .meta({
    id: "DeniedResourceType",
    description: "A resource type of an approved service whose deployment the document would deny in part (1.9.0)",
  });

export const ResourceTypeCheck = z
  .object({
    checked: z
      .number()
      .int()
      .meta(
        d(
          "How many of the approved services' resource types were checked against the document: AWS, each CloudFormation type whose handlers need actions beyond the service's own prefixes; Azure, each own type the Indexed-mode policy evaluates, with its evaluated child types; Google Cloud, each own API",
        ),
      ),
    denied: z.array(DeniedResourceType).meta(d("Those the document does not fully allow, with what is missing")),
  })
  .meta({
    id: "ResourceTypeCheck",
    description:
      "The approved services' own resource types checked against the document, from the vendor's resource schemas (AWS CloudFormation handler permissions, Azure's Bicep type index; Google Cloud's APIs; added in 1.9.0)",
  });

export const DeploymentCheck = z
  .object({
    covered: z.array(DeploymentFixtureRef).meta(d("Fixtures whose every type, API or action the document allows")),
    gaps: z
      .array(DeploymentGap)
      .meta(d("Fixtures naming an approved service of which the document denies something, with what is missing")),
    fixturesChecked: z
      .number()
      .int()
      .optional()
      .meta(d("How many of the vendor's fixtures were checked: those naming an approved service (added in 1.9.0)")),
    fixturesOfVendor: z
      .number()
      .int()
      .optional()
      .meta(d("How many deployment fixtures the catalogue holds for the document's vendor (added in 1.9.0)")),
    resourceTypes: ResourceTypeCheck.optional(),
  })
  .meta({
    id: "DeploymentCheck",
    description:
      "The approved list checked against the deployment fixtures of the document's vendor (common workloads written from the vendor's own quickstarts and guides, see docs/policies.md): only fixtures naming at least one approved service are reported (added in 1.8.0)",
  });

const explainShape = {
  characters: z
    .number()
    .int()
    .meta(d(`Length of the minified document, as AWS counts an SCP (limit ${SCP_MAX_CHARACTERS})`)),
  skipped: z.array(SkippedService).meta(d("Approved services not in the document, and why")),
  implied: z
    .array(ImpliedService)
    .meta(
      d(
        "Catalogue services the document also allows through shared identifiers or the approved services' dependencies",
      ),
    ),
  dependencies: z
    .array(PolicyDependency)
    .meta(
      d(
        "What the approved services need besides their own identifiers (child and companion types, dependent APIs, actions under other prefixes), each with who needs it and the source; the document allows them (added in 1.7.0)",
      ),
    ),
  essentials: z.array(z.string()).meta(d("The account-operation essentials kept usable; empty with essentials=false")),
  unconfirmed: z
    .array(z.string())
    .meta(d("GCP: allowed API services not confirmed as supported by gcp.restrictServiceUsage; empty elsewhere")),
  notes: z.array(z.string()).meta(d("What to review before applying the document")),
  deployments: DeploymentCheck,
};

export const ScpExplained = z
  .object({
    policy: ScpDocument,
    policies: z
      .array(ScpDocument)
      .optional()
      .meta(d("allow-list: every SCP needed, when more than one; attach them all to the same target")),
    strategy: z.enum(SCP_STRATEGIES).meta(d("The strategy used")),
    ...explainShape,
  })
  .meta({ id: "ScpExplained", description: "POST /v1/policies/alpha-scp?explain=true" });

export const AzurePolicySetExplained = z
  .object({ policy: AzurePolicySetDocument, ...explainShape })
  .meta({ id: "AzurePolicySetExplained", description: "POST /v1/policies/beta-policy?explain=true" });

export const GcpOrgPolicyExplained = z
  .object({
    policy: GcpOrgPolicyDocument,
    policies: z
      .array(GcpOrgPolicyDocument)
      .optional()
      .meta(
        d(
          "With allowedLocations: both organization policies, gcp.restrictServiceUsage then gcp.resourceLocations; apply each (added in 1.11.0)",
        ),
      ),
    ...explainShape,
  })
  .meta({ id: "GcpOrgPolicyExplained", description: "POST /v1/policies/gamma-org-policy?explain=true" });

// The responses: the bare document, or the explained one with ?explain=true.
export const ScpResponse = z
  .union([ScpDocument, ScpExplained])
  .meta({ id: "ScpResponse", description: "The SCP, or with explain=true the SCP explained" });
export const AzurePolicySetResponse = z.union([AzurePolicySetDocument, AzurePolicySetExplained]).meta({
  id: "AzurePolicySetResponse",
  description: "The policy set definition, or with explain=true the definition explained",
});
export const GcpOrgPolicyResponse = z.union([GcpOrgPolicyDocument, GcpOrgPolicyExplained]).meta({
  id: "GcpOrgPolicyResponse",
  description: "The organization policy, or with explain=true the policy explained",
});

export type ScpDocumentT = z.infer<typeof ScpDocument>;
export type AzurePolicySetDocumentT = z.infer<typeof AzurePolicySetDocument>;
export type GcpOrgPolicyDocumentT = z.infer<typeof GcpOrgPolicyDocument>;
export type SkippedServiceT = z.infer<typeof SkippedService>;
export type ImpliedServiceT = z.infer<typeof ImpliedService>;
export type PolicyDependencyT = z.infer<typeof PolicyDependency>;
export type DeploymentCheckT = z.infer<typeof DeploymentCheck>;
export type ScpExplainedT = z.infer<typeof ScpExplained>;
export type AzurePolicySetExplainedT = z.infer<typeof AzurePolicySetExplained>;
export type GcpOrgPolicyExplainedT = z.infer<typeof GcpOrgPolicyExplained>;
