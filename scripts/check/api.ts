/**
 * The check by a deployment's API (--api, or the API holding a saved list): POST
 * /v1/deployments/check with the file's text or the folder's files, and GET /v1/changes for the
 * release its catalogue is. Its refusals of the input (400, 404, 413, 415, 422) are exit 2;
 * anything else that is not an answer (unreachable, 429, 5xx, a body that is no check) exit 3.
 */
import { TemplateCheck, type CatalogueReleaseT } from "../../catalogue/schema/index.ts";
import type { DeploymentCheckAnswer } from "../../catalogue/templates/check.ts";
import type { DeploymentInputs } from "../../catalogue/templates/read.ts";
import { releaseOf, type CatalogueRelease } from "./catalogue.ts";
import { CheckUnreachableError, CheckUsageError } from "./errors.ts";

/**
 * What is checked: a file's text, or a repository's files (path relative to its top → text) with the
 * root among them (a root module's folder or a template; absent: the top).
 */
export type CheckInput =
  { readonly template: string } | { readonly files: Readonly<Record<string, string>>; readonly root?: string };

/** The request's fields beside what is checked. */
export interface ApiRequest {
  readonly approved: { approvedServiceIds: string[] } | { listId: string };
  readonly retiringWithin?: string | undefined;
  readonly failOn?: string | undefined;
  readonly allowedLocations?: readonly string[] | undefined;
  /** The deployment's inputs and region (--var, --var-file, --region). */
  readonly given?: DeploymentInputs | undefined;
}

/** How long the release may take: it only names the catalogue, so a slow answer leaves it unnamed. */
const RELEASE_TIMEOUT_MS = 10_000;

/**
 * The API's answer, waited for at most `timeoutSeconds` (--api-timeout, 120 s by default: the API's
 * own reading budget is 10 s, and a queue may add to it); past it, no answer (exit 3).
 */
export async function checkByApi(
  api: string,
  input: CheckInput,
  request: ApiRequest,
  timeoutSeconds: number,
): Promise<DeploymentCheckAnswer> {
  const url = `${api.replace(/\/+$/, "")}/v1/deployments/check`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        ...input,
        ...request.approved,
        ...(request.retiringWithin === undefined ? {} : { retiringWithin: request.retiringWithin }),
        ...(request.failOn === undefined ? {} : { failOn: request.failOn }),
        ...(request.allowedLocations === undefined ? {} : { allowedLocations: request.allowedLocations }),
        ...request.given,
      }),
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
    });
  } catch (error) {
    // fetch says "fetch failed"; its cause says why (ECONNREFUSED, a DNS failure, the timeout).
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message;
    if ((error as Error).name === "TimeoutError")
      throw new CheckUnreachableError(`${url} gave no answer within ${timeoutSeconds} s (--api-timeout)`);
    throw new CheckUnreachableError(`cannot reach ${url}: ${cause ?? (error as Error).message}`);
  }
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    throw new CheckUnreachableError(
      `${url} answered ${response.status}, then its body failed: ${(error as Error).message}`,
    );
  }
  if (response.status !== 200) {
    let problem = body.slice(0, 500);
    try {
      // The API's Error shape (catalogue/base/problem.ts): {error, status, details}.
      const parsed = JSON.parse(body) as { error?: string; details?: string };
      problem = [parsed.error, parsed.details].filter(Boolean).join(": ") || problem;
    } catch {
      // not JSON (a proxy's page): its start is quoted as it is
    }
    const message = `${url} answered ${response.status}: ${problem}`;
    if ([400, 404, 413, 415, 422].includes(response.status)) throw new CheckUsageError(message);
    throw new CheckUnreachableError(message);
  }
  let parsed: ReturnType<typeof TemplateCheck.safeParse>;
  try {
    parsed = TemplateCheck.safeParse(JSON.parse(body));
  } catch {
    throw new CheckUnreachableError(`${url} answered 200 with a body that is not JSON`);
  }
  if (!parsed.success)
    throw new CheckUnreachableError(`${url} answered 200 with no deployment check: ${parsed.error.message}`);
  return parsed.data;
}

/** The release of the API's catalogue (GET /v1/changes), or none named when it cannot say. */
export async function apiRelease(api: string): Promise<CatalogueRelease> {
  const base = api.replace(/\/+$/, "");
  try {
    const response = await fetch(`${base}/v1/changes`, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(RELEASE_TIMEOUT_MS),
    });
    if (!response.ok) return { from: base };
    const { data } = (await response.json()) as { data?: CatalogueReleaseT[] };
    return Array.isArray(data) ? releaseOf(data, data[0]?.release, base) : { from: base };
  } catch {
    return { from: base };
  }
}
