/**
 * Implicit needs: what a tool, a resource type or a resource's configuration (its properties, as
 * an ECS task definition's awslogs options) needs beyond its own service, each row backed by the
 * vendor's page. One table for two readers (decisions.md#approved-means-usable):
 * - the dependencies (dependencies.node.ts merges every row with a `service` into that service's
 *   dependencies), so approving the service allows what the row names with it, and explain mode
 *   lists it with its source;
 * - the deployment check (catalogue/templates/), which applies a row when the user's template shows
 *   its trigger, and names the row, its source and the services it needs in the answer; a row of a
 *   tool's own command (`tool`) is named as a tool need, apart from what the deployment needs.
 * A row whose identifiers belong to other catalogue services says which (`services`), so an answer
 * names the slugs to approve as well as the identifiers to allow.
 *
 * Plain data, no I/O: the browser's policy generators read it too.
 */

export interface ImplicitNeedSource {
  readonly url: string;
  /** What the page shows, in our words. */
  readonly backs: string;
  /** The day the page's content was read. */
  readonly checked: string;
}

/** What in a template makes a row apply. */
export type ImplicitNeedTrigger =
  /** Any CloudFormation template (the stack operations themselves). */
  | { readonly kind: "cloudformation-template" }
  /** A CloudFormation parameter whose Type starts with this (e.g. AWS::SSM::Parameter::). */
  | { readonly kind: "parameter-type"; readonly prefix: string }
  /** A template the AWS CDK synthesised (its BootstrapVersion parameter or CDK metadata). */
  | { readonly kind: "cdk" }
  /** A template with Transform AWS::Serverless-2016-10-31, deployed with the SAM CLI. */
  | { readonly kind: "sam" }
  /**
   * A resource of this type (Azure: case-insensitive), or a Google API, in the deployment; with
   * `with`, only when that type is there too (the configuration that needs the row).
   */
  | { readonly kind: "type"; readonly type: string; readonly with?: string }
  /**
   * A CloudFormation resource of this type whose Properties hold `equals` (compared as text,
   * case-insensitive) at `path`: keys joined by dots, `*` for every item of a list.
   */
  | { readonly kind: "property"; readonly type: string; readonly path: string; readonly equals: string };

export interface ImplicitNeed {
  /** kebab-case, unique. */
  readonly id: string;
  readonly providerId: "aws" | "azure" | "gcp";
  /** What needs it, in a reader's words. */
  readonly what: string;
  readonly trigger: ImplicitNeedTrigger;
  /**
   * The catalogue service whose approval carries this row into its dependencies (the service the
   * tool or type belongs to), when there is one.
   */
  readonly service?: string;
  /** What is needed, in the vendor's policy language: IAM actions, Azure resource types, Google APIs. */
  readonly identifiers: readonly string[];
  /** The catalogue services those identifiers belong to, the ones to approve with it. */
  readonly services: readonly string[];
  /**
   * A tool's own command a user may run beside the deployment (sam logs), not what deploying the
   * template needs: the check names it as a tool need, and no verdict counts it.
   */
  readonly tool?: true;
  readonly source: ImplicitNeedSource;
}

const READ = "2026-11-27";

