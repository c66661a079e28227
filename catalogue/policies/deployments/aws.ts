/** AWS's deployment fixtures, each from a guide or managed policy (see deployment.ts). */
import { CHECKED, type Deployment, type DeploymentSource } from "./deployment.ts";

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

export const AWS: readonly Deployment[] = [
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
