/**
 * Service dependencies: the identifiers a service needs besides its own to be usable under a policy
 * that allows it (decisions.md#approved-means-usable, "Approved means usable"), kept in catalogue/data/dependencies/
 * <providerId>.yaml (one file per provider whose policy language the generators speak: aws, azure,
 * gcp) and used by policies/documents.ts. This module is what the browser's policy generators need
 * too (pure: no file reading, no zod); reading and validating the files, and checking them against
 * the vendors' references (`npm run check:data`), is dependencies.node.ts.
 */
import type { PolicyIdentifiersT, ServiceDependencyT } from "../schema/index.ts";

/** The shape of one identifier per provider: what the provider's policy language names. */
export const DEPENDENCY_SHAPES: Readonly<Record<string, { pattern: RegExp; name: string }>> = {
  // An IAM action or action pattern: prefix:Name, where Name may hold * wildcards but not be only *.
  aws: { pattern: /^[a-z0-9-]+:(?=[A-Za-z*]*[A-Za-z])[A-Za-z0-9*]+$/, name: "an IAM action like ec2:CreateVpc" },
  azure: {
    pattern: /^Microsoft\.[A-Za-z0-9.]+\/[A-Za-z0-9/]+$/,
    name: "an Azure resource type like Microsoft.Network/networkInterfaces",
  },
  gcp: { pattern: /^[a-z0-9-]+\.googleapis\.com$/, name: "a Google API service name like compute.googleapis.com" },
};

/** Per service slug, its dependency groups with their sources resolved. */
export type DependencyMap = Readonly<Record<string, readonly ServiceDependencyT[]>>;

/** The service's own identifiers in its provider's policy language. */
export function ownIdentifiers(providerId: string, identifiers: PolicyIdentifiersT | undefined): readonly string[] {
  if (!identifiers) return [];
  if (providerId === "aws") return identifiers.iamPrefixes ?? [];
  if (providerId === "azure") return identifiers.resourceTypes ?? [];
  if (providerId === "gcp") return identifiers.apiServices?.map((api) => api.name) ?? [];
  return [];
}

/** Same identifier for the provider's policy engine: Azure compares resource types case-insensitively. */
export const identifierKey = (providerId: string, identifier: string) =>
  providerId === "azure" ? identifier.toLowerCase() : identifier;

/** Whether an IAM action pattern (with * wildcards, case-insensitive as IAM matches) matches an action. */
export function actionMatches(pattern: string, action: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
    "i",
  );
  return regex.test(action);
}