export const IMPLICIT_NEEDS: readonly ImplicitNeed[] = [
  {
    id: "cloudformation-stack-operations",
    providerId: "aws",
    what: "Deploying any CloudFormation template: the stack and change-set operations themselves",
    trigger: { kind: "cloudformation-template" },
    identifiers: [
      "cloudformation:CreateChangeSet",
      "cloudformation:CreateStack",
      "cloudformation:DescribeChangeSet",
      "cloudformation:DescribeStackEvents",
      "cloudformation:DescribeStacks",
      "cloudformation:ExecuteChangeSet",
      "cloudformation:GetTemplateSummary",
      "cloudformation:UpdateStack",
    ],
    services: ["aws-cloudformation"],
    source: {
      url: "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/control-access-with-iam.html",
      backs:
        "to use CloudFormation, an identity needs policies allowing the CloudFormation API actions it calls (creating and updating stacks and change sets, describing them), beside the permissions of every service its templates create resources in",
      checked: READ,
    },
  },
  {
    id: "cloudformation-ssm-parameter-types",
    providerId: "aws",
    what: "A CloudFormation parameter of a Systems Manager parameter type (AWS::SSM::Parameter::Value<…>, e.g. the latest-AMI lookup)",
    trigger: { kind: "parameter-type", prefix: "AWS::SSM::Parameter::" },
    service: "aws-cloudformation",
    identifiers: ["ssm:GetParameters"],
    services: ["aws-systems-manager"],
    source: {
      url: "https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/systems-manager-parameter-types.html",
      backs:
        "CloudFormation fetches the value of a Systems Manager parameter type from Parameter Store, under the caller's account, whenever the stack is created or updated or a change set is made",
      checked: READ,
    },
  },
  {
    id: "cdk-bootstrap",
    providerId: "aws",
    what: "The AWS CDK: cdk bootstrap's CDKToolkit stack (an S3 bucket, an ECR repository, IAM roles, its version parameter) and cdk deploy's uploads to them",
    trigger: { kind: "cdk" },
    service: "aws-cdk",
    identifiers: [
      "cloudformation:CreateChangeSet",
      "cloudformation:DescribeChangeSet",
      "cloudformation:DescribeStackEvents",
      "cloudformation:DescribeStacks",
      "cloudformation:ExecuteChangeSet",
      "cloudformation:GetTemplate",
      "ecr:CreateRepository",
      "ecr:DescribeRepositories",
      "ecr:PutLifecyclePolicy",
      "ecr:SetRepositoryPolicy",
      "s3:CreateBucket",
      "s3:GetObject",
      "s3:ListBucket",
      "s3:PutBucketPolicy",
      "s3:PutBucketPublicAccessBlock",
      "s3:PutBucketVersioning",
      "s3:PutEncryptionConfiguration",
      "s3:PutLifecycleConfiguration",
      "s3:PutObject",
      "ssm:GetParameter",
      "ssm:GetParameters",
      "ssm:PutParameter",
    ],
    services: ["aws-cloudformation", "aws-ecr", "aws-s3", "aws-systems-manager"],
    source: {
      url: "https://docs.aws.amazon.com/cdk/latest/guide/bootstrapping.html",
      backs:
        "bootstrapping deploys a CloudFormation stack that provisions an Amazon S3 bucket for the CDK's files and assets, an Amazon ECR repository for Docker images and IAM roles for deployments; every CDK stack is deployed after it",
      checked: READ,
    },
  },
  {
    id: "sam-managed-bucket",
    providerId: "aws",
    what: "sam deploy (--guided): the SAM CLI's managed S3 bucket (stack aws-sam-cli-managed-default) and the packaged code uploaded to it",
    trigger: { kind: "sam" },
    identifiers: [
      "s3:CreateBucket",
      "s3:GetObject",
      "s3:PutBucketPolicy",
      "s3:PutBucketTagging",
      "s3:PutBucketVersioning",
      "s3:PutObject",
    ],
    services: ["aws-s3"],
    source: {
      url: "https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/using-sam-cli-deploy.html",
      backs:
        "sam deploy packages the application and deploys it with CloudFormation; the SAM CLI creates and manages the Amazon S3 bucket the deployment package is uploaded to",
      checked: READ,
    },
  },
  {
    id: "sam-logs",
    providerId: "aws",
    what: "sam logs: reading a SAM application's function logs",
    trigger: { kind: "sam" },
    // Nothing in a deployment runs it: a user may, to read the functions' logs afterwards.
    tool: true,
    identifiers: ["logs:FilterLogEvents"],
    services: ["aws-cloudwatch-logs"],
    source: {
      url: "https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-cli-command-reference-sam-logs.html",
      backs:
        "sam logs fetches the logs a function writes to CloudWatch Logs, filtered by an expression (--filter); listing a log group's events that way needs logs:FilterLogEvents (docs.aws.amazon.com/cli/latest/reference/logs/filter-log-events.html)",
      checked: READ,
    },
  },
  {
    id: "ecs-awslogs-create-group",
    providerId: "aws",
    what: "An ECS task definition whose awslogs log driver creates its log group (awslogs-create-group: true)",
    trigger: {
      kind: "property",
      type: "AWS::ECS::TaskDefinition",
      path: "ContainerDefinitions.*.LogConfiguration.Options.awslogs-create-group",
      equals: "true",
    },
    identifiers: ["logs:CreateLogGroup"],
    services: ["aws-cloudwatch-logs"],
    source: {
      url: "https://docs.aws.amazon.com/AmazonECS/latest/developerguide/using_awslogs.html",
      backs:
        "with awslogs-create-group set to true the awslogs driver creates the log group when the task starts, and the task execution role's IAM policy must then include logs:CreateLogGroup",
      checked: "2026-11-28",
    },
  },
  {
    id: "azure-ml-workspace-companions",
    providerId: "azure",
    what: "An Azure Machine Learning workspace: the storage account, key vault, Application Insights and container registry it is created with",
    trigger: { kind: "type", type: "Microsoft.MachineLearningServices/workspaces" },
    service: "azure-machine-learning",
    identifiers: [
      "Microsoft.ContainerRegistry/registries",
      "Microsoft.Insights/components",
      "Microsoft.KeyVault/vaults",
      "Microsoft.Storage/storageAccounts",
    ],
    services: ["azure-application-insights", "azure-blob-storage", "azure-container-registry", "azure-key-vault"],
    source: {
      url: "https://azure.github.io/azureml-sdk-for-r/reference/create_workspace.html",
      backs:
        "creating a workspace creates the Azure resources it uses: an Azure Container Registry (created when the first image is built), a storage account (the default datastore), Application Insights and a key vault",
      checked: READ,
    },
  },
  {
    id: "azure-private-endpoint-dns",
    providerId: "azure",
    what: "A private endpoint: the private DNS zone its name resolves in, linked to the virtual network",
    trigger: { kind: "type", type: "Microsoft.Network/privateEndpoints" },
    service: "azure-private-link",
    identifiers: ["Microsoft.Network/privateDnsZones", "Microsoft.Network/privateDnsZones/virtualNetworkLinks"],
    services: ["azure-dns"],
    source: {
      url: "https://learn.microsoft.com/azure/private-link/private-endpoint-dns-integration",
      backs:
        "a workload reaches a private endpoint through a private DNS zone (e.g. privatelink.database.windows.net) holding its A record, with a virtual network link for every virtual network that resolves it",
      checked: READ,
    },
  },
  {
    id: "azure-postgresql-flexible-private-access",
    providerId: "azure",
    what: "Azure Database for PostgreSQL flexible server with private access (VNet integration): its private DNS zone and the zone's link to the virtual network",
    trigger: {
      kind: "type",
      type: "Microsoft.DBforPostgreSQL/flexibleServers",
      with: "Microsoft.Network/privateDnsZones",
    },
    service: "azure-database-for-postgresql",
    identifiers: ["Microsoft.Network/privateDnsZones", "Microsoft.Network/privateDnsZones/virtualNetworkLinks"],
    services: ["azure-dns"],
    source: {
      url: "https://learn.microsoft.com/dotnet/api/azure.resourcemanager.postgresql.flexibleservers.models.postgresqlflexibleservernetwork",
      backs:
        "a flexible server is integrated into the customer's own virtual network through a delegated subnet, with the private DNS zone it resolves in as a network property (the zone's virtual network link is what makes it resolve there, as for private endpoints)",
      checked: READ,
    },
  },
  {
    id: "gcp-eventarc-pubsub",
    providerId: "gcp",
    what: "Eventarc: the Pub/Sub topic and subscription it delivers events through",
    trigger: { kind: "type", type: "eventarc.googleapis.com" },
    service: "gcp-eventarc",
    identifiers: ["pubsub.googleapis.com"],
    services: ["gcp-pubsub"],
    source: {
      url: "https://cloud.google.com/python/docs/reference/eventarc/latest/google.cloud.eventarc_v1.types.Pubsub",
      backs:
        "an Eventarc trigger's transport is a Pub/Sub topic and subscription created and managed by Eventarc for the event delivery",
      checked: READ,
    },
  },
];
