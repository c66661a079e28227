/**
 * What leaving costs (issue 114): for each provider an exit plan moves services from, its internet
 * egress price as its own page states it, the free data transfer it publishes for customers
 * leaving (with its conditions), and the EU Data Act's rule on switching charges on the plan's
 * date (catalogue/data/egress.yaml); given the data to move per service (dataGb), the egress of
 * moving it at list price. Every figure carries its page and the day it was read; a provider
 * without such a page is said to have none, never priced.
 */
import { HttpError } from "../base/problem.ts";
import { type ExitCatalogue, providerNameOf } from "./context.ts";
import type { ExitLeavingProviderT, ExitLeavingT, ExitServicePlanT, ProviderEgressT } from "../schema/index.ts";

/** Per approved service (id or slug), the GB of data to move out of it (ExitPlanBody.dataGb). */
export type DataVolumes = Readonly<Record<string, number>>;

/** The data volumes keyed by each service's slug; a 400 names an id not in the approved list. */
export function checkedDataGb(
  catalogue: Pick<ExitCatalogue, "bySlug">,
  approvedSlugs: readonly string[],
  dataGb: DataVolumes | undefined,
): Record<string, number> | undefined {
  if (!dataGb) return undefined;
  const bySlug: Record<string, number> = {};
  for (const [id, gb] of Object.entries(dataGb)) {
    const slug = catalogue.bySlug.get(id)?.service.slug;
    if (!slug || !approvedSlugs.includes(slug))
      throw new HttpError(400, "Invalid body", `dataGb names ${id.slice(0, 80)}, which is not in approvedServiceIds.`);
    bySlug[slug] = (bySlug[slug] ?? 0) + gb;
  }
  return bySlug;
}

