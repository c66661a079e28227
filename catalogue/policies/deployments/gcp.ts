/** Google Cloud's deployment fixtures, each from a tutorial or guide (see deployment.ts). */
import { CHECKED, type Deployment } from "./deployment.ts";

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

export const GCP: readonly Deployment[] = [
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
