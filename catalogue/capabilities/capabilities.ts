/**
 * What moving from one service to another keeps and loses of a job's capabilities (issue 98;
 * catalogue/data/capabilities.yaml). One function, capabilityDifference, answers the exit plan's
 * "what is lost", the compare's key differences and a service page's equivalents, so the three
 * never disagree. Browser-safe: the site's planner runs it on the compact catalogue.
 */
import type {
  CapabilitiesFileT,
  CapabilityDifferenceT,
  CapabilityState,
  CapabilityT,
  KeyDifferenceT,
} from "../schema/capabilities.ts";
import type { FactSourceT } from "../schema/compatibility.ts";

/** The capabilities data without its sources: what deciding a fit reads (JSON-serialisable). */
export interface CapabilityData {
  readonly capabilities: readonly Pick<CapabilityT, "id" | "name" | "means">[];
  readonly jobs: readonly { readonly group: string; readonly capabilities: readonly string[] }[];
  readonly services: readonly {
    readonly service: string;
    readonly has?: readonly string[] | undefined;
    readonly partly?: readonly string[] | undefined;
    readonly lacks?: readonly string[] | undefined;
    /** The part a `partly` capability is had in, as the vendor's page limits it. */
    readonly limits?: Readonly<Record<string, string>> | undefined;
  }[];
}

type KnownState = Exclude<CapabilityState, "not-known">;

export interface CapabilityIndex {
  readonly byId: ReadonlyMap<string, Pick<CapabilityT, "id" | "name" | "means">>;
  /** Per group id, its capability ids in order. */
  readonly jobs: ReadonlyMap<string, readonly string[]>;
  /** Per service slug, each capability it has, has in part or lacks (absent: not known). */
  readonly states: ReadonlyMap<string, ReadonlyMap<string, KnownState>>;
  /** Per service slug, the part each capability it has `partly` is had in. */
  readonly limits: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Per service slug, the vendor pages behind its states (the server's index only: the browser's has none). */
  readonly sources?: ReadonlyMap<string, readonly Pick<FactSourceT, "url" | "retrieved">[]>;
}

/** A service's compatibility records as the capabilities read them (a ServiceRecord is one). */
export interface CompatibilityRecords {
  readonly compatibility?: readonly {
    readonly id: string;
    readonly scope?: string | undefined;
    readonly source?: Pick<FactSourceT, "url" | "retrieved">;
  }[];
  readonly notCompatible?: readonly {
    readonly id: string;
    readonly note?: string | undefined;
    readonly source?: Pick<FactSourceT, "url" | "retrieved">;
  }[];
}

/**
 * The capabilities a service's compatibility records state (issue 114: what the catalogue already
 * states, with sources): for each capability naming a term, a whole claim has it, a scoped claim
 * has it in part (the scope its limit), a notCompatible record lacks it; each with the record's page.
 */
function derivedStates(
  capabilities: CapabilitiesFileT["capabilities"],
  records: CompatibilityRecords,
): {
  has: string[];
  partly: string[];
  lacks: string[];
  limits: Record<string, string>;
  sources: Pick<FactSourceT, "url" | "retrieved">[];
} {
  const derived = {
    has: [] as string[],
    partly: [] as string[],
    lacks: [] as string[],
    limits: {} as Record<string, string>,
    sources: [] as Pick<FactSourceT, "url" | "retrieved">[],
  };
  for (const capability of capabilities) {
    if (!capability.compatibility) continue;
    const claim = records.compatibility?.find((entry) => entry.id === capability.compatibility);
    const not = records.notCompatible?.find((entry) => entry.id === capability.compatibility);
    if (claim && !claim.scope) derived.has.push(capability.id);
    else if (claim) {
      derived.partly.push(capability.id);
      derived.limits[capability.id] = claim.scope!;
    } else if (not) derived.lacks.push(capability.id);
    else continue;
    const source = (claim ?? not)!.source;
    if (source) derived.sources.push({ url: source.url, retrieved: source.retrieved });
  }
  return derived;
}

/**
 * The data as deciding reads it (sources left out; a `partly` capability's note kept as its
 * limit). Given each service's compatibility records, the capabilities they state join those the
 * file states; the file's own word on a capability wins.
 */
