/**
 * A user's read of a saved list: every row and page that shows a list (GET /v1/lists/{id}, its
 * calendar and exit plan, the deployment check's listId, the text host's and the site's list
 * pages, MCP's get_saved_list through the row) reads it here, so reading keeps it alive
 * (docs/decisions.md#list-renewal).
 */
import { renewedExpiry, type StoredList } from "../lists/lists.ts";
import { StoreUnavailableError, type RecordStore } from "./ports.ts";

/**
 * The list at `slugOrId`, its expiry moved to `now` + the lifetime when that moves it by a day or
 * more (lists.ts renewedExpiry). The read does not depend on the renewal: when another read renewed
 * the list first, it is answered as the store now has it; when the store cannot write, with the
 * expiry it was read with, and a later read tries again.
 */
export async function readList(
  store: Pick<RecordStore, "getList" | "renewList">,
  slugOrId: string,
  now: Date,
): Promise<StoredList | undefined> {
  const list = await store.getList(slugOrId, now);
  if (!list) return undefined;
  const expiresAt = renewedExpiry(list, now);
  if (!expiresAt) return list;
  const renewed = await store.renewList(list, expiresAt, now).catch(unavailable(false));
  if (renewed) return { ...list, expiresAt: expiresAt.toISOString() };
  const current = await store.getList(list.id, now).catch(unavailable(undefined));
  // By id, which getList tries after slugs: a slug that spells this id is another list.
  return current?.id === list.id ? current : list;
}

/** A store that cannot be reached answers `fallback`; any other error is thrown on. */
const unavailable =
  <T>(fallback: T) =>
  (error: unknown): T => {
    if (error instanceof StoreUnavailableError) return fallback;
    throw error;
  };
