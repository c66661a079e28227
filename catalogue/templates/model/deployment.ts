/**
 * What the evaluator makes of a deployment (../evaluate/, through ../read.ts): its items, each with where
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
  /** Where it came from: every instance's logical id, resource name or address. */
  readonly from: readonly string[];
}

/** Where a resource instance goes, as the evaluation found it (./evaluate/instances.ts). */
export type InstanceLocation =
  /** A region, zone or location, from the resource's attribute or (via) its provider block, an input, the request. */
  | { readonly kind: "stated"; readonly attribute: string; readonly value: string; readonly via?: string }
  /** Answered from the vendor's global endpoint, with why. */
  | { readonly kind: "global"; readonly why: string }
  /** The input does not say (an input without a value, a provider block without a region), with why. */
  | { readonly kind: "unknown"; readonly why: string }
  /** The resource has no place of its own (an Azure child resource, a Hetzner SSH key). */
  | { readonly kind: "none" };

/**
 * One resource instance a deployment makes, resolved: every rule of the check reads these (through
 * ../resolved.ts's views), never the template's text.
 */
export interface ResourceInstance {
  readonly kind: DeploymentItem["kind"];
  readonly item: string;
  /** Its address, logical id or resource name. */
  readonly from: string;
  /** The catalogue provider it deploys to, when known. */
  readonly providerId?: string;
  readonly deployed: Deployed;
  readonly location: InstanceLocation;
  readonly versioned?: readonly VersionedAttribute[];
  /** Version attributes set through what the deployment does not say (an input without a value). */
  readonly versionsUnknown?: readonly UnknownVersion[];
  /** The attributes a generic type is placed by (an engine, a kind), as stated. */
  readonly traits?: Readonly<Record<string, string>>;
  /** Further places it keeps data in (replicas): each stated or not known. */
  readonly replicas?: readonly InstanceLocation[];
}

/** A resource the deployment declares but does not deploy, or deploys depending on inputs. */
export interface ConditionalResource {
  readonly item: string;
  readonly from: string;
  readonly because: string;
  /** The inputs it depends on (depends only). */
  readonly on?: readonly string[];
}

/** A resource whose location the input does not say. */
export interface UnknownLocation {
  readonly type: string;
  readonly from: string;
  readonly providerId?: string;
  readonly why: string;
}

export interface Deployment {
  readonly format: DeploymentFormat;
  /** The request's region (where it is made when it does not say), checked against the format's vendor's regions. */
  readonly requestRegion?: string;
  /** The deployed items (instances not deployed are left out), from ./resolved.ts. */
  readonly items: readonly DeploymentItem[];
  /** Instances never deployed (a false condition, a count of 0), and those that depend on inputs. */
  readonly notDeployed?: readonly ConditionalResource[];
  readonly dependsOnInputs?: readonly ConditionalResource[];
  /** The inputs (variables, parameters) the evaluation read, with their values' sources. */
  readonly inputs?: readonly InputUse[];
  /** Resources whose location the input does not say, with why. */
  readonly unknownLocations?: readonly UnknownLocation[];
  /** Generic types' traits, by item (ovh_cloud_project_database → engine postgresql), for the services rule. */
  readonly traits?: Readonly<Record<string, readonly Readonly<Record<string, string>>[]>>;
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
  /**
   * What the vendor's deployment would refuse, each with where and why (an Fn::FindInMap that finds
   * no entry for the stack's region, a nested stack passed parameters its template does not declare).
   */
  readonly failures?: readonly string[];
  /** CloudFormation only: Fn::ForEach loops whose collection could not be expanded (each resource's type read once). */
  readonly loops?: readonly string[];
  /** CloudFormation only: the implicit-needs rows whose property trigger a resource's Properties show. */
  readonly shows?: readonly string[];
  /** The versions the resources' attributes name (a Lambda runtime, a Kubernetes or engine version). */
  readonly versioned?: readonly VersionedAttribute[];
  /** The version attributes no value was found for: each with the inputs it depends on. */
  readonly versionsUnknown?: readonly UnknownVersion[];
  /** The locations the resources state as literals (./stated-locations.ts), at most a few hundred. */
  readonly locations?: readonly StatedLocation[];
  /** How many resources have no place of their own. */
  readonly unlocated?: number;
}

/** Whether a resource instance is deployed: yes, no (a false condition, a count of 0), or it depends on inputs. */
export type Deployed =
  | { readonly state: "yes" }
  | { readonly state: "no"; readonly because: string }
  | { readonly state: "depends"; readonly on: readonly string[]; readonly because: string };

/** An input of the deployment the evaluation read: a variable or parameter, with where its value came from. */
export interface InputUse {
  /** As the deployment names it: var.region, parameter Env, parameters('location'). */
  readonly name: string;
  /** "the request", "its default", a variable or parameters file's name, or "no value". */
  readonly source: string;
  /** The value as JSON text (cut to 200 characters), when it has one. */
  readonly value?: string;
}

/** A resource's region, location or zone, as the input states it. */
export interface StatedLocation {
  /** The resource type, and where the resource is (ARM name, plan or .tf address). */
  readonly type: string;
  readonly from: string;
  /** The catalogue provider it deploys to (by its Terraform prefix; azure for ARM), when known. */
  readonly providerId?: string;
  /** region, location or zone. */
  readonly attribute: string;
  readonly value: string;
  /** Where the value came from when not the resource's own attribute (a provider block, an input, the request). */
  readonly via?: string;
  /** Set when the resource is answered from its vendor's global endpoint: why (value is then "global"). */
  readonly global?: string;
}

/** A version attribute whose value depends on what the deployment does not say. */
export interface UnknownVersion {
  readonly type: string;
  readonly from: string;
  readonly attribute: string;
  /** The inputs that would tell ("var.runtime", "parameter Runtime"), or why nothing would. */
  readonly dependsOn: readonly string[];
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
