/**
 * The deployment check's answer as types (check.ts makes it, statements.ts says it, render.ts draws
 * it); catalogue/schema/deployment-check.ts is its contract.
 */
import type {
  ConditionalResource,
  Deployment,
  DeploymentItem,
  InputUse,
  UnknownLocation,
  Vendor,
  VersionedAttribute,
} from "./deployment.ts";

import type { FailOn, VersionPhase, VersionSourceT, VersionStatus } from "../../schema/index.ts";

export type { Vendor };

export interface UsedService {
  readonly id: string;
  readonly providerId: string;
  readonly approved: boolean;
  /** Not approved: missing (something of it is denied) or allowed (the document allows all it needs here). */
  readonly status?: "missing" | "allowed";
  /** Not approved, but wholly allowed by the approved list's document: what it came with. */
  readonly allowedThrough?: readonly string[];
  readonly items: { readonly item: string; readonly from: readonly string[] }[];
}
export interface UnplacedItem {
  readonly item: string;
  readonly kind: DeploymentItem["kind"];
  readonly from: readonly string[];
  readonly reason: string;
  /** Services whose dependencies name it (an Azure type no service owns). */
  readonly arrivesWith?: readonly string[];
}
export interface NeedAnswer {
  readonly id: string;
  readonly what: string;
  readonly identifiers: readonly string[];
  readonly services: readonly string[];
  readonly approve: readonly string[];
  readonly source: { readonly url: string; readonly backs: string; readonly checked: string };
}
export interface DeniedIdentifier {
  readonly identifier: string;
  /** What in the deployment needs it: resource types, APIs or implicit-need rows. */
  readonly neededFor: readonly string[];
  /** Catalogue services whose approval would allow it (empty: none owns it). */
  readonly approve: readonly string[];
}
export interface PolicyVerdict {
  readonly providerId: Vendor;
  readonly approvedServiceIds: readonly string[];
  readonly allowed: boolean;
  readonly checked: number;
  readonly denied: readonly DeniedIdentifier[];
  /** Why the whole document could not be made (nothing to allow), when so. */
  readonly refused?: string;
  /** What the deployment holds that this verdict did not read (an ARM linked template): allowed is then false. */
  readonly notEvaluated?: readonly string[];
  /** Services the document allows though not in approvedServiceIds, each with what brought it. */
  readonly wider: readonly { readonly id: string; readonly cameWith: readonly string[]; readonly complete: boolean }[];
  /** What the document does not govern (Google: APIs gcp.restrictServiceUsage does not apply to): never denied. */
  readonly notGoverned: readonly NotGoverned[];
}
export interface NotGoverned {
  readonly identifier: string;
  readonly neededFor: readonly string[];
  readonly reason: string;
}
export interface Statement {
  readonly kind: StatementKind;
  readonly text: string;
  readonly checked: readonly string[];
}
export type StatementKind =
  | "read"
  | "services"
  | "unplaced"
  | "not-evaluated"
  | "implicit-need"
  | "verdict"
  | "wider"
  | "not-governed"
  | "versions"
  | "locations"
  | "inputs";

