/**
 * Saved approved-services lists, as the product defines them (DESIGN "Lists"): how a slug is
 * derived, when a list expires, and how a stored list reads against the catalogue today. The
 * API, the text host and the site's list page all use these.
 */
import { nanoid } from "nanoid";
import { LIST_LIFETIME_MS, LIST_SLUG_LENGTH } from "./limits.ts";
import type { Catalogue } from "./load.ts";
import { stripControl } from "./render/doc.ts";
import type { ServiceT } from "./schema.ts";

/** A list as a store keeps it. */
export interface StoredList {
  readonly id: string;
  readonly slug: string | null;
  readonly name: string | null;
  readonly approvedServiceIds: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string;
  /** The Idempotency-Key of the request that saved it, kept for the list's lifetime (never shown). */
  readonly idempotencyKey?: string;
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
  /** The client's Idempotency-Key: a second create with it returns the first list. */
  readonly idempotencyKey?: string;
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

/** A new list from a validated request: generated id, exact expiry, the slug given or derived. */
export function newList(
  input: {
    readonly name?: string | undefined;
    readonly slug?: string | undefined;
    /** Known and without duplicates, as requireKnownIds (ids.ts) returns them. */
    readonly ids: readonly string[];
    readonly idempotencyKey?: string | undefined;
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
    ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
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
