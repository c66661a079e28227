/**
 * Saved approved-services lists, as the product defines them (docs/design.md "Decisions on what the contract leaves open"): how a slug is
 * derived, how a stored list reads against the catalogue today, and where it lives. The API, the
 * text host and the site's list page all use these (pure: the browser may load it); making a new
 * list, which hashes its Idempotency-Key, is lists.node.ts.
 */
import { LIST_LIFETIME_MS, LIST_RENEWAL_MS, LIST_SLUG_LENGTH } from "../base/limits.ts";
import type { Catalogue } from "../load/load.ts";
import { stripControl } from "../format/doc.ts";
import type { ServiceT } from "../schema/index.ts";

/** A list as a store keeps it. */
export interface StoredList {
  readonly id: string;
  readonly slug: string | null;
  readonly name: string | null;
  readonly approvedServiceIds: readonly string[];
  /** Per service slug, the jobs the team uses it for (SavedListCreate.jobsUsed); absent when none were given. */
  readonly jobsUsed?: Readonly<Record<string, readonly string[]>>;
  /** Per service slug, the GB of data to move out of it (SavedListCreate.dataGb); absent when none were given. */
  readonly dataGb?: Readonly<Record<string, number>>;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** The Idempotency-Key of the request that saved it, kept for the list's lifetime (never shown). */
  readonly idempotency?: Idempotency;
}

/**
 * An Idempotency-Key as the stores keep it: scoped to the client that sent it and bound to the
 * request it came with (docs/design.md: a retry returns the first list; another body → 422). Both are
 * digests, so a store never holds the client's address or the key itself.
 */
export interface Idempotency {
  /** sha256 of the client's rate-limit key and the Idempotency-Key: what a retry is looked up by. */
  readonly scope: string;
  /** sha256 of the request's name, slug and service ids: a retry must send the same. */
  readonly fingerprint: string;
}

/** What a store is asked to save. */
export interface NewList {
  readonly id: string;
  readonly name: string | null;
  readonly approvedServiceIds: readonly string[];
  /** Per service slug, the jobs the team uses it for, checked against the catalogue. */
  readonly jobsUsed?: Readonly<Record<string, readonly string[]>>;
  /** Per service slug, the GB of data to move out of it. */
  readonly dataGb?: Readonly<Record<string, number>>;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** An explicit slug: taken → SlugTakenError. */
  readonly slug?: string;
  /** A derived slug: on collision -2, -3, … is appended until unique. */
  readonly derivedSlug?: string;
  /**
   * The client's Idempotency-Key: a second create with the same scope and fingerprint returns the
   * first list; the same scope with another fingerprint is refused (IdempotencyKeyReusedError).
   */
  readonly idempotency?: Idempotency;
}

/** docs/design.md: slugify = NFKD, strip marks, lowercase, runs of other characters → "-", trim "-", cut to 64. */
export function slugify(name: string): string | null {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, LIST_SLUG_LENGTH.max)
    .replace(/-+$/, "");
  return slug.length >= LIST_SLUG_LENGTH.min ? slug : null;
}

/** The candidates for a derived slug: the base, then base-2, base-3, … each cut to fit. */
export const slugCandidates = function* (base: string): Generator<string> {
  yield base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    yield `${base.slice(0, LIST_SLUG_LENGTH.max - suffix.length).replace(/-+$/, "")}${suffix}`;
  }
};

/**
 * A list's name without control and bidi characters (docs/design.md "Decisions on what the contract leaves open"), or null when nothing is
 * left: applied when a list is saved, and again when one is read, for lists stored before it was.
 */
export const cleanListName = (name: string | null): string | null => (name && stripControl(name).trim()) || null;

/** A stored list read against today's catalogue: its services, and the ids the catalogue no longer holds. */
export function resolveList(
  catalogue: Catalogue,
  list: Pick<StoredList, "approvedServiceIds">,
): { services: ServiceT[]; missingServiceIds: string[] } {
  const services: ServiceT[] = [];
  const missingServiceIds: string[] = [];
  for (const id of list.approvedServiceIds) {
    const record = catalogue.bySlug.get(id);
    if (record) services.push(record.service);
    else missingServiceIds.push(id);
  }
  return { services, missingServiceIds };
}

/**
 * A stored list's jobs used, read against today's catalogue for its exit plan: the jobs still among
 * each service's groups. The request was checked when the list was saved, but the catalogue moves
 * on; a job no longer the service's is dropped and named (`dropped`), never a 400 on a read, and a
 * service left with none is planned with all its jobs.
 */
export function resolveJobsUsed(
  catalogue: {
    readonly bySlug: ReadonlyMap<
      string,
      { readonly service: Pick<ServiceT, "slug">; readonly groupIds: readonly string[] }
    >;
  },
  list: { readonly jobsUsed?: Readonly<Record<string, readonly string[]>> | undefined },
): { jobsUsed: Record<string, string[]> | undefined; dropped: string[] } {
  if (!list.jobsUsed) return { jobsUsed: undefined, dropped: [] };
  const jobsUsed: Record<string, string[]> = {};
  const dropped: string[] = [];
  for (const [slug, groups] of Object.entries(list.jobsUsed)) {
    const record = catalogue.bySlug.get(slug);
    // A service the catalogue no longer holds is named by the plan's missing ids already.
    if (!record) continue;
    const kept = groups.filter((group) => record.groupIds.includes(group));
    dropped.push(...groups.filter((group) => !kept.includes(group)).map((group) => `${slug}: ${group}`));
    if (kept.length > 0) jobsUsed[record.service.slug] = kept;
  }
  return { jobsUsed: Object.keys(jobsUsed).length > 0 ? jobsUsed : undefined, dropped };
}

/** The plan's note naming the saved jobs resolveJobsUsed dropped. */
export const jobsDroppedNote = (dropped: readonly string[]): string =>
  `Saved jobs no longer among their service's jobs in the catalogue, so not planned: ${dropped.slice(0, 20).join(", ")}${dropped.length > 20 ? ` and ${dropped.length - 20} more` : ""}.`;

/**
 * The expiry a read at `now` gives a list (docs/decisions.md#list-renewal): now + the lifetime, when
 * that moves it by a day or more; undefined otherwise, so a list read all day is written once a day.
 * The rule reads only the stored expiry, so every server sharing a store applies it alike.
 */
export function renewedExpiry(list: Pick<StoredList, "expiresAt">, now: Date): Date | undefined {
  const renewed = now.getTime() + LIST_LIFETIME_MS;
  return renewed - Date.parse(list.expiresAt) >= LIST_RENEWAL_MS ? new Date(renewed) : undefined;
}

/**
 * Until when an answer made from `list` may be reused (a server's kept answer, Cache-Control): the
 * moment a read would renew it, so that the first read after it reaches the store and renews the
 * list. Always before the list's expiry.
 */
export const reusableUntil = (list: Pick<StoredList, "expiresAt">): Date =>
  new Date(Date.parse(list.expiresAt) - LIST_LIFETIME_MS + LIST_RENEWAL_MS);

/** The list's address on the text host: by slug when it has one. */
export { listPath } from "../base/urls.ts";
