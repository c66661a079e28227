/**
 * Deployment fixtures (decisions.md#approved-means-usable, "Approved means deployable"): common workloads, each written from
 * the vendor's own quickstart, template or guide, with what it creates or calls in the vendor's
 * policy language and the catalogue services a platform team would approve for it. Explain mode
 * checks an approved list against them (policies/documents.ts, `deployments`), and
 * tests/catalogue/policies-deployments.test.ts deploys each in thought against the document
 * generated from its services alone: every Azure type allowed by the initiative, every Google API
 * in allowedValues, every AWS action Allowed by @cloud-copilot/iam-simulate. docs/policies.md lists
 * them with their sources.
 *
 * Plain data with no I/O, so the site can run the check in the browser too.
 */

export interface DeploymentSource {
  /** The vendor page or file, pinned to a commit where it lives in a repository. */
  readonly url: string;
  /** What it shows, in our words. */
  readonly backs: string;
  /** The day the source's content was read. */
  readonly checked: string;
}

export interface Deployment {
  /** kebab-case, unique. */
  readonly id: string;
  readonly providerId: "aws" | "azure" | "gcp";
  /** What a reader calls the workload. */
  readonly name: string;
  /** The catalogue services (of providerId) a platform team approves to run it. */
  readonly services: readonly string[];
  /**
   * What it creates or calls: Azure resource types the built-in 'Allowed resource types' (Indexed
   * mode) evaluates, Google API service names, AWS IAM actions.
   */
  readonly identifiers: readonly string[];
  /** Azure only: types it creates that Indexed mode never evaluates (no location and tags). */
  readonly notEvaluated?: readonly string[];
  readonly sources: readonly DeploymentSource[];
}

const CHECKED = "2026-11-26";
const QUICKSTARTS = "https://github.com/Azure/azure-quickstart-templates/blob";

