/**
 * What a service needs allowed under a policy (contract "Resources and their fields"): its policy
 * identifiers per vendor and the dependencies allowed with it, with their sources. Each field's
 * description lands in OpenAPI verbatim.
 */
import { z } from "zod";
import { d, HttpsUrl, IsoDate, Slug } from "./vocabulary.ts";
export const GoogleApiService = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9-]+\.googleapis\.com$/, "must be a Google API service name like storage.googleapis.com")
      .meta(d("Google API service name, e.g. storage.googleapis.com")),
    restrictServiceUsage: z
      .boolean()
      .meta(d("Whether the organisation-policy constraint gcp.restrictServiceUsage supports this API")),
  })
  .strict()
  .meta({ id: "GoogleApiService", description: "A Google Cloud API service name" });

export const OtherIdentifier = z
  .object({
    scheme: Slug.meta(d("Identifier scheme, e.g. alibaba-ram-service or oci-iam-resource-type")),
    values: z.array(z.string().min(1)).min(1).meta(d("The identifiers in that scheme")),
  })
  .strict()
  .meta({ id: "OtherIdentifier", description: "Identifiers a non-hyperscaler provider uses in its own policies" });

export const PolicyIdentifiers = z
  .object({
    iamPrefixes: z
      .array(z.string().regex(/^[a-z0-9-]+$/, "must be an AWS IAM service prefix like s3"))
      .min(1)
      .optional()
      .meta(d("AWS IAM service prefixes (the part before ':' in an action), used by the SCP generator")),
    resourceTypes: z
      .array(
        z
          .string()
          .regex(
            /^Microsoft\.[A-Za-z0-9.]+\/[A-Za-z0-9/]+$/,
            "must be an Azure resource type like Microsoft.Storage/storageAccounts",
          ),
      )
      .min(1)
      .optional()
      .meta(d("Azure resource types, used by the Azure policy generator")),
    apiServices: z
      .array(GoogleApiService)
      .min(1)
      .optional()
      .meta(d("Google API service names, used by the GCP organisation-policy generator")),
    other: z.array(OtherIdentifier).min(1).optional().meta(d("Identifiers of other providers' own policy languages")),
    noneReason: z.string().min(1).optional().meta(d("Why the service has no policy identifier, where it has none")),
  })
  .strict()
  .meta({
    id: "PolicyIdentifiers",
    description: "The identifiers that name this service in its provider's policy languages",
  });

/** Where a dependency comes from (catalogue/data/dependencies/*.yaml, added in 1.7.0). */
export const DependencySource = z
  .object({
    url: HttpsUrl.meta(d("The page or file that backs it")),
    backs: z.string().min(1).meta(d("What that source shows, in our words")),
    checked: IsoDate.meta(d("The day (YYYY-MM-DD) the source was last read")),
  })
  .strict()
  .meta({ id: "DependencySource", description: "The source of a service's dependencies" });

export const ServiceDependency = z
  .object({
    identifiers: z
      .array(z.string().min(1))
      .min(1)
      .meta(
        d(
          "Identifiers in the provider's policy language the service needs besides its own: Azure child and companion resource types, Google API service names it depends on, AWS IAM actions (or action patterns) under other services' prefixes",
        ),
      ),
    source: DependencySource,
    resourceType: z
      .string()
      .min(1)
      .optional()
      .meta(
        d(
          "The resource type whose deployment needs these identifiers, when they come from the vendor's resource schemas (e.g. AWS::Lambda::Function from its CloudFormation handlers; added in 1.9.0)",
        ),
      ),
  })
  .strict()
  .meta({
    id: "ServiceDependency",
    description:
      "Identifiers a service needs to be usable under a policy that allows it (added in 1.7.0); the policy generators allow them with the service",
  });

export type PolicyIdentifiersT = z.infer<typeof PolicyIdentifiers>;
export type ServiceDependencyT = z.infer<typeof ServiceDependency>;
export type DependencySourceT = z.infer<typeof DependencySource>;