export function capabilityData(
  file: CapabilitiesFileT,
  records?: ReadonlyMap<string, CompatibilityRecords>,
): CapabilityData {
  const stated = new Map(file.services.map((entry) => [entry.service, entry]));
  const slugs = new Set([...stated.keys(), ...(records ? [...records.keys()] : [])]);
  const services = [...slugs].flatMap((service) => {
    const entry = stated.get(service);
    // The file's has, partly and lacks win; its notKnown gives way to a record that states it.
    const named = new Set([...(entry?.has ?? []), ...(entry?.partly ?? []), ...(entry?.lacks ?? [])]);
    const derived = records?.get(service) ? derivedStates(file.capabilities, records.get(service)!) : undefined;
    const fresh = (ids: readonly string[] = []) => ids.filter((id) => !named.has(id));
    const has = [...(entry?.has ?? []), ...fresh(derived?.has)];
    const partly = [...(entry?.partly ?? []), ...fresh(derived?.partly)];
    const lacks = [...(entry?.lacks ?? []), ...fresh(derived?.lacks)];
    if (has.length + partly.length + lacks.length === 0) return entry ? [{ service }] : [];
    const limits = Object.fromEntries(
      partly.map((id) => [id, entry?.partly?.includes(id) ? (entry.notes?.[id] ?? "") : (derived?.limits[id] ?? "")]),
    );
    return [
      {
        service,
        ...(has.length > 0 ? { has } : {}),
        ...(partly.length > 0 ? { partly, limits } : {}),
        ...(lacks.length > 0 ? { lacks } : {}),
      },
    ];
  });
  return {
    capabilities: file.capabilities.map(({ id, name, means }) => ({ id, name, means })),
    jobs: file.jobs,
    services,
  };
}

/**
 * The index; given the file (and the compatibility records), it keeps each service's sources for
 * the key differences.
 */
export function capabilityIndex(
  data: CapabilityData,
  file?: CapabilitiesFileT,
  records?: ReadonlyMap<string, CompatibilityRecords>,
): CapabilityIndex {
  const states = new Map<string, Map<string, KnownState>>();
  const limits = new Map<string, Map<string, string>>();
  for (const entry of data.services) {
    const state = new Map<string, KnownState>();
    for (const id of entry.has ?? []) state.set(id, "has");
    for (const id of entry.partly ?? []) state.set(id, "partly");
    for (const id of entry.lacks ?? []) state.set(id, "lacks");
    states.set(entry.service, state);
    if (entry.limits) limits.set(entry.service, new Map(Object.entries(entry.limits)));
  }
  return {
    byId: new Map(data.capabilities.map((capability) => [capability.id, capability])),
    jobs: new Map(data.jobs.map((job) => [job.group, job.capabilities])),
    states,
    limits,
    ...(file ? { sources: sourcesOf(file, records) } : {}),
  };
}

/** Per service, the pages behind its capabilities: the file's sources, then its compatibility records'. */
function sourcesOf(
  file: CapabilitiesFileT,
  records: ReadonlyMap<string, CompatibilityRecords> | undefined,
): Map<string, Pick<FactSourceT, "url" | "retrieved">[]> {
  const sources = new Map<string, Pick<FactSourceT, "url" | "retrieved">[]>();
  for (const entry of file.services)
    sources.set(
      entry.service,
      [...(entry.sources ?? []), ...(entry.engine?.sources ?? [])].map(({ url, retrieved }) => ({ url, retrieved })),
    );
  for (const [slug, record] of records ?? [])
    sources.set(slug, [...(sources.get(slug) ?? []), ...derivedStates(file.capabilities, record).sources]);
  return sources;
}

/** Whether the catalogue records the service as having at least one of a job's capabilities. */
export const hasCapabilitiesFor = (index: CapabilityIndex, group: string, slug: string): boolean =>
  (index.jobs.get(group) ?? []).some((id) => index.states.get(slug)?.get(id) === "has");

/** How a service stands on one capability. */
export function capabilityState(index: CapabilityIndex, slug: string, id: string): CapabilityState {
  return index.states.get(slug)?.get(id) ?? "not-known";
}

/**
 * What moving `from` to `to` does to the job's capabilities `from` has: kept, lost (recorded as
 * lacking), not known; and what `to` has that `from` does not. Undefined when the job has no
 * capabilities or the catalogue records none for `from` (nothing to compare against).
 */
