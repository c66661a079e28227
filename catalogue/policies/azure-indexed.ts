/**
 * Catalogue services' own Azure resource types that the built-in 'Allowed resource types' policy
 * (mode Indexed) never evaluates: they have no location and tags, so Indexed mode skips them and a
 * service missing only these is still wholly usable (explain's implied `complete`). From the
 * vendored Bicep type index, catalogue/reference/azure-resource-types.txt (a type without the
 * `indexed` flag); tests/catalogue/policies-deployments.test.ts re-derives this list from the index
 * and the services' own types, so a change to either shows. Kept here as data, not read from the
 * index at run time, so that the policies can be computed in the browser.
 */
export const AZURE_NOT_EVALUATED_OWN_TYPES: readonly string[] = [
  "Microsoft.Authorization/policyAssignments",
  "Microsoft.Authorization/policyDefinitions",
  "Microsoft.Authorization/policySetDefinitions",
  "Microsoft.Authorization/roleAssignments",
  "Microsoft.Authorization/roleDefinitions",
  "Microsoft.AzureStack/registrations",
  "Microsoft.Blueprint/blueprintAssignments",
  "Microsoft.Blueprint/blueprints",
  "Microsoft.CognitiveServices/accounts/deployments",
  "Microsoft.Consumption/budgets",
  "Microsoft.CostManagement/exports",
  "Microsoft.DurableTask/schedulers/taskHubs",
  "Microsoft.Insights/diagnosticSettings",
  "Microsoft.ManagedServices/registrationAssignments",
  "Microsoft.ManagedServices/registrationDefinitions",
  "Microsoft.Management/managementGroups",
  "Microsoft.Migrate/migrateProjects",
  "Microsoft.Security/pricings",
  "Microsoft.Security/securityContacts",
  "Microsoft.SecurityInsights/onboardingStates",
  "Microsoft.Storage/storageAccounts/blobServices",
  "Microsoft.Storage/storageAccounts/fileServices",
  "Microsoft.Storage/storageAccounts/queueServices",
  "Microsoft.Storage/storageAccounts/tableServices",
];
