/**
 * What a reader makes of a deployment (./read.ts, ./terraform-config.ts): its items, each with where
 * it came from, and what it could not read. Types only, so that the readers and the check share them
 * without importing one another.
 */
/** The vendors whose documents the check generates. */
export type Vendor = "aws" | "azure" | "gcp";

export type DeploymentFormat = "cloudformation" | "arm" | "terraform-plan" | "terraform-config" | "gcp-apis";

/** One thing the deployment creates or calls, in its own vocabulary. */
export interface DeploymentItem {
  /** cloudformation: a resource type; arm: an Azure resource type; terraform: a resource type; gcp: an API. */
  readonly kind: "cloudformation-type" | "azure-type" | "terraform-type" | "gcp-api";
  readonly item: string;
  /** Where it came from: logical ids, resource names or addresses (at most a few). */
  readonly from: readonly string[];
}

export interface Deployment {
  readonly format: DeploymentFormat;
  readonly items: readonly DeploymentItem[];
  /** CloudFormation only: parameter types, and whether the CDK or SAM made it. */
  readonly parameterTypes: readonly string[];
  readonly cdk: boolean;
  readonly sam: boolean;
  /** SAM only: what each AWS::Serverless type expanded to, e.g. "AWS::Serverless::Function → AWS::Lambda::Function". */
  readonly expanded: readonly string[];
  /**
   * What the input names but the reader could not read, each with where and why (an ARM linked
   * template; a Terraform module, or a count or for_each that is not a literal).
   */
  readonly notRead: readonly string[];
  /** The vendors whose verdicts each notRead entry concerns (none given: Azure's, an ARM template's). */
  readonly notReadVendors?: Readonly<Record<string, readonly Vendor[]>>;
  /** CloudFormation only: Fn::ForEach loops whose collection could not be expanded (each resource's type read once). */
  readonly loops?: readonly string[];
  /** CloudFormation only: the implicit-needs rows whose property trigger a resource's Properties show. */
  readonly shows?: readonly string[];
  /** The versions the resources' attributes name (a Lambda runtime, a Kubernetes or engine version). */
  readonly versioned?: readonly VersionedAttribute[];
  /** The locations the resources state as literals (./stated-locations.ts), at most a few hundred. */
  readonly locations?: readonly StatedLocation[];
  /** How many resources state no location (a CloudFormation stack's, a provider block's region applies). */
  readonly unlocated?: number;
}

/** A resource's literal region, location or zone, as the input states it. */
export interface StatedLocation {
  /** The resource type, and where the resource is (ARM name, plan or .tf address). */
  readonly type: string;
  readonly from: string;
  /** The catalogue provider it deploys to (by its Terraform prefix; azure for ARM), when known. */
  readonly providerId?: string;
  /** region, location or zone. */
  readonly attribute: string;
  readonly value: string;
}

/** A resource attribute naming a version a vendor retires (./versioned.ts reads them). */
export interface VersionedAttribute {
  /** The resource type, and where the resource is (logical id or address). */
  readonly type: string;
  readonly from: string;
  /** The attribute as the template names it, e.g. Properties.Runtime or engine_version. */
  readonly attribute: string;
  readonly value: string;
  /** The catalogue service whose versions the value names. */
  readonly serviceId: string;
  /** The version family the attribute names (a function app's node_version), when it names one. */
  readonly family?: string;
}
