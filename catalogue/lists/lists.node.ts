/**
 * Node-only: a new list from a validated request (generated id, exact expiry, the slug given or
 * derived) and the digests its Idempotency-Key is kept as (sha256, node:crypto). What a list is and
 * how it reads is lists.ts, which the browser may load.
 */
import { createHash } from "node:crypto";
import { nanoid } from "nanoid";
import { LIST_LIFETIME_MS } from "../base/limits.ts";
import { cleanListName, slugify, type Idempotency, type NewList } from "./lists.ts";

/** nanoid's default: 21 characters of a 64-symbol URL-safe alphabet, 126 bits, unguessable. */
export const newListId = (): string => nanoid();

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The stored form of `key` sent by `client` (the client's rate-limit key: its address as resolved
 * under TRUST_PROXY, an IPv6 one by its /64) with a request for this list.
 */
export function idempotencyOf(
  key: string,
  client: string,
  request: {
    readonly name?: string | undefined;
    readonly slug?: string | undefined;
    readonly ids: readonly string[];
    readonly unlisted?: boolean | undefined;
    readonly jobsUsed?: Readonly<Record<string, readonly string[]>> | undefined;
    readonly dataGb?: Readonly<Record<string, number>> | undefined;
  },
): Idempotency {
  // `unlisted`, `jobsUsed` and `dataGb` join the fingerprint only when given, so the digests kept before they
  // existed still match; a retry with other jobs is another body (422).
  const fields = [
    request.name ?? null,
    request.slug ?? null,
    request.ids,
    ...(request.unlisted ? [true] : []),
    ...(request.jobsUsed ? [{ jobsUsed: request.jobsUsed }] : []),
    ...(request.dataGb ? [{ dataGb: request.dataGb }] : []),
  ];
  return { scope: sha256(JSON.stringify([client, key])), fingerprint: sha256(JSON.stringify(fields)) };
}

/** A new list from a validated request: generated id, exact expiry, the slug given or derived (none when unlisted). */
export function newList(
  input: {
    readonly name?: string | undefined;
    readonly slug?: string | undefined;
    /** Saved by id only: no slug, given or derived, so nobody finds it by guessing a name. */
    readonly unlisted?: boolean | undefined;
    /** Known and without duplicates, as requireKnownIds (search/ids.ts) returns them. */
    readonly ids: readonly string[];
    /** Per service slug, the jobs the team uses it for, checked against the catalogue. */
    readonly jobsUsed?: Readonly<Record<string, readonly string[]>> | undefined;
    /** Per service slug, the GB of data to move out of it. */
    readonly dataGb?: Readonly<Record<string, number>> | undefined;
    /** The request's Idempotency-Key and the client that sent it. */
    readonly idempotencyKey?: { readonly key: string; readonly client: string } | undefined;
  },
  createdAt: Date,
): NewList {
  const name = cleanListName(input.name ?? null);
  const derivedSlug = !input.slug && !input.unlisted && name ? slugify(name) : null;
  return {
    id: newListId(),
    name,
    approvedServiceIds: input.ids,
    ...(input.jobsUsed ? { jobsUsed: input.jobsUsed } : {}),
    ...(input.dataGb ? { dataGb: input.dataGb } : {}),
    createdAt,
    expiresAt: new Date(createdAt.getTime() + LIST_LIFETIME_MS),
    ...(input.slug && !input.unlisted ? { slug: input.slug } : derivedSlug ? { derivedSlug } : {}),
    ...(input.idempotencyKey
      ? { idempotency: idempotencyOf(input.idempotencyKey.key, input.idempotencyKey.client, input) }
      : {}),
  };
}
