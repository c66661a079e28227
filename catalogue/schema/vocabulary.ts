/** Vocabularies and the primitive field shapes every other schema file builds on. */
import { z } from "zod";

/** A field description, the same text in validation errors and OpenAPI. */
export const d = (description: string) => ({ description });

export const LIFECYCLE_STATUSES = ["preview", "deprecated", "sunset", "retired"] as const;
/**
 * What a lifecycle entry is the lifecycle of: the one list of kinds, read by the `kind` query of a
 * saved list's calendar (and its OpenAPI enum). A kind added here (versions) is a compatible addition.
 */
export const LIFECYCLE_KINDS = ["service", "version"] as const;
export type LifecycleKind = (typeof LIFECYCLE_KINDS)[number];
/**
 * Whose holding of a compliance programme GET /v1/services?compliance= answers (complianceScope):
 * `own`, the services a scope list names for it (the default); `provider`, those that hold it only
 * through their provider's provider-wide holding; `all`, both (docs/decisions.md#compliance-own).
 */
export const COMPLIANCE_FILTER_SCOPES = ["own", "provider", "all"] as const;
export type ComplianceFilterScope = (typeof COMPLIANCE_FILTER_SCOPES)[number];
export const PRICING_MODELS = ["pay-as-you-go", "subscription", "free", "included", "quote"] as const;
export const SUB_SERVICE_KINDS = ["tier", "edition", "storage-class", "engine", "feature", "plan"] as const;
export const FEEDBACK_TYPES = ["bug", "feature", "question", "general"] as const;
/**
 * Which link an outbound click followed: the `kind` of POST /v1/analytics/outbound, and so the only
 * names a service field's `data-outbound` may carry (service-fields.ts ServiceFieldShown.outbound).
 */
export const OUTBOUND_KINDS = ["documentation", "pricing", "announcement", "other"] as const;
export type OutboundKind = (typeof OUTBOUND_KINDS)[number];
/** What a service's source backs: the kinds of fact a vendor page can stand behind (ServiceSource.backs). */
export const SOURCE_BACKS = ["identity", "description", "lifecycle", "compliance", "identifiers", "regions"] as const;
export const COMPONENT_STATUSES = ["ok", "degraded", "down"] as const;
/**
 * The separately run markets a provider may split its regions into. "global" is the worldwide
 * one; the others are named for what sets them apart, so AWS's China partition or Azure operated
 * by 21Vianet would be mainland-china too, should the catalogue ever list them.
 */
export const REGION_MARKETS = ["global", "mainland-china", "eu-sovereign"] as const;

/** EU member states plus the EEA's Iceland, Liechtenstein and Norway (ISO 3166-1 alpha-2). */
export const EU_EEA_COUNTRIES: ReadonlySet<string> = new Set(
  ("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE " + "IS LI NO").split(" "),
);
/** Countries whose operators count as European for the sovereign-option rule: EU/EEA plus Switzerland. */
export const EUROPEAN_SOVEREIGN_COUNTRIES: ReadonlySet<string> = new Set([...EU_EEA_COUNTRIES, "CH"]);

export const CountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as DE")
  .meta(d("ISO 3166-1 alpha-2 country code"));
export const HttpsUrl = z.url({ protocol: /^https$/, error: "must be an https:// URL" });
export const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase kebab-case ([a-z0-9] and single hyphens)");
export const IsoDate = z.iso.date({ error: "must be a date in YYYY-MM-DD form" });

/** The words a query string may write a boolean with. */
export const QUERY_BOOLEAN_WORDS = ["true", "false", "1", "0"] as const;

/**
 * A boolean in a query string, the one style of every such parameter: true or false, 1 or 0.
 * OpenAPI declares it a boolean or one of those words, so that a typed client passes `true` and a
 * validating proxy accepts `?bom=1`; any other word is a 400 that names the four.
 */
export const queryBoolean = (description: string) =>
  z
    .union([z.boolean(), z.enum(QUERY_BOOLEAN_WORDS)], { error: "must be true, false, 1 or 0" })
    .transform((value) => value === true || value === "true" || value === "1")
    .optional()
    .meta(d(description));