export interface DeploymentCheckAnswer {
  readonly format: Deployment["format"];
  readonly tools: readonly string[];
  readonly expanded: readonly string[];
  readonly items: number;
  readonly services: readonly UsedService[];
  readonly missingServiceIds: readonly string[];
  /** Items several services own, none approved: the one counted, and the others that would do as well. */
  readonly choices: readonly { readonly item: string; readonly chosen: string; readonly oneOf: readonly string[] }[];
  readonly unplaced: readonly UnplacedItem[];
  readonly notEvaluated: readonly string[];
  readonly implicitNeeds: readonly NeedAnswer[];
  /** Tool commands a user may run beside the deployment (sam logs): not the deployment's needs, in no verdict. */
  readonly toolNeeds: readonly NeedAnswer[];
  readonly verdicts: readonly PolicyVerdict[];
  readonly suggestedServiceIds: readonly string[];
  /** Each version the resources name, with its status and end (./retiring.ts). */
  readonly versions: readonly VersionAnswer[];
  /** Each service used that has a lifecycle of its own (sunset, deprecated, retired), judged as versions are. */
  readonly serviceLifecycle: readonly ServiceLifecycleAnswer[];
  /** Each resource stating its location, with its region and, with allowedLocations, whether allowed. */
  readonly locations: readonly LocationAnswer[];
  /** The deployment's inputs (variables, parameters) the evaluation read, each with where its value came from. */
  readonly inputs: readonly InputUse[];
  /** Resources declared but never deployed (a false condition, a count of 0): in no verdict. */
  readonly notDeployed: readonly ConditionalResource[];
  /** Resources deployed or not depending on inputs without a value: counted in the verdicts. */
  readonly dependsOnInputs: readonly ConditionalResource[];
  /** Resources whose location the input does not say, with why. */
  readonly unknownLocations: readonly UnknownLocation[];
  /** What the vendor's deployment would refuse (a Mapping without the stack's region); absent from answers before 1.13.0. */
  readonly deploymentErrors?: readonly string[];
  readonly statements: readonly Statement[];
}

/** A version a resource names, judged on the day (./retiring.ts). */
export interface VersionAnswer extends VersionedAttribute {
  readonly status: VersionStatus | "unknown";
  /** The version and family the value names (absent when not known). */
  readonly version?: string;
  readonly family?: string;
  /** The day support next ends (standard, else extended), or the last day it had once ended. */
  readonly ends?: string;
  readonly endsWhich?: "standardEnd" | "extendedEnd";
  /** Support has ended, or ends within the window. */
  readonly retiring: boolean;
  readonly successor?: string;
  readonly source?: VersionSourceT;
  /** Its phase on the day judged (added in 1.12.0). */
  readonly phase?: VersionPhase;
  /** Every phase after standard support its dates give, in order. */
  readonly phases?: readonly AnsweredPhase[];
  /** The phase that makes it retiring: the first the request fails on, begun or beginning within the window. */
  readonly retiringPhase?: AnsweredPhase;
  /** The rule applied. */
  readonly failOn?: FailOn;
}

/** A phase of a version as the answer lists it. */
export interface AnsweredPhase {
  readonly phase: VersionPhase;
  /** Its first day. */
  readonly starts: string;
  /** What the vendor calls the date it begins from. */
  readonly name: string;
  readonly consequence?: string;
  readonly paid?: boolean;
  readonly price?: string;
}

/** A service a deployment uses, judged against its own lifecycle (schema/deployment-check.ts serviceLifecycle). */
export interface ServiceLifecycleAnswer {
  readonly serviceId: string;
  readonly status: "preview" | "deprecated" | "sunset" | "retired";
  /** Its sunset or retirement date, when announced. */
  readonly date?: string;
  /** It is retired, deprecated (failOn deprecated), or its date falls within the window. */
  readonly retiring: boolean;
  readonly successor?: string;
  readonly note?: string;
  readonly announcementUrl?: string;
}

/** A resource's stated location, matched to its provider's region (./location-check.ts). */
export interface LocationAnswer {
  readonly from: string;
  readonly type: string;
  readonly providerId?: string;
  /** region, location or zone: the attribute that states it. */
  readonly attribute: string;
  /** As the input states it. */
  readonly location: string;
  /** The catalogue's region id and its country, when the location names one. */
  readonly region?: string;
  readonly country?: string;
  /** With allowedLocations: whether the region is allowed, or null when the location is not known. */
  readonly allowed?: boolean | null;
  /** Where the location came from when not the resource's own attribute (a provider block, an input, the request's region). */
  readonly via?: string;
  /** A global resource (location "global"): why, and that the vendors' location policies exempt it. */
  readonly global?: string;
  /** A vendor's multi-region or dual-region (US, EU, NAM4): the regions (or countries) it may keep data in. */
  readonly multiRegion?: readonly string[];
}
