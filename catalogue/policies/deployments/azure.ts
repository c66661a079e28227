/**
 * Azure's hand-written deployment fixtures, each from a quickstart template or guide (see deployment.ts):
 * those whose case needs more than the template shows. The quickstarts that cover a case whole are
 * derived from their vendored files instead (azure-quickstarts.ts).
 */
import { CHECKED, type Deployment } from "./deployment.ts";

const QUICKSTARTS = "https://github.com/Azure/azure-quickstart-templates/blob";

export const AZURE: readonly Deployment[] = [
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
];
