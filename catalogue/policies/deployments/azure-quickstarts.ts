/**
 * Azure's deployment fixtures derived from the templates vendored in tests/fixtures/templates/azure/
 * (tests/fixtures/templates/deployments.ts writes this file; tests/catalogue/policies-deployments.test.ts
 * checks it still equals that derivation). Generated: do not edit by hand.
 */
import type { Deployment } from "./deployment.ts";

export const AZURE_QUICKSTARTS: readonly Deployment[] = [
  {
    id: "azure-quickstart-application-gateway-waf",
    providerId: "azure",
    name: "Application Gateway with WAF (quickstart)",
    services: ["azure-application-gateway"],
    identifiers: [
      "Microsoft.Network/applicationGateways",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/9f73f726082754ae8d49abf5969faa182178d77a/quickstarts/microsoft.network/application-gateway-waf/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-application-gateway-waf.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-azure-bastion",
    providerId: "azure",
    name: "Azure Bastion host (quickstart)",
    services: ["azure-bastion"],
    identifiers: [
      "Microsoft.Network/bastionHosts",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/2d975e22054ac8a90b5b669d87c694d072351b5f/quickstarts/microsoft.network/azure-bastion/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-azure-bastion.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-site-to-site-vpn-create",
    providerId: "azure",
    name: "Site-to-site VPN gateway (quickstart)",
    services: ["azure-vpn-gateway"],
    identifiers: [
      "Microsoft.Network/connections",
      "Microsoft.Network/localNetworkGateways",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworkGateways",
      "Microsoft.Network/virtualNetworks",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/612d6da72f6b86944d399fc9cd4766274cb74dee/quickstarts/microsoft.network/site-to-site-vpn-create/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-site-to-site-vpn-create.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-container-app-create",
    providerId: "azure",
    name: "Container app with its environment (quickstart)",
    services: ["azure-container-apps"],
    identifiers: [
      "Microsoft.App/containerApps",
      "Microsoft.App/managedEnvironments",
      "Microsoft.OperationalInsights/workspaces",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/e2f22eca74f4bba18b0365f0f5445af9b7edfb78/quickstarts/microsoft.app/container-app-create/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-container-app-create.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-cosmosdb-sql",
    providerId: "azure",
    name: "Cosmos DB for NoSQL account, database and container (quickstart)",
    services: ["azure-cosmos-db"],
    identifiers: [
      "Microsoft.DocumentDB/databaseAccounts",
      "Microsoft.DocumentDB/databaseAccounts/sqlDatabases",
      "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/9075995bfbefd5d59898e7d1e9e573eb47086046/quickstarts/microsoft.documentdb/cosmosdb-sql/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-cosmosdb-sql.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-eventhubs-create-namespace-and-eventhub",
    providerId: "azure",
    name: "Event Hubs namespace and event hub (quickstart)",
    services: ["azure-event-hubs"],
    identifiers: ["Microsoft.EventHub/namespaces"],
    notEvaluated: ["Microsoft.EventHub/namespaces/eventhubs"],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/a575b4f7c7d65f852f85226d1a3587a39a75fca0/quickstarts/microsoft.eventhub/eventhubs-create-namespace-and-eventhub/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-eventhubs-create-namespace-and-eventhub.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-front-door-standard-premium",
    providerId: "azure",
    name: "Front Door Standard/Premium (quickstart)",
    services: ["azure-front-door"],
    identifiers: ["Microsoft.Cdn/profiles", "Microsoft.Cdn/profiles/afdEndpoints"],
    notEvaluated: [
      "Microsoft.Cdn/profiles/afdEndpoints/routes",
      "Microsoft.Cdn/profiles/originGroups",
      "Microsoft.Cdn/profiles/originGroups/origins",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/8a7e4b426afacf0708aaae8f331e244cbd94e6b4/quickstarts/microsoft.cdn/front-door-standard-premium/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-front-door-standard-premium.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-storage-account-create",
    providerId: "azure",
    name: "Storage account (quickstart)",
    services: ["azure-blob-storage"],
    identifiers: ["Microsoft.Storage/storageAccounts"],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/c070d8238aaf55ca0acb1fd2e41bfb59b53da7be/quickstarts/microsoft.storage/storage-account-create/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-storage-account-create.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-vm-simple-windows",
    providerId: "azure",
    name: "Windows virtual machine (quickstart)",
    services: ["azure-virtual-machines"],
    identifiers: [
      "Microsoft.Compute/virtualMachines",
      "Microsoft.Compute/virtualMachines/extensions",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
      "Microsoft.Storage/storageAccounts",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/a575b4f7c7d65f852f85226d1a3587a39a75fca0/quickstarts/microsoft.compute/vm-simple-windows/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-vm-simple-windows.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-nat-gateway-1-vm",
    providerId: "azure",
    name: "NAT gateway for a VM's outbound traffic (quickstart)",
    services: ["azure-nat-gateway", "azure-virtual-machines"],
    identifiers: [
      "Microsoft.Compute/virtualMachines",
      "Microsoft.Network/natGateways",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
    ],
    notEvaluated: ["Microsoft.Network/virtualNetworks/subnets"],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/8a7e4b426afacf0708aaae8f331e244cbd94e6b4/quickstarts/microsoft.network/nat-gateway-1-vm/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-nat-gateway-1-vm.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-quickstart-key-vault-private-endpoint",
    providerId: "azure",
    name: "Key Vault reached through a private endpoint (quickstart)",
    services: [
      "azure-key-vault",
      "azure-private-link",
      "azure-dns",
      "azure-virtual-machines",
      "azure-blob-storage",
      "azure-log-analytics",
    ],
    identifiers: [
      "Microsoft.Compute/virtualMachines",
      "Microsoft.Compute/virtualMachines/extensions",
      "Microsoft.KeyVault/vaults",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/privateDnsZones",
      "Microsoft.Network/privateDnsZones/virtualNetworkLinks",
      "Microsoft.Network/privateEndpoints",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
      "Microsoft.OperationalInsights/workspaces",
      "Microsoft.Storage/storageAccounts",
    ],
    notEvaluated: [
      "Microsoft.KeyVault/vaults/secrets",
      "Microsoft.Network/privateEndpoints/privateDnsZoneGroups",
      "Microsoft.OperationalInsights/workspaces/dataSources",
    ],
    sources: [
      {
        url: "https://github.com/Azure/azure-quickstart-templates/blob/050c4fcecd69c835dfe05d43751b122a0d47a74d/quickstarts/microsoft.keyvault/key-vault-private-endpoint/azuredeploy.json",
        backs:
          "the quickstart's own ARM template, vendored as tests/fixtures/templates/azure/quickstart-key-vault-private-endpoint.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
  {
    id: "azure-functions-flex-consumption",
    providerId: "azure",
    name: "Azure Functions on the Flex Consumption plan (vendor sample)",
    services: ["azure-functions"],
    identifiers: [
      "Microsoft.Insights/components",
      "microsoft.operationalinsights/workspaces",
      "Microsoft.Storage/storageAccounts",
      "Microsoft.Web/serverfarms",
      "Microsoft.Web/sites",
    ],
    notEvaluated: [
      "Microsoft.Authorization/roleAssignments",
      "Microsoft.Storage/storageAccounts/blobServices",
      "Microsoft.Storage/storageAccounts/blobServices/containers",
    ],
    sources: [
      {
        url: "https://github.com/Azure-Samples/azure-functions-flex-consumption-samples/blob/9519a367daa710d4856f020fd905cef72b629f37/IaC/armtemplate/azuredeploy.json",
        backs:
          "the vendor sample's own ARM template, vendored as tests/fixtures/templates/azure/flex-consumption-azuredeploy.json: the types it creates, read by the deployment check's reader",
        checked: "2026-11-27",
      },
    ],
  },
];
