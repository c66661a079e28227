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
 * more (lists.ts renewedExpiry). The read does not depend on the renewal: when the store cannot
 * write it, or another read renewed the list first, the list is answered with the expiry it was
 * read with, and a later read tries again.
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
  const renewed = await store.renewList(list, expiresAt, now).catch((error: unknown) => {
    if (error instanceof StoreUnavailableError) return false;
    throw error;
  });
  return renewed ? { ...list, expiresAt: expiresAt.toISOString() } : list;
}