export function capabilityDifference(
  index: CapabilityIndex | undefined,
  group: string,
  from: string,
  to: string,
): CapabilityDifferenceT | undefined {
  const ids = index?.jobs.get(group);
  if (!index || !ids || !hasCapabilitiesFor(index, group, from)) return undefined;
  const difference = {
    kept: [] as string[],
    lost: [] as string[],
    partial: [] as string[],
    notKnown: [] as string[],
    gained: [] as string[],
  };
  for (const id of ids) {
    const mine = capabilityState(index, from, id);
    const theirs = capabilityState(index, to, id);
    // What the replaced service has in part only, the replacing one need only have in part.
    if (mine === "has" || mine === "partly") {
      if (theirs === "has" || (theirs === "partly" && mine === "partly")) difference.kept.push(id);
      else if (theirs === "partly") difference.partial.push(id);
      else if (theirs === "lacks") difference.lost.push(id);
      else difference.notKnown.push(id);
    } else if (theirs === "has") difference.gained.push(id);
  }
  const { partial, ...rest } = difference;
  return partial.length > 0 ? { ...rest, partial } : rest;
}

/**
 * What a capability difference loses, in words: one phrase per capability recorded as lacking
 * ("SMB file shares (smb): not supported") or had in part only, with the part the vendor's page
 * limits it to. A capability the catalogue does not know about is no loss (unconfirmedWords).
 */
export function lostWords(index: CapabilityIndex, difference: CapabilityDifferenceT, to?: string): string[] {
  const name = (id: string) => index.byId.get(id)?.name ?? id;
  const limit = (id: string) => (to ? index.limits.get(to)?.get(id) : undefined);
  return [
    ...difference.lost.map((id) => `${name(id)} (${id}): not supported`),
    ...(difference.partial ?? []).map((id) => `${name(id)} (${id}): in part only${limit(id) ? ` (${limit(id)})` : ""}`),
  ];
}

/** The capabilities not known of the replacing service, in words: to check, not a loss (issue 114). */
export function unconfirmedWords(index: CapabilityIndex, difference: CapabilityDifferenceT): string[] {
  return difference.notKnown.map(
    (id) => `${index.byId.get(id)?.name ?? id} (${id}): not known whether it is supported`,
  );
}

/** What the key differences read of a service's compatibility records (ServiceRecord's), and a term's name. */
export interface ProtocolReader {
  readonly claims: (slug: string) =>
    | {
        readonly compatibility?: readonly {
          readonly id: string;
          readonly scope?: string | undefined;
          readonly source: Pick<FactSourceT, "url" | "retrieved">;
        }[];
        readonly notCompatible?: readonly {
          readonly id: string;
          readonly note?: string | undefined;
          readonly source: Pick<FactSourceT, "url" | "retrieved">;
        }[];
      }
    | undefined;
  readonly name: (term: string) => string;
}

type ProtocolDifference = NonNullable<KeyDifferenceT["compatibility"]>;

/**
 * What moving `from` to `to` keeps of the protocols and APIs `from` speaks (compatibility records
 * with sources, issue 114): kept (spoken whole), partial (in part, with the part), lost (recorded as
 * not supported, with the vendor's words); a term neither records is left out, not guessed. The
 * pages behind each are returned beside.
 */
function protocolDifference(
  protocols: ProtocolReader,
  from: string,
  to: string,
): { difference: ProtocolDifference; sources: Pick<FactSourceT, "url" | "retrieved">[] } {
  const mine = protocols.claims(from)?.compatibility ?? [];
  const theirs = protocols.claims(to);
  const difference: ProtocolDifference = { kept: [], partial: [], lost: [] };
  const sources: Pick<FactSourceT, "url" | "retrieved">[] = [];
  for (const claim of mine) {
    const whole = theirs?.compatibility?.find((other) => other.id === claim.id);
    const not = theirs?.notCompatible?.find((other) => other.id === claim.id);
    if (whole && (!whole.scope || claim.scope)) difference.kept.push(claim.id);
    else if (whole) difference.partial.push(`${claim.id}: ${whole.scope}`);
    else if (not) difference.lost.push(`${claim.id}${not.note ? `: ${not.note}` : ""}`);
    else continue;
    sources.push(claim.source, (whole ?? not)!.source);
  }
  return { difference, sources };
}

