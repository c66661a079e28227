/** Azure's deployment fixtures, each from a quickstart template or guide (see deployment.ts). */
import { CHECKED, type Deployment } from "./deployment.ts";

const QUICKSTARTS = "https://github.com/Azure/azure-quickstart-templates/blob";

export const AZURE: readonly Deployment[] = [
  {
    id: "azure-application-gateway-waf",
    providerId: "azure",
    name: "Application Gateway with WAF",
    services: ["azure-application-gateway"],
    identifiers: [
      "Microsoft.Network/applicationGateways",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/9f73f726082754ae8d49abf5969faa182178d77a/quickstarts/microsoft.network/application-gateway-waf/azuredeploy.json`,
        backs:
          "the application-gateway-waf quickstart creates a Standard public IP, a virtual network with the gateway's subnet, and a WAF_v2 application gateway",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-aks-kubenet",
    providerId: "azure",
    name: "AKS cluster (kubenet) with its node resource group",
    services: ["azure-kubernetes-service"],
    identifiers: [
      "Microsoft.ContainerService/managedClusters",
      "Microsoft.Compute/virtualMachineScaleSets",
      "Microsoft.Compute/disks",
      "Microsoft.Network/virtualNetworks",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/routeTables",
      "Microsoft.Network/loadBalancers",
      "Microsoft.Network/publicIPAddresses",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/0886f4f9053514417025e72df35f36594a54edf6/quickstarts/microsoft.kubernetes/aks/main.bicep`,
        backs: "the aks quickstart creates a managed cluster with a system agent pool of Linux nodes",
        checked: CHECKED,
      },
      {
        url: "https://github.com/MicrosoftDocs/azure-docs/blob/00cf5866510b8b11ae7bd5a210d8158cb06b85fd/articles/aks/configure-kubenet.md",
        backs:
          "with kubenet AKS creates the virtual network and subnet, and when the cluster is created a network security group and a route table are created automatically",
        checked: CHECKED,
      },
      {
        url: "https://learn.microsoft.com/en-us/answers/questions/25725/why-are-two-resource-groups-created-with-aks.html",
        backs: "AKS creates virtual machine scale sets, virtual networks and managed disks in the node resource group",
        checked: CHECKED,
      },
      {
        url: "https://learn.microsoft.com/es-es/azure/aks/egress",
        backs:
          "an AKS cluster uses a public Standard load balancer and a public IP address for outbound traffic by default",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-functions-flex-consumption",
    providerId: "azure",
    name: "Azure Functions on the Flex Consumption plan",
    services: ["azure-functions"],
    identifiers: [
      "Microsoft.Web/serverfarms",
      "Microsoft.Web/sites",
      "Microsoft.Storage/storageAccounts",
      "Microsoft.Insights/components",
      "Microsoft.OperationalInsights/workspaces",
    ],
    notEvaluated: [
      "Microsoft.Storage/storageAccounts/blobServices",
      "Microsoft.Storage/storageAccounts/blobServices/containers",
      "Microsoft.Authorization/roleAssignments",
    ],
    sources: [
      {
        url: "https://github.com/Azure-Samples/azure-functions-flex-consumption-samples/blob/5e0699a85850cf1586bfdc9ae1c96fef87303a77/IaC/bicep/main.bicep",
        backs:
          "Microsoft's Flex Consumption Bicep sample: a monitoring module with a Log Analytics workspace and Application Insights, a storage account with a deployment blob container, and the function app",
        checked: CHECKED,
      },
      {
        url: "https://github.com/Azure-Samples/azure-functions-flex-consumption-samples/blob/90ddf70938a959133c1c8a7fdb16d62f36c5ade1/IaC/bicep/core/host/function.bicep",
        backs:
          "the FC1 (FlexConsumption) plan, the function app and a Storage Blob Data Owner role assignment for its identity",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-vm-simple-windows",
    providerId: "azure",
    name: "Windows virtual machine",
    services: ["azure-virtual-machines"],
    identifiers: [
      "Microsoft.Compute/virtualMachines",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
      "Microsoft.Storage/storageAccounts",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/1782ba3913c34b61b27ee4d8d1ea2e5a78ea8634/quickstarts/microsoft.compute/vm-simple-windows/main.bicep`,
        backs:
          "the vm-simple-windows quickstart creates a public IP, a network security group, a virtual network, a network interface and a boot-diagnostics storage account beside the VM",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-bastion",
    providerId: "azure",
    name: "Azure Bastion host",
    services: ["azure-bastion"],
    identifiers: [
      "Microsoft.Network/bastionHosts",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/0342841e71ad6e4cd3d60e08dd0fca67e65c6bfe/quickstarts/microsoft.network/azure-bastion/main.bicep`,
        backs: "a Bastion host with its Standard public IP and a virtual network with an AzureBastionSubnet",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-vpn-gateway-site-to-site",
    providerId: "azure",
    name: "Site-to-site VPN gateway",
    services: ["azure-vpn-gateway"],
    identifiers: [
      "Microsoft.Network/virtualNetworkGateways",
      "Microsoft.Network/localNetworkGateways",
      "Microsoft.Network/connections",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/612d6da72f6b86944d399fc9cd4766274cb74dee/quickstarts/microsoft.network/site-to-site-vpn-create/azuredeploy.json`,
        backs:
          "the site-to-site-vpn-create quickstart: a local network gateway, a virtual network with a GatewaySubnet, a public IP, the VPN gateway and its connection",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-nat-gateway",
    providerId: "azure",
    name: "NAT gateway for a VM's outbound traffic",
    services: ["azure-nat-gateway", "azure-virtual-machines"],
    identifiers: [
      "Microsoft.Network/natGateways",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/virtualNetworks",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Compute/virtualMachines",
    ],
    notEvaluated: ["Microsoft.Network/virtualNetworks/subnets"],
    sources: [
      {
        url: `${QUICKSTARTS}/007ed0f8b0c2310a90742b9ee379c633172b4807/quickstarts/microsoft.network/nat-gateway-1-vm/main.bicep`,
        backs:
          "the nat-gateway-1-vm quickstart: a StandardV2 public IP and NAT gateway, a virtual network whose subnet uses it, a network security group, a NIC and a Linux VM",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-container-apps",
    providerId: "azure",
    name: "Container app with its environment",
    services: ["azure-container-apps"],
    identifiers: [
      "Microsoft.App/containerApps",
      "Microsoft.App/managedEnvironments",
      "Microsoft.OperationalInsights/workspaces",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/197cb4a515514a43dfce00ed19a4c85b31e7d671/quickstarts/microsoft.app/container-app-create/main.bicep`,
        backs:
          "the container-app-create quickstart: a Log Analytics workspace, a container app environment sending its logs there, and the container app",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-container-app-acr",
    providerId: "azure",
    name: "Container app pulling from a container registry seeded by a deployment script",
    services: ["azure-container-apps", "azure-container-registry", "azure-log-analytics"],
    identifiers: [
      "Microsoft.App/containerApps",
      "Microsoft.App/managedEnvironments",
      "Microsoft.ContainerRegistry/registries",
      "Microsoft.OperationalInsights/workspaces",
      "Microsoft.ManagedIdentity/userAssignedIdentities",
      "Microsoft.Resources/deploymentScripts",
      "Microsoft.Storage/storageAccounts",
      "Microsoft.ContainerInstance/containerGroups",
    ],
    notEvaluated: ["Microsoft.Authorization/roleAssignments"],
    sources: [
      {
        url: `${QUICKSTARTS}/1a6085fb5c0db31f7d7439db8b16f0e01e7ea93a/quickstarts/microsoft.app/container-app-acr/main.bicep`,
        backs:
          "the container-app-acr quickstart: a Log Analytics workspace, a container registry (module), a user-assigned identity given AcrPull, a container app environment logging to the workspace, and the container app pulling its image from the registry",
        checked: CHECKED,
      },
      {
        url: `${QUICKSTARTS}/1a6085fb5c0db31f7d7439db8b16f0e01e7ea93a/quickstarts/microsoft.app/container-app-acr/import-acr.bicep`,
        backs:
          "the import-acr module: a user-assigned identity, a Contributor role assignment on the registry and an AzureCLI deployment script (Microsoft.Resources/deploymentScripts) running az acr import",
        checked: CHECKED,
      },
      {
        url: "https://learn.microsoft.com/azure/azure-resource-manager/templates/deployment-script-template",
        backs:
          "the deployment script service needs a storage account and a container instance to run the script, and creates them unless an existing storage account is named",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-cosmos-db-sql",
    providerId: "azure",
    name: "Cosmos DB for NoSQL account, database and container",
    services: ["azure-cosmos-db"],
    identifiers: [
      "Microsoft.DocumentDB/databaseAccounts",
      "Microsoft.DocumentDB/databaseAccounts/sqlDatabases",
      "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/18ad1b6765319be417384e3a0eebee4996773200/quickstarts/microsoft.documentdb/cosmosdb-sql/main.bicep`,
        backs: "the cosmosdb-sql quickstart: a database account, a SQL database and a container",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-event-hubs",
    providerId: "azure",
    name: "Event Hubs namespace and event hub",
    services: ["azure-event-hubs"],
    identifiers: ["Microsoft.EventHub/namespaces"],
    notEvaluated: ["Microsoft.EventHub/namespaces/eventhubs"],
    sources: [
      {
        url: `${QUICKSTARTS}/dda57b64fbf26880d8194d6676b2862b35424c23/quickstarts/microsoft.eventhub/eventhubs-create-namespace-and-eventhub/main.bicep`,
        backs: "the eventhubs-create-namespace-and-eventhub quickstart: a namespace and an event hub in it",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-front-door-standard",
    providerId: "azure",
    name: "Front Door Standard/Premium",
    services: ["azure-front-door"],
    identifiers: ["Microsoft.Cdn/profiles", "Microsoft.Cdn/profiles/afdEndpoints"],
    notEvaluated: [
      "Microsoft.Cdn/profiles/originGroups",
      "Microsoft.Cdn/profiles/originGroups/origins",
      "Microsoft.Cdn/profiles/afdEndpoints/routes",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/53e695de91f71d3d17993d315bc4ab847c19300f/quickstarts/microsoft.cdn/front-door-standard-premium/main.bicep`,
        backs:
          "the front-door-standard-premium quickstart: a profile, an endpoint, an origin group, an origin and a route",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-storage-account",
    providerId: "azure",
    name: "Storage account for blobs",
    services: ["azure-blob-storage"],
    identifiers: ["Microsoft.Storage/storageAccounts"],
    sources: [
      {
        url: `${QUICKSTARTS}/670a1b2f1d356f0cd56e5b0e1d3406f75b921733/quickstarts/microsoft.storage/storage-account-create/main.bicep`,
        backs: "the storage-account-create quickstart: one StorageV2 storage account",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "azure-key-vault-private-endpoint",
    providerId: "azure",
    name: "Key Vault reached through a private endpoint",
    services: [
      "azure-key-vault",
      "azure-private-link",
      "azure-dns",
      "azure-virtual-machines",
      "azure-blob-storage",
      "azure-log-analytics",
    ],
    identifiers: [
      "Microsoft.KeyVault/vaults",
      "Microsoft.Network/privateEndpoints",
      "Microsoft.Network/privateDnsZones",
      "Microsoft.Network/virtualNetworks",
      "Microsoft.Network/networkSecurityGroups",
      "Microsoft.Network/publicIPAddresses",
      "Microsoft.Network/networkInterfaces",
      "Microsoft.Compute/virtualMachines",
      "Microsoft.Compute/virtualMachines/extensions",
      "Microsoft.OperationalInsights/workspaces",
      "Microsoft.Storage/storageAccounts",
    ],
    notEvaluated: [
      "Microsoft.KeyVault/vaults/secrets",
      "Microsoft.Network/privateEndpoints/privateDnsZoneGroups",
      "Microsoft.Authorization/roleAssignments",
    ],
    sources: [
      {
        url: `${QUICKSTARTS}/2654b533f6736e51dc15feb5af5a48c008102182/quickstarts/microsoft.keyvault/key-vault-private-endpoint/README.md`,
        backs:
          "the key-vault-private-endpoint quickstart deploys a virtual network, a network security group, a Linux VM with a public IP, a NIC, a custom script extension and a role assignment, a Log Analytics workspace, a Key Vault with three secrets, a blob storage account, two private DNS zones, two private endpoints and their private DNS zone groups",
        checked: CHECKED,
      },
    ],
  },
];