const AZURE: readonly Deployment[] = [
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

const GCP_SOURCES = {
  gkeHelloApp: {
    url: "https://cloud.google.com/kubernetes-engine/docs/tutorials/hello-app",
    backs:
      "deploying a containerised web application to GKE: enable the Artifact Registry and Google Kubernetes Engine APIs, push the image to Artifact Registry",
    checked: CHECKED,
  },
  gkeNodes: {
    url: "https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters/create",
    backs: "a GKE cluster consists of Compute Engine instances in the project's network",
    checked: CHECKED,
  },
  buildDeployRun: {
    url: "https://cloud.google.com/build/docs/deploying-builds/deploy-cloud-run",
    backs:
      "deploying to Cloud Run with Cloud Build: enable the Cloud Build, Cloud Run, Artifact Registry and Resource Manager APIs; the Cloud Build service account needs Storage Admin to read and write Cloud Storage",
    checked: CHECKED,
  },
  runSourceDeploy: {
    url: "https://cloud.google.com/run/docs/deploying-source-code",
    backs:
      "gcloud run deploy --source builds the source with Cloud Build (buildpacks) and stores the image in an Artifact Registry repository, cloud-run-source-deploy, created if missing",
    checked: CHECKED,
  },
  deployFunctions: {
    url: "https://cloud.google.com/run/docs/deploy-functions",
    backs:
      "before deploying a Cloud Run function, enable the Artifact Registry, Cloud Build, Cloud Run Admin and Cloud Logging APIs",
    checked: CHECKED,
  },
  pubsubTriggers: {
    url: "https://cloud.google.com/functions/docs/calling/pubsub",
    backs:
      "Pub/Sub triggers for Cloud Run services and functions: enable the Artifact Registry, Cloud Build, Cloud Run Admin, Cloud Logging and Pub/Sub APIs, and the Eventarc API for an Eventarc-based trigger",
    checked: CHECKED,
  },
} as const;

const GCP: readonly Deployment[] = [
  {
    id: "gcp-gke-hello-app",
    providerId: "gcp",
    name: "GKE: deploy a containerised web application",
    services: ["gcp-gke"],
    identifiers: ["container.googleapis.com", "artifactregistry.googleapis.com", "compute.googleapis.com"],
    sources: [GCP_SOURCES.gkeHelloApp, GCP_SOURCES.gkeNodes],
  },
  {
    id: "gcp-gke-autopilot",
    providerId: "gcp",
    name: "GKE Autopilot cluster",
    services: ["gcp-gke"],
    identifiers: ["container.googleapis.com", "compute.googleapis.com"],
    sources: [
      {
        url: "https://cloud.google.com/kubernetes-engine/docs/how-to/creating-an-autopilot-cluster",
        backs:
          "creating an Autopilot cluster: enable the Google Kubernetes Engine API; GKE manages the nodes, and by default runs them as the Compute Engine default service account",
        checked: CHECKED,
      },
      GCP_SOURCES.gkeNodes,
    ],
  },
  {
    id: "gcp-vertex-ai-workbench",
    providerId: "gcp",
    name: "Vertex AI Workbench instance in its own VPC",
    services: ["gcp-vertex-ai"],
    identifiers: ["notebooks.googleapis.com", "compute.googleapis.com"],
    sources: [
      {
        url: "https://codelabs.developers.google.com/codelabs/vertex-notebook",
        backs:
          "Google's codelab for a secure Workbench notebook: the instance is a deep learning Compute Engine VM with JupyterLab, deployed in a VPC with a Cloud Router and Cloud NAT",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-cloud-run-cloud-build",
    providerId: "gcp",
    name: "Cloud Run service deployed by Cloud Build",
    services: ["gcp-cloud-run"],
    identifiers: [
      "run.googleapis.com",
      "cloudbuild.googleapis.com",
      "artifactregistry.googleapis.com",
      "cloudresourcemanager.googleapis.com",
      "storage.googleapis.com",
    ],
    sources: [GCP_SOURCES.buildDeployRun],
  },
  {
    id: "gcp-cloud-run-source-deploy",
    providerId: "gcp",
    name: "Cloud Run service deployed from source",
    services: ["gcp-cloud-run"],
    identifiers: ["run.googleapis.com", "cloudbuild.googleapis.com", "artifactregistry.googleapis.com"],
    sources: [GCP_SOURCES.runSourceDeploy],
  },
  {
    id: "gcp-cloud-run-functions",
    providerId: "gcp",
    name: "Cloud Run function",
    services: ["gcp-cloud-run-functions"],
    identifiers: [
      "artifactregistry.googleapis.com",
      "cloudbuild.googleapis.com",
      "run.googleapis.com",
      "logging.googleapis.com",
    ],
    sources: [GCP_SOURCES.deployFunctions],
  },
  {
    id: "gcp-pubsub-push-cloud-run",
    providerId: "gcp",
    name: "Pub/Sub pushing to a Cloud Run service",
    services: ["gcp-cloud-run", "gcp-pubsub"],
    identifiers: [
      "artifactregistry.googleapis.com",
      "cloudbuild.googleapis.com",
      "run.googleapis.com",
      "logging.googleapis.com",
      "pubsub.googleapis.com",
    ],
    sources: [GCP_SOURCES.pubsubTriggers],
  },
  {
    id: "gcp-functions-eventarc-pubsub",
    providerId: "gcp",
    name: "Cloud Run function behind an Eventarc Pub/Sub trigger",
    services: ["gcp-cloud-run-functions", "gcp-eventarc", "gcp-pubsub"],
    identifiers: [
      "artifactregistry.googleapis.com",
      "cloudbuild.googleapis.com",
      "run.googleapis.com",
      "logging.googleapis.com",
      "pubsub.googleapis.com",
      "eventarc.googleapis.com",
    ],
    sources: [GCP_SOURCES.pubsubTriggers],
  },
  {
    id: "gcp-cloud-sql-private-ip",
    providerId: "gcp",
    name: "Cloud SQL for PostgreSQL with a private IP",
    services: ["gcp-cloud-sql-postgresql"],
    identifiers: ["sqladmin.googleapis.com", "servicenetworking.googleapis.com", "compute.googleapis.com"],
    sources: [
      {
        url: "https://cloud.google.com/sql/docs/postgres/configure-private-ip",
        backs:
          "a private IP instance needs the Service Networking API enabled, and private services access through compute.networks.list, compute.addresses.create, compute.addresses.list and servicenetworking.services.addPeering",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-dataform-bigquery",
    providerId: "gcp",
    name: "Dataform workflow run in BigQuery",
    services: ["gcp-dataform"],
    identifiers: ["dataform.googleapis.com", "bigquery.googleapis.com"],
    sources: [
      {
        url: "https://cloud.google.com/dataform/docs/quickstart-create-workflow",
        backs: "creating and running a Dataform workflow in BigQuery starts by enabling the BigQuery and Dataform APIs",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-dataflow",
    providerId: "gcp",
    name: "Dataflow job",
    services: ["gcp-dataflow"],
    identifiers: ["dataflow.googleapis.com", "compute.googleapis.com", "storage.googleapis.com"],
    sources: [
      {
        url: "https://cloud.google.com/dataflow/docs/request-quotas",
        backs:
          "the Dataflow service starts Compute Engine workers and uses the project's Cloud Storage buckets for I/O and staging",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-cloud-composer",
    providerId: "gcp",
    name: "Cloud Composer environment",
    services: ["gcp-cloud-composer"],
    identifiers: ["composer.googleapis.com", "container.googleapis.com", "compute.googleapis.com"],
    sources: [
      {
        url: "https://cloud.google.com/composer/docs/concepts/overview",
        backs:
          "Cloud Composer environments are Airflow deployments based on Google Kubernetes Engine in a Compute Engine zone",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-three-tier-web-app",
    providerId: "gcp",
    name: "Three-tier web app: Cloud Run, Cloud SQL for PostgreSQL, Memorystore for Redis, Serverless VPC Access",
    services: ["gcp-cloud-run", "gcp-cloud-sql-postgresql", "gcp-memorystore-redis", "gcp-vpc"],
    identifiers: [
      "run.googleapis.com",
      "sqladmin.googleapis.com",
      "redis.googleapis.com",
      "compute.googleapis.com",
      "servicenetworking.googleapis.com",
      "vpcaccess.googleapis.com",
    ],
    sources: [
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-google-three-tier-web-app/blob/270ca7c3c825de1686b0763837994b99f0b59330/main.tf",
        backs:
          "the solution's main.tf: a VPC network, a global address and a Service Networking connection (private services access), a Serverless VPC Access connector, a Memorystore for Redis instance, a Cloud SQL for PostgreSQL instance with user and database, and two Cloud Run services, the API one reaching Redis and SQL through the connector; it also enables cloudapis, sql-component, cloudbuild and storage, which none of its resources calls",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-ml-image-annotation-gcf",
    providerId: "gcp",
    name: "Image annotation: Cloud Run functions calling the Vision API, triggered by Cloud Storage through Eventarc",
    services: ["gcp-cloud-run-functions", "gcp-vision-api", "gcp-cloud-storage", "gcp-eventarc", "gcp-pubsub"],
    identifiers: [
      "cloudfunctions.googleapis.com",
      "run.googleapis.com",
      "cloudbuild.googleapis.com",
      "artifactregistry.googleapis.com",
      "storage.googleapis.com",
      "eventarc.googleapis.com",
      "pubsub.googleapis.com",
      "vision.googleapis.com",
    ],
    sources: [
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-ml-image-annotation-gcf/blob/0c1aca73087f3efafcbbd385598c90e66b835ca0/infra/main.tf",
        backs:
          "the solution enables the Cloud Functions, Cloud Run, Cloud Build, Artifact Registry, Pub/Sub, Eventarc, Cloud Storage and Vision APIs (and compute, appengine and secretmanager, which none of its resources calls) and grants Eventarc's service agent its role",
        checked: CHECKED,
      },
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-ml-image-annotation-gcf/blob/0c1aca73087f3efafcbbd385598c90e66b835ca0/infra/modules/cloudfunctions/main.tf",
        backs:
          "two 2nd-generation functions (google_cloudfunctions2_function) built from source uploaded to a bucket, one behind HTTP, one triggered by google.cloud.storage.object.v1.finalized events, with the Cloud Storage service agent allowed to publish to Pub/Sub",
        checked: CHECKED,
      },
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-ml-image-annotation-gcf/blob/0c1aca73087f3efafcbbd385598c90e66b835ca0/infra/modules/storage/main.tf",
        backs: "the input and annotation buckets",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "gcp-ecommerce-microservices-on-gke",
    providerId: "gcp",
    name: "E-commerce microservices on three GKE clusters behind Multi Cluster Ingress",
    services: ["gcp-gke", "gcp-cloud-load-balancing"],
    identifiers: [
      "container.googleapis.com",
      "compute.googleapis.com",
      "gkehub.googleapis.com",
      "multiclusteringress.googleapis.com",
      "multiclusterservicediscovery.googleapis.com",
      "trafficdirector.googleapis.com",
    ],
    sources: [
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-ecommerce-microservices-on-gke/blob/b25304fe6867c86ae9ee7e5b49fb8e05b39b0c6a/infra/main.tf",
        backs:
          "three GKE clusters; the solution enables the Kubernetes Engine API and, for its multi-cluster setup, the GKE Hub, Multi Cluster Ingress, Multi Cluster Service Discovery and Traffic Director APIs",
        checked: CHECKED,
      },
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-ecommerce-microservices-on-gke/blob/b25304fe6867c86ae9ee7e5b49fb8e05b39b0c6a/infra/cluster_fleet_memberships.tf",
        backs: "each cluster joins the fleet (google_gke_hub_membership)",
        checked: CHECKED,
      },
      {
        url: "https://github.com/GoogleCloudPlatform/terraform-ecommerce-microservices-on-gke/blob/b25304fe6867c86ae9ee7e5b49fb8e05b39b0c6a/infra/multi_cluster_service.tf",
        backs:
          "a global address for the ingress and the fleet's multi-cluster ingress feature (google_gke_hub_feature)",
        checked: CHECKED,
      },
    ],
  },
];

const EKS_NODE_ROLE: DeploymentSource[] = [
  {
    url: "https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AmazonEKSWorkerNodePolicy.html",
    backs: "the node role's AmazonEKSWorkerNodePolicy: ec2:Describe* actions and eks:DescribeCluster",
    checked: CHECKED,
  },
  {
    url: "https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AmazonEKS_CNI_Policy.html",
    backs:
      "AmazonEKS_CNI_Policy (v5), the Amazon VPC CNI plugin's permissions to give pods addresses: ec2:AssignPrivateIpAddresses, AttachNetworkInterface, CreateNetworkInterface, DeleteNetworkInterface, DescribeInstances, DescribeTags, DescribeNetworkInterfaces, DescribeInstanceTypes, DescribeSubnets, DetachNetworkInterface, ModifyNetworkInterfaceAttribute, UnassignPrivateIpAddresses, and ec2:CreateTags on network interfaces",
    checked: CHECKED,
  },
  {
    url: "https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AmazonEC2ContainerRegistryReadOnly.html",
    backs:
      "AmazonEC2ContainerRegistryReadOnly, attached to EKS node roles to pull images: ecr:GetAuthorizationToken, BatchCheckLayerAvailability, GetDownloadUrlForLayer and BatchGetImage among its read actions",
    checked: CHECKED,
  },
];

const AWS: readonly Deployment[] = [
  {
    id: "aws-eks-managed-node-group",
    providerId: "aws",
    name: "EKS cluster with a managed node group",
    services: ["aws-eks"],
    identifiers: [
      "eks:CreateCluster",
      "eks:CreateNodegroup",
      "eks:DescribeCluster",
      "ec2:DescribeInstances",
      "ec2:DescribeInstanceTypes",
      "ec2:DescribeRouteTables",
      "ec2:DescribeSecurityGroups",
      "ec2:DescribeSubnets",
      "ec2:DescribeVolumes",
      "ec2:DescribeVpcs",
      "ec2:AssignPrivateIpAddresses",
      "ec2:AttachNetworkInterface",
      "ec2:CreateNetworkInterface",
      "ec2:DeleteNetworkInterface",
      "ec2:DescribeTags",
      "ec2:DescribeNetworkInterfaces",
      "ec2:DetachNetworkInterface",
      "ec2:ModifyNetworkInterfaceAttribute",
      "ec2:UnassignPrivateIpAddresses",
      "ec2:CreateTags",
      "ecr:GetAuthorizationToken",
      "ecr:BatchCheckLayerAvailability",
      "ecr:GetDownloadUrlForLayer",
      "ecr:BatchGetImage",
    ],
    sources: EKS_NODE_ROLE,
  },
  {
    id: "aws-ecs-fargate-service",
    providerId: "aws",
    name: "ECS service on Fargate pulling from ECR, logging with awslogs",
    services: ["aws-ecs"],
    identifiers: [
      "ecs:CreateCluster",
      "ecs:RegisterTaskDefinition",
      "ecs:CreateService",
      "ecr:GetAuthorizationToken",
      "ecr:BatchCheckLayerAvailability",
      "ecr:GetDownloadUrlForLayer",
      "ecr:BatchGetImage",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/AmazonECS/latest/developerguide/task_execution_IAM_role.html",
        backs:
          "the task execution role lets the ECS and Fargate agents pull images from Amazon ECR and send logs with awslogs: AmazonECSTaskExecutionRolePolicy allows ecr:GetAuthorizationToken, BatchCheckLayerAvailability, GetDownloadUrlForLayer, BatchGetImage, logs:CreateLogStream and PutLogEvents",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-rds-console",
    providerId: "aws",
    name: "RDS for PostgreSQL instance created in the console",
    services: ["aws-rds-postgresql"],
    identifiers: [
      "rds:CreateDBSubnetGroup",
      "rds:CreateDBInstance",
      "rds:DescribeDBInstances",
      "ec2:DescribeAccountAttributes",
      "ec2:DescribeAvailabilityZones",
      "ec2:DescribeInternetGateways",
      "ec2:DescribeSecurityGroups",
      "ec2:DescribeSubnets",
      "ec2:DescribeVpcAttribute",
      "ec2:DescribeVpcs",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AmazonRDSReadOnlyAccess.html",
        backs:
          "AmazonRDSReadOnlyAccess (v7), read access to RDS through the console, pairs rds:Describe* with the EC2 reads the console's VPC, subnet and security-group pickers use: ec2:DescribeAccountAttributes, DescribeAvailabilityZones, DescribeInternetGateways, DescribeSecurityGroups, DescribeSubnets, DescribeVpcAttribute, DescribeVpcs",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-verified-access",
    providerId: "aws",
    name: "Verified Access instance, trust provider, group and endpoint",
    services: ["aws-verified-access"],
    identifiers: [
      "ec2:CreateVerifiedAccessInstance",
      "ec2:CreateVerifiedAccessTrustProvider",
      "ec2:AttachVerifiedAccessTrustProvider",
      "ec2:CreateVerifiedAccessGroup",
      "ec2:CreateVerifiedAccessEndpoint",
      "verified-access:AllowVerifiedAccess",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/client/ec2/command/CreateVerifiedAccessInstanceCommand",
        backs:
          "Verified Access instances, trust providers, groups and endpoints are created through the Amazon EC2 API",
        checked: CHECKED,
      },
      {
        url: "https://docs.aws.amazon.com/verified-access/latest/ug/security_iam_id-based-policy-examples.html",
        backs:
          "to create a Verified Access instance a principal needs one more statement, for the permission-only action verified-access:AllowVerifiedAccess (see the Service Authorization Reference for AWS Verified Access)",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-lambda-function",
    providerId: "aws",
    name: "Lambda function writing its logs",
    services: ["aws-lambda"],
    identifiers: [
      "lambda:CreateFunction",
      "lambda:InvokeFunction",
      "logs:CreateLogGroup",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSLambdaBasicExecutionRole.html",
        backs: "a function's execution role writes its logs with logs:CreateLogGroup, CreateLogStream and PutLogEvents",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-lambda-behind-alb",
    providerId: "aws",
    name: "Lambda function behind an Application Load Balancer",
    services: ["aws-elb", "aws-lambda"],
    identifiers: [
      "elasticloadbalancing:CreateLoadBalancer",
      "elasticloadbalancing:CreateTargetGroup",
      "elasticloadbalancing:RegisterTargets",
      "elasticloadbalancing:CreateListener",
      "lambda:CreateFunction",
      "lambda:AddPermission",
      "logs:CreateLogGroup",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/elasticloadbalancing/latest/application/lambda-functions.html",
        backs:
          "Lambda functions registered as targets of an Application Load Balancer's target group, a listener rule forwarding to it, and permission for the load balancer to invoke the function",
        checked: CHECKED,
      },
      {
        url: "https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSLambdaBasicExecutionRole.html",
        backs: "a function's execution role writes its logs with logs:CreateLogGroup, CreateLogStream and PutLogEvents",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-step-functions-lambda",
    providerId: "aws",
    name: "Step Functions state machine calling Lambda",
    services: ["aws-step-functions", "aws-lambda"],
    identifiers: ["states:CreateStateMachine", "states:StartExecution", "lambda:InvokeFunction"],
    sources: [
      {
        url: "https://docs.aws.amazon.com/step-functions/latest/dg/lambda-iam.html",
        backs:
          "Step Functions generates for a state machine with Lambda task states a policy allowing lambda:InvokeFunction on those functions",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-ecs-service-discovery",
    providerId: "aws",
    name: "ECS service registered in a Cloud Map private DNS namespace",
    services: ["aws-ecs", "aws-cloud-map"],
    identifiers: [
      "ecs:CreateService",
      "servicediscovery:CreatePrivateDnsNamespace",
      "servicediscovery:CreateService",
      "route53:CreateHostedZone",
      "route53:GetHostedZone",
      "route53:ListHostedZonesByName",
      "ec2:DescribeVpcs",
      "ec2:DescribeRegions",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/cloud-map/latest/dg/cloud-map-api-permissions-ref.html",
        backs:
          "CreatePrivateDnsNamespace requires servicediscovery:CreatePrivateDnsNamespace, route53:CreateHostedZone, GetHostedZone, ListHostedZonesByName, ec2:DescribeVpcs and DescribeRegions; CreateService requires servicediscovery:CreateService",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-msk-cluster",
    providerId: "aws",
    name: "MSK cluster in a VPC, encrypted with a KMS key",
    services: ["aws-msk"],
    identifiers: [
      "kafka:CreateClusterV2",
      "ec2:DescribeSubnets",
      "ec2:DescribeVpcs",
      "ec2:DescribeSecurityGroups",
      "ec2:DescribeRouteTables",
      "ec2:DescribeVpcEndpoints",
      "ec2:DescribeVpcAttribute",
      "ec2:CreateVpcEndpoint",
      "kms:DescribeKey",
      "kms:CreateGrant",
    ],
    sources: [
      {
        url: "https://docs.aws.amazon.com/msk/latest/developerguide/security-iam-awsmanpol-AmazonMSKFullAccess.html",
        backs:
          "AmazonMSKFullAccess: the Amazon EC2 permissions validate the resources passed in an API request and create what connecting to the cluster needs (ec2:Describe* of subnets, VPCs, security groups, route tables, VPC endpoints and VPC attributes, ec2:CreateVpcEndpoint); AWS KMS permissions (kms:DescribeKey, kms:CreateGrant) let MSK use the key passed",
        checked: CHECKED,
      },
    ],
  },
  {
    id: "aws-aurora-serverless-data-api-sam",
    providerId: "aws",
    name: "SAM app: Aurora Serverless with the Data API, behind API Gateway and Lambda, traced by X-Ray",
    services: ["aws-aurora", "aws-secrets-manager", "aws-lambda", "aws-api-gateway", "aws-x-ray", "aws-cloudformation"],
    identifiers: [
      "cloudformation:CreateStack",
      "cloudformation:DescribeStacks",
      "cloudformation:CreateChangeSet",
      "cloudformation:DescribeChangeSet",
      "cloudformation:ExecuteChangeSet",
      "s3:PutObject",
      "s3:GetObject",
      "rds:CreateDBSubnetGroup",
      "rds:CreateDBCluster",
      "rds:ModifyDBCluster",
      "rds:DescribeDBClusters",
      "secretsmanager:CreateSecret",
      "secretsmanager:GetRandomPassword",
      "secretsmanager:TagResource",
      "secretsmanager:GetSecretValue",
      "iam:CreateRole",
      "iam:PutRolePolicy",
      "iam:AttachRolePolicy",
      "iam:PassRole",
      "lambda:CreateFunction",
      "lambda:PublishVersion",
      "lambda:CreateAlias",
      "lambda:AddPermission",
      "apigateway:POST",
      "apigateway:PUT",
      "apigateway:PATCH",
      "apigateway:GET",
      "xray:PutTraceSegments",
      "xray:PutTelemetryRecords",
      "rds-data:ExecuteStatement",
      "rds-data:BatchExecuteStatement",
      "logs:CreateLogGroup",
      "logs:CreateLogStream",
      "logs:PutLogEvents",
    ],
    sources: [
      {
        url: "https://github.com/aws-samples/aws-aurora-serverless-data-api-sam/blob/9c9500b61ff79e4134126d38a75ffc2cada4115a/deploy_scripts/rds_cfn_template.yaml",
        backs:
          "the database stack: an RDS DB subnet group, a Secrets Manager secret with a generated password and an Aurora Serverless cluster whose master credentials resolve from it; deploy_rds.sh creates it with aws cloudformation create-stack, then enables the Data API with aws rds modify-db-cluster --enable-http-endpoint",
        checked: CHECKED,
      },
      {
        url: "https://github.com/aws-samples/aws-aurora-serverless-data-api-sam/blob/9c9500b61ff79e4134126d38a75ffc2cada4115a/deploy_scripts/api_cfn_template.yaml",
        backs:
          "the SAM template (AWS::Serverless-2016-10-31): a regional API Gateway REST API with tracing, Lambda functions with X-Ray tracing and AutoPublishAlias (versions and an alias), API events (invoke permissions) and roles allowed rds-data:* on the cluster and the database secret",
        checked: CHECKED,
      },
      {
        url: "https://github.com/aws-samples/aws-aurora-serverless-data-api-sam/blob/9c9500b61ff79e4134126d38a75ffc2cada4115a/deploy_scripts/package_api.sh",
        backs:
          "sam package uploads the built Lambda code to an S3 bucket and writes a template pointing at it; deploy_api.sh runs sam deploy (a CloudFormation change set), and Lambda reads the code from S3 with the deployer's credentials",
        checked: CHECKED,
      },
    ],
  },
];

/** Every fixture, Azure first, then Google Cloud and AWS. */
export const DEPLOYMENTS: readonly Deployment[] = [...AZURE, ...GCP, ...AWS];
