/**
 * "These ids must be known services": one rule for every id list the product takes — the `ids`
 * query of compare and exposure, `approvedServiceIds` of policies, export and lists, the text
 * host's /compare/{a,b,…} and the site's links.
 */
import type { Catalogue } from "../load/load.ts";
import { HttpError } from "../base/problem.ts";
import { idListItems } from "../schema/requests.ts";

/** Control and bidi characters (those stripControl removes) written as \uXXXX, so an echoed id is the id sent. */
export function escapeControl(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
import { serviceSearch } from "./search.ts";

/** How many unknown ids get suggestions (each costs one search), and how many slugs each. */
const SUGGESTED_IDS = 5;
const SUGGESTIONS = 3;

/** Some ids name no service. The API answers 400; the text host, whose ids are in the path, 404. */
export class UnknownIdsError extends HttpError {
  readonly ids: readonly string[];
  /** Per unknown id (the first few), the nearest slugs: a Map, since an id may be any name ("hasOwnProperty"). */
  readonly nearest: ReadonlyMap<string, readonly string[]>;
  constructor(ids: readonly string[], nearest: ReadonlyMap<string, readonly string[]> = new Map()) {
    const named = ids.slice(0, 20).map((id) => {
      const slugs = nearest.get(id);
      return slugs?.length ? `${id} (did you mean ${slugs.join(", ")}?)` : id;
    });
    super(
      400,
      "Unknown service ids",
      `Not in the catalogue: ${named.join(", ")}${ids.length > 20 ? ` and ${ids.length - 20} more` : ""}`,
    );
    this.ids = ids;
    this.nearest = nearest;
  }
}

/**
 * The slugs nearest an unknown id, by the one search over its words ("azure-aks" → AKS, "aws-rds" →
 * the RDS engines). A slug with the id's provider prefix is preferred where one matches.
 */
export function nearestSlugs(catalogue: Catalogue, id: string): string[] {
  const words = id.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  if (!words) return [];
  return serviceSearch(catalogue).search(words).slugs.slice(0, SUGGESTIONS);
}

/** An UnknownIdsError for these ids (already cut for display), with the nearest slugs of the first few. */
export function unknownIds(catalogue: Catalogue, ids: readonly string[]): UnknownIdsError {
  const nearest = new Map(
    ids.slice(0, SUGGESTED_IDS).flatMap((id) => {
      const slugs = nearestSlugs(catalogue, id);
      return slugs.length > 0 ? [[id, slugs] as const] : [];
    }),
  );
  return new UnknownIdsError(ids, nearest);
}

/**
 * The ids, de-duplicated in order, as the catalogue's own strings (a saved list then holds no copy
 * of each id); throws UnknownIdsError naming those not in the catalogue, each once, cut for display.
 */
export function requireKnownIds(catalogue: Catalogue, ids: readonly string[]): string[] {
  const known = new Set<string>();
  let unknown: Set<string> | undefined;
  for (const id of ids) {
    const record = catalogue.bySlug.get(id);
    if (record) known.add(record.service.slug);
    else (unknown ??= new Set()).add(id);
  }
  // Echoed ids are user text: control and bidi characters are escaped (docs/design.md "Decisions on what the contract leaves open") — not
  // stripped, which would name an id that exists ("aws-s3\0" is not aws-s3) — then cut.
  if (unknown)
    throw unknownIds(
      catalogue,
      [...unknown].map((raw) => {
        const id = escapeControl(raw);
        return id.length > 80 ? `${id.slice(0, 80)}…` : id;
      }),
    );
  return [...known];
}

/**
 * A comma-separated id list (compare, exposure, the text host's compare path) read by the one
 * id-list rule (schema/requests.ts idListItems, whose pattern OpenAPI shows): 1 to `max` ids
 * (duplicates counted), then duplicates dropped, every one known. Throws HttpError (400) or UnknownIdsError.
 */
export function parseIdList(catalogue: Catalogue, raw: string | undefined, max: number): string[] {
  const given = idListItems(raw ?? "");
  const ids = [...new Set(given)];
  if (ids.length === 0)
    throw new HttpError(
      400,
      "ids is required",
      "Pass ids as comma-separated service slugs, e.g. ids=aws-s3,gcp-cloud-storage",
    );
  if (given.length > max)
    throw new HttpError(400, "Too many ids", `At most ${max} ids are allowed; ${given.length} were given.`);
  return requireKnownIds(catalogue, ids);
}
