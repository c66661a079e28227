/** What the server and a reader process (./read-process.ts) say to each other. */
import type { Deployment, DeploymentInputs } from "../../catalogue/templates/read.ts";
import type { ErrorMessage } from "./error-message.ts";

/**
 * What a reader is sent: the API's JSON body (with `template` or `files` in it), a template (the
 * text host's text, MCP's text or JSON value), or a module's `.tf` files (MCP's, name to text).
 */
export type ReadRequest =
  | { readonly body: string }
  | { readonly template: unknown; readonly given?: DeploymentInputs }
  | {
      readonly files: Readonly<Record<string, string>>;
      /** The root module's folder or the template among the files (the text host's repository form). */
      readonly root?: string;
      readonly given?: DeploymentInputs;
    };

/**
 * What was read: the template as a deployment, and (API) the body with its template's place holding
 * READ_TEMPLATE, for the row's schema to validate the rest.
 */
export interface ReadTemplate {
  readonly body?: unknown;
  readonly deployment?: Deployment;
  /** The template could not be read (400) or passed a budget (422): thrown once the rest is valid. */
  readonly refusal?: ErrorMessage;
}

/** One request to a reader process. */
export interface ReadMessage {
  readonly id: number;
  readonly request: ReadRequest;
}

/** A reader process's answers: ready once its modules are loaded, then one per request. */
export type FromReader =
  | { readonly ready: true }
  | { readonly id: number; readonly ok: ReadTemplate }
  | { readonly id: number; readonly error: ErrorMessage };

/** The size of a request, in characters: what it may have grown its reader's heap by. */
export function requestSize(request: ReadRequest): number {
  if ("body" in request) return request.body.length;
  if ("files" in request) return Object.values(request.files).reduce((sum, text) => sum + text.length, 0);
  return typeof request.template === "string" ? request.template.length : JSON.stringify(request.template).length;
}