const number = (n: number) => n.toLocaleString("en", { maximumFractionDigits: 2 });
const money = (currency: string, n: number) =>
  `${currency} ${n.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The list price of `gb` past the free allowance, band by band; undefined without bands. */
export function egressCost(egress: Pick<ProviderEgressT, "tiers">, gb: number): number | undefined {
  if (!egress.tiers) return undefined;
  let cost = 0;
  let from = 0;
  for (const tier of egress.tiers) {
    const to = tier.upToGb ?? Infinity;
    const inBand = Math.max(0, Math.min(gb, to) - from);
    cost += inBand * tier.perGb;
    from = to;
    if (gb <= to) break;
  }
  return Math.round(cost * 100) / 100;
}

/** An entry with a price: its currency, scope and source given together (the schema's rule). */
type Priced = ProviderEgressT & Required<Pick<ProviderEgressT, "currency" | "scope" | "source">>;

/** A provider's price in words: "100 GB free a month, then USD 0.09 per GB up to 10,240 GB, … (scope; page, read day)". */
function priceWords(egress: Priced): string {
  const tiers = egress.tiers ?? [];
  const page = `${egress.source.url}, read ${egress.source.retrieved}`;
  if (tiers.length > 0 && tiers.every((tier) => tier.perGb === 0)) return `no charge (${egress.scope}; ${page})`;
  const free = egress.freeGbPerMonth ? `${number(egress.freeGbPerMonth)} GB free a month` : "no free allowance";
  const bands = tiers.map((tier, i) => {
    const price = `${money(egress.currency, tier.perGb)} per GB`;
    if (tier.upToGb !== undefined) return `${price} up to ${number(tier.upToGb)} GB`;
    return i === 0 ? price : `${price} beyond ${number(tiers[i - 1]!.upToGb!)} GB`;
  });
  return `${free}${bands.length > 0 ? `, then ${bands.join(", ")}` : ""} (${egress.scope}; ${page})`;
}

/** One provider moved from: its price, its waiver, and the estimate for the data given. */
function leavingProvider(
  catalogue: ExitCatalogue,
  providerId: string,
  plans: readonly ExitServicePlanT[],
  dataGb: Readonly<Record<string, number>> | undefined,
): ExitLeavingProviderT {
  const entry = catalogue.egress?.providers.find((one) => one.provider === providerId);
  // A price only where its page states it (currency, scope and source together).
  const egress = entry?.source && entry.scope && entry.currency ? (entry as Priced) : undefined;
  const waiver = entry?.waiver;
  const name = providerNameOf(catalogue, providerId);
  // A retired service has nothing left to move.
  const volumes = plans.filter((plan) => plan.lifecycle !== "retired" && dataGb?.[plan.slug] !== undefined);
  const gb = volumes.reduce((sum, plan) => sum + dataGb![plan.slug]!, 0);
  // A price stated for some products only (R2's) prices their data only.
  const unpriced = egress?.services
    ? volumes.filter((plan) => !egress.services!.includes(plan.slug))
    : egress
      ? []
      : volumes;
  const unpricedGb = unpriced.reduce((sum, plan) => sum + dataGb![plan.slug]!, 0);
  const words = [
    egress
      ? `Internet egress from ${name}: ${priceWords(egress)}.`
      : `The catalogue holds no official page stating the internet egress price of ${name}: ask the provider, or read its price list.`,
  ];
  let estimate: ExitLeavingProviderT["estimate"];
  if (volumes.length > 0) {
    const priced = egress ? gb - unpricedGb : 0;
    const billable = Math.max(0, priced - (egress?.freeGbPerMonth ?? 0));
    const cost = egress && priced > 0 ? egressCost(egress, billable) : undefined;
    const currency = egress?.currency;
    const outside =
      egress && unpricedGb > 0
        ? ` ${number(unpricedGb)} GB from ${unpriced.map((plan) => plan.name).join(", ")}: the published price does not cover ${unpriced.length === 1 ? "it" : "them"}, so no estimate.`
        : "";
    const said =
      cost === undefined
        ? `Moving ${number(gb)} GB out of ${name}: no published band price in the catalogue${egress ? " for that data" : ""}, so no estimate.`
        : `Moving ${number(priced)} GB out of ${name} within one month: ${number(billable)} GB past the free allowance, about ${money(currency!, cost)} at list price, before tax${waiver ? " and before the exit waiver" : ""}.${outside}`;
    // What the catalogue cannot price stays absent, never 0 or "" (issue 124).
    estimate = {
      dataGb: gb,
      ...(egress ? { billableGb: billable } : {}),
      ...(egress && unpricedGb > 0 ? { unpricedGb } : {}),
      ...(cost === undefined ? {} : { cost }),
      ...(currency ? { currency } : {}),
      words: said,
    };
    words.push(said);
  }
  words.push(
    waiver
      ? `${name} waives it for customers leaving (published ${waiver.announced}; ${waiver.source.url}, read ${waiver.source.retrieved}): ${waiver.gives} Conditions: ${waiver.conditions.join(" ")}`
      : `Exit waiver: not recorded. The catalogue holds no official page of ${name} stating free data transfer for customers leaving, so none is assumed; ask ${name}.`,
  );
  return {
    providerId,
    providerName: name,
    services: plans.map((plan) => plan.slug),
    ...(egress
      ? {
          egress: {
            currency: egress.currency,
            ...(egress.freeGbPerMonth === undefined ? {} : { freeGbPerMonth: egress.freeGbPerMonth }),
            scope: egress.scope,
            ...(egress.tiers ? { tiers: egress.tiers.map((tier) => ({ ...tier })) } : {}),
            ...(egress.services ? { services: [...egress.services] } : {}),
            source: { ...egress.source },
          },
        }
      : {}),
    ...(waiver ? { waiver: structuredClone(waiver) } : {}),
    waiverRecorded: waiver !== undefined,
    ...(estimate ? { estimate } : {}),
    words: words.join(" "),
  };
}

/**
 * What leaving costs for a plan: per provider its services move from, in list order. Undefined
 * where the catalogue carries no egress data (a build before 1.12.0).
 */
export function leavingOf(
  catalogue: ExitCatalogue,
  plans: readonly ExitServicePlanT[],
  dataGb: Readonly<Record<string, number>> | undefined,
): ExitLeavingT | undefined {
  const file = catalogue.egress;
  if (!file) return undefined;
  const asOf = catalogue.lastUpdated.slice(0, 10);
  const byProvider = new Map<string, ExitServicePlanT[]>();
  for (const plan of plans)
    if (plan.outcome !== "stays") byProvider.set(plan.providerId, [...(byProvider.get(plan.providerId) ?? []), plan]);
  const period =
    file.dataAct.periods.find((one) => one.from <= asOf && (one.until === undefined || asOf < one.until)) ??
    file.dataAct.periods[0]!;
  const unknown = dataGb
    ? Object.keys(dataGb).filter((slug) => !plans.some((plan) => plan.slug === slug && plan.outcome !== "stays"))
    : [];
  return {
    asOf,
    dataAct: {
      name: file.dataAct.name,
      rule: asOf < period.from ? `Not yet in force on ${asOf}.` : period.rule,
      periods: file.dataAct.periods.map((one) => ({ ...one })),
      ...(file.dataAct.rules
        ? { rules: file.dataAct.rules.map((one) => ({ ...one, source: { ...one.source } })) }
        : {}),
      source: { ...file.dataAct.source },
    },
    providers: [...byProvider].map(([providerId, moved]) => leavingProvider(catalogue, providerId, moved, dataGb)),
    notes: [
      "Estimates apply the provider's published internet egress bands, at list price before tax, to the data given as if it all left within one month, past the free monthly allowance; traffic the provider counts in the same allowance, committed-use discounts, private interconnects and the target's ingress (free at most providers) are left out.",
      "An exit waiver is granted on the provider's conditions, on request: it is not assumed in any estimate.",
      ...(unknown.length > 0
        ? [`Data given for services that do not move, so not counted: ${unknown.join(", ")}.`]
        : []),
    ],
  };
}
