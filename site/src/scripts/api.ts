/**
 * The browser's API client: openapi-fetch over the types generated from the OpenAPI document
 * (catalogue/generated/openapi-types.ts), so a request or answer that drifts from the contract fails
 * `npm run check:site` instead of a user's click.
 */
import createClient from "openapi-fetch";
import type { paths } from "../../../catalogue/generated/openapi-types.ts";

/** Same-origin: the text host answers /v1/* (sidecar/text/app.ts; nginx routes it likewise). */
export const api = createClient<paths>({ baseUrl: location.origin });

/** The Error shape's title and details as one sentence, with the wait a 429 asks for. */
export function errorMessage(error: unknown, response: Response): string {
  const body = (typeof error === "object" && error ? error : {}) as { error?: string; details?: string };
  const text = `${body.error ?? `Error ${response.status}`}: ${body.details ?? ""}`.trim();
  const retry = response.headers.get("retry-after");
  if (response.status !== 429 || !retry || /retry/i.test(text)) return text;
  return `${text} Retry in ${retry} seconds.`;
}
