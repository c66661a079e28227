/**
 * Saved approved-services lists, as the product defines them (DESIGN "Lists"): how a slug is
 * derived, when a list expires, and how a stored list reads against the catalogue today. The
 * API, the text host and the site's list page all use these.
 */
import { createHash } from "node:crypto";
import { nanoid } from "nanoid";
import { LIST_LIFETIME_MS, LIST_SLUG_LENGTH } from "./limits.ts";
import type { Catalogue } from "./load.ts";
import { stripControl } from "./render/doc.ts";
import type { ServiceT } from "./schema/index.ts";

/** A list as a store keeps it. */
export interface StoredList {
  readonly id: string;
  readonly slug: string | null;
  readonly name: string | null;
  readonly approvedServiceIds: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string;
  /** The Idempotency-Key of the request that saved it, kept for the list's lifetime (never shown). */
  readonly idempotency?: Idempotency;
}

/**
 * An Idempotency-Key as the stores keep it: scoped to the client that sent it and bound to the
 * request it came with (DESIGN: a retry returns the first list; another body → 422). Both are
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

/** nanoid's default: 21 characters of a 64-symbol URL-safe alphabet, 126 bits, unguessable. */
export const newListId = (): string => nanoid();

/** DESIGN: slugify = NFKD, strip marks, lowercase, runs of other characters → "-", trim "-", cut to 64. */
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
 * A list's name without control and bidi characters (DESIGN "Security"), or null when nothing is
 * left: applied when a list is saved, and again when one is read, for lists stored before it was.
 */
export const cleanListName = (name: string | null): string | null => (name && stripControl(name).trim()) || null;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The stored form of `key` sent by `client` (the client's rate-limit key: its address as resolved
 * under TRUST_PROXY, an IPv6 one by its /64) with a request for this list.
 */
export function idempotencyOf(
  key: string,
  client: string,
  request: { readonly name?: string | undefined; readonly slug?: string | undefined; readonly ids: readonly string[] },
): Idempotency {
  return {
    scope: sha256(JSON.stringify([client, key])),
    fingerprint: sha256(JSON.stringify([request.name ?? null, request.slug ?? null, request.ids])),
  };
}

/** A new list from a validated request: generated id, exact expiry, the slug given or derived. */
export function newList(
  input: {
    readonly name?: string | undefined;
    readonly slug?: string | undefined;
    /** Known and without duplicates, as requireKnownIds (ids.ts) returns them. */
    readonly ids: readonly string[];
    /** The request's Idempotency-Key and the client that sent it. */
    readonly idempotencyKey?: { readonly key: string; readonly client: string } | undefined;
  },
  createdAt: Date,
): NewList {
  const name = cleanListName(input.name ?? null);
  const derivedSlug = !input.slug && name ? slugify(name) : null;
  return {
    id: newListId(),
    name,
    approvedServiceIds: input.ids,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + LIST_LIFETIME_MS),
    ...(input.slug ? { slug: input.slug } : derivedSlug ? { derivedSlug } : {}),
    ...(input.idempotencyKey
      ? { idempotency: idempotencyOf(input.idempotencyKey.key, input.idempotencyKey.client, input) }
      : {}),
  };
}

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

/** The list's address on the text host: by slug when it has one. */
export const listPath = (list: Pick<StoredList, "slug" | "id">): string => `/lists/${list.slug ?? list.id}`;
