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

/** The day the fixtures' sources were read. */
export const CHECKED = "2026-11-26";