/**
 * The key differences of moving `from` to `to`: one per job both are members of, where the
 * catalogue records `from`'s capabilities for it (capabilities.yaml) or, given `protocols`, where
 * a protocol or API `from` speaks is recorded for `to` as spoken, spoken in part or not supported
 * (the compare's and a service page's rows). Each names the vendor pages behind it (`sources`).
 */
export function keyDifferences(
  index: CapabilityIndex | undefined,
  groupsOf: (slug: string) => readonly string[],
  from: string,
  to: string,
  protocols?: ProtocolReader,
): KeyDifferenceT[] {
  if (!index && !protocols) return [];
  const theirs = new Set(groupsOf(to));
  const shared = groupsOf(from).filter((group) => theirs.has(group));
  const spoken = protocols ? protocolDifference(protocols, from, to) : undefined;
  const anySpoken =
    spoken && spoken.difference.kept.length + spoken.difference.partial.length + spoken.difference.lost.length > 0;
  const capabilitySources = [...(index?.sources?.get(from) ?? []), ...(index?.sources?.get(to) ?? [])];
  return shared.flatMap((group) => {
    const difference = index ? capabilityDifference(index, group, from, to) : undefined;
    if (!difference && !anySpoken) return [];
    const capabilities = difference ?? { kept: [], lost: [], notKnown: [], gained: [] };
    const sources = uniqueSources([...(difference ? capabilitySources : []), ...(anySpoken ? spoken.sources : [])]);
    return [
      {
        group,
        from,
        to,
        ...capabilities,
        ...(anySpoken ? { compatibility: spoken.difference } : {}),
        sources,
        words: differenceWords(index, capabilities, anySpoken ? spoken.difference : undefined, protocols),
      },
    ];
  });
}

/** Sources once each, by URL, in the order met. */
function uniqueSources(
  sources: readonly Pick<FactSourceT, "url" | "retrieved">[],
): Pick<FactSourceT, "url" | "retrieved">[] {
  const seen = new Map<string, Pick<FactSourceT, "url" | "retrieved">>();
  for (const source of sources)
    if (!seen.has(source.url)) seen.set(source.url, { url: source.url, retrieved: source.retrieved });
  return [...seen.values()];
}

/** "keeps SMB file shares; loses NFS v3 (not supported); not known: …; adds …; speaks …". */
function differenceWords(
  index: CapabilityIndex | undefined,
  difference: CapabilityDifferenceT,
  spoken: ProtocolDifference | undefined,
  protocols: ProtocolReader | undefined,
): string {
  const names = (ids: readonly string[]) => ids.map((id) => index?.byId.get(id)?.name ?? id).join(", ");
  const terms = (entries: readonly string[]) =>
    entries
      .map((entry) => {
        const [id, ...rest] = entry.split(": ");
        return `${protocols?.name(id!) ?? id}${rest.length > 0 ? ` (${rest.join(": ")})` : ""}`;
      })
      .join("; ");
  return [
    difference.kept.length > 0 ? `keeps ${names(difference.kept)}` : "",
    (difference.partial ?? []).length > 0 ? `keeps in part only ${names(difference.partial ?? [])}` : "",
    difference.lost.length > 0 ? `loses ${names(difference.lost)} (not supported)` : "",
    difference.notKnown.length > 0 ? `not known whether it has ${names(difference.notKnown)}` : "",
    difference.gained.length > 0 ? `adds ${names(difference.gained)}` : "",
    spoken && spoken.kept.length > 0 ? `still speaks ${terms(spoken.kept)}` : "",
    spoken && spoken.partial.length > 0 ? `speaks in part only ${terms(spoken.partial)}` : "",
    spoken && spoken.lost.length > 0 ? `does not speak ${terms(spoken.lost)}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** A ProtocolReader over a catalogue's records and its compatibility vocabulary (a Catalogue is both). */
export function protocolReader(catalogue: {
  readonly bySlug: ReadonlyMap<string, Partial<ReturnType<ProtocolReader["claims"]> & object>>;
  readonly compatibilityById: ReadonlyMap<string, { readonly name?: string }>;
}): ProtocolReader {
  return {
    claims: (slug) => catalogue.bySlug.get(slug),
    name: (term) => catalogue.compatibilityById.get(term)?.name ?? term,
  };
}
