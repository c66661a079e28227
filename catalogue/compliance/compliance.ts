/**
 * How every face words a service's compliance (catalogue/data/README.md, "Compliance"): the
 * service's own programmes, which a provider's published scope names it for; else "not known",
 * never "none"; and apart, as the provider's, what the provider holds, with where it lists the
 * services in scope. Pure (the site's pages and the text host both call it).
 */
import type { ComplianceFilterScope, ProviderT, ServiceT } from "../schema/index.ts";

/** Programmes the provider holds, shown on a service page as the provider's, with the page listing their scope. */
export interface ProviderHolding {
  readonly programmes: readonly string[];
  /** The provider's page listing the services in scope; absent when the catalogue cites none. */
  readonly url?: string;
}

/** Whether a service carries no programme by rule: retired and preview services are in no scope. */
export function outOfScopeByLifecycle(service: Pick<ServiceT, "lifecycle">): boolean {
  const status = service.lifecycle?.status;
  return status === "retired" || status === "preview";
}

/**
 * The provider's programmes to show beside a service, grouped by scope page: none on a retired or
 * preview service; never one the service lists as its own; never one whose scope list the
 * catalogue carries in full (`listed`), since a service without it is then left out of its scope.
 */
export function providerHoldings(
  provider: Pick<ProviderT, "defaultCompliance" | "complianceScope">,
  service: Pick<ServiceT, "lifecycle" | "compliance">,
): ProviderHolding[] {
  if (outOfScopeByLifecycle(service)) return [];
  const own = new Set(service.compliance ?? []);
  const scopes = provider.complianceScope ?? [];
  const listed = new Set(scopes.filter((scope) => scope.listed).flatMap((scope) => scope.programmes));
  let remaining = (provider.defaultCompliance ?? []).filter((id) => !own.has(id) && !listed.has(id));
  const holdings: ProviderHolding[] = [];
  for (const scope of scopes) {
    const programmes = remaining.filter((id) => scope.programmes.includes(id));
    if (programmes.length === 0) continue;
    holdings.push({ programmes, url: scope.url });
    remaining = remaining.filter((id) => !programmes.includes(id));
  }
  if (remaining.length > 0) holdings.push({ programmes: remaining });
  return holdings;
}

/**
 * The programmes that apply to a service provider-wide (issue 100): those the provider holds for
 * which it publishes no list of the services in scope that the catalogue cites, so the certificate's
 * scope is the platform as far as the catalogue knows (STACKIT's, IONOS's and OTC's C5). A programme
 * with a cited scope list (AWS's tables, Azure's FedRAMP page) is per service: only the services
 * the list names hold it, as their own. The services filter matches these, labelled provider-wide;
 * a retired or preview service has none.
 */
export function providerWideProgrammes(
  provider: Pick<ProviderT, "defaultCompliance" | "complianceScope">,
  service: Pick<ServiceT, "lifecycle" | "compliance">,
): string[] {
  return providerHoldings(provider, service).flatMap((holding) => (holding.url ? [] : [...holding.programmes]));
}

/** How a service holds every programme asked: by its own scope lists, or (some) only provider-wide. */
export type ComplianceHeld = "own" | "provider";

/**
 * The compliance filter's one rule (docs/decisions.md#compliance-own), for the API, MCP, the text
 * host and the site alike: a service holds every programme asked as its `own` when its own scope
 * lists name each, as `provider` when one or more it holds only through its provider's provider-wide
 * holding (`providerWide`: providerWideProgrammes), and not at all (undefined) when it lacks one.
 */
export function complianceHeld(
  own: readonly string[],
  providerWide: readonly string[],
  asked: readonly string[],
): ComplianceHeld | undefined {
  if (asked.every((id) => own.includes(id))) return "own";
  if (asked.every((id) => own.includes(id) || providerWide.includes(id))) return "provider";
  return undefined;
}

/** Whether a complianceScope keeps a service holding the programmes so: own by default, provider-wide only when asked. */
export const scopeKeeps = (scope: ComplianceFilterScope, held: ComplianceHeld | undefined): boolean =>
  held !== undefined && (scope === "all" || scope === held);

/** What each complianceScope lists, in words (the search form's choices, and the answer's "Shown:"). */
export const COMPLIANCE_SCOPE_LABELS: Readonly<Record<ComplianceFilterScope, string>> = {
  own: "their own",
  provider: "provider-wide only",
  all: "both",
};

/** The scopes in their order (own, provider, all), for a face that may not import the schema (the browser's). */
export const COMPLIANCE_SCOPES_SHOWN = Object.keys(COMPLIANCE_SCOPE_LABELS) as ComplianceFilterScope[];

/**
 * The compliance filter's answer in words, the same on the text host and the site: both holdings
 * counted apart, whichever the scope lists ("ISO/IEC 27001 — named by a scope list (their own): 133
 * services; held only provider-wide, through their provider: 1,121. Shown: their own.").
 */
export function complianceCountsText(
  programmes: string,
  counts: { readonly own: number; readonly provider: number },
  scope: ComplianceFilterScope,
): string {
  const services = (n: number) => `${n.toLocaleString("en")} service${n === 1 ? "" : "s"}`;
  return `${programmes} — named by a scope list (their own): ${services(counts.own)}; held only provider-wide, through their provider: ${services(counts.provider)}. Shown: ${COMPLIANCE_SCOPE_LABELS[scope]}.`;
}

/** The service's own compliance in words: its programmes, "none" by rule, or "not known". */
export function ownComplianceText(service: ServiceT, names: (ids: readonly string[]) => string): string {
  const own = service.compliance ?? [];
  if (own.length > 0) return names(own);
  if (outOfScopeByLifecycle(service)) return `None (a ${service.lifecycle!.status} service is in no programme's scope)`;
  return "Not known: no scope list the catalogue holds names this service";
}

/**
 * "AWS holds PCI DSS, SOC 2; which services are in scope:" (the link follows), or "STACKIT holds
 * C5 provider-wide; the catalogue cites no list of the services in scope": "provider-wide" is the
 * label the services filter's answer gives the same programmes (ServiceList.compliance.providerWide).
 */
export function holdingText(provider: ProviderT, holding: ProviderHolding, names: string): string {
  return holding.url
    ? `${provider.shortName} holds ${names}; which services are in scope:`
    : `${provider.shortName} holds ${names} provider-wide; the catalogue cites no list of the services in scope`;
}
