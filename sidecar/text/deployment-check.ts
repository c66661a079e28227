/**
 * POST /deployments/check on the text host: the deployment check (POST /v1/deployments/check) for
 * `curl --data-binary @template.json '<text host>/deployments/check?ids=aws-ec2,aws-cloudformation'`
 * and for the site's form without JavaScript (form-encoded `template` and `ids`). The body is read
 * as text (curl sends a file as form-encoded): a form's `template` field, else the body itself,
 * JSON or YAML; or (1.13.0) a repository's files as multipart parts named `files`, each filename
 * its path relative to the repository's top, with `root` naming what to check among them. The approved list is `ids` (comma-separated) or a saved list's `list`. Counted in
 * the strict bucket as the API's row is; answered in the request's rendering, computed as a job
 * (computed.ts) in the heavy computations' thread.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { httpErrorOf, isHttpError } from "../../catalogue/base/problem.ts";
import type { ErrorTitle } from "../../catalogue/base/error-catalogue.ts";
import { checkTemplate, ReadDeployment, versionWindow } from "../../catalogue/contract/deployments.ts";
import { LIFECYCLE_WITHIN_MAX_DAYS, MAX_ALLOWED_LOCATIONS } from "../../catalogue/base/limits.ts";
import { FAIL_ON, TemplateCheckBody } from "../../catalogue/schema/index.ts";
import { MAX_TF_FILES, ROOT_NAME, TF_FILE_NAME } from "../../catalogue/schema/deployment-check.ts";
import type { VersionWindow } from "../../catalogue/templates/check.ts";
import type { Deployment, DeploymentInputs } from "../../catalogue/templates/read.ts";
import { requireKnownIds } from "../../catalogue/search/ids.ts";
import { resolveList } from "../../catalogue/lists/lists.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { deploymentCheckDoc } from "../../catalogue/templates/answer/render.ts";
import { splitRequestUrl } from "../files.ts";
import { waitFor, type Computed, type Shape } from "./computed-shapes.ts";
import { deadlineOf } from "../deadline.ts";
import { clientKey } from "../plugins/limit-store.ts";
import { replyComputedPage } from "./computed-page.ts";
import type { TextContext } from "./context.ts";
import { strictBucket } from "./forms.ts";
import { render, widthOf } from "./render.ts";

/** The job: the check's answer rendered, or its refusal; in HTML the Doc, which the site lays out. */
export function deploymentCheckBody(
  catalogue: Catalogue,
  input: Shape & {
    deployment: Deployment;
    approved: string[];
    asDoc?: boolean;
    window?: VersionWindow;
    allowedLocations?: string[];
  },
): Computed {
  try {
    const answer = checkTemplate(
      catalogue,
      new ReadDeployment(input.deployment),
      input.approved,
      input.window,
      input.allowedLocations,
    );
    const doc = deploymentCheckDoc(answer);
    return { status: 200, body: input.asDoc ? JSON.stringify(doc) : render(doc, input.rendering, input.width) };
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { status: error.statusCode, title: error.title, detail: error.details ?? "" };
  }
}

/**
 * A multipart/form-data body's fields by name (RFC 7578), as the site's form sends them with a file
 * chosen (a text browser's "Or choose a file" too): each part's text, a file's content for its field.
 * Undefined when the body is not multipart or names no boundary.
 */
export function multipartFields(body: string, contentType: string | undefined): URLSearchParams | undefined {
  const parts = multipartParts(body, contentType);
  if (!parts) return undefined;
  const fields = new URLSearchParams();
  for (const { name, content } of parts) if (name !== REPOSITORY_FILES) fields.append(name, content);
  return fields;
}

/** The multipart field whose parts are a repository's files, each named by its filename (1.13.0). */
const REPOSITORY_FILES = "files";

/** A multipart body's parts: each field's name, its filename when a file, and its content. */
function multipartParts(
  body: string,
  contentType: string | undefined,
): { name: string; filename?: string; content: string }[] | undefined {
  if (!/^multipart\/form-data/i.test(contentType ?? "")) return undefined;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType!);
  const delimiter = boundary?.[1] ?? boundary?.[2];
  if (!delimiter) return undefined;
  const parts: { name: string; filename?: string; content: string }[] = [];
  for (const part of body.split(`--${delimiter}`).slice(1)) {
    if (part.startsWith("--")) break;
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd < 0) continue;
    const disposition = /content-disposition:([^\r\n]*)/i.exec(part.slice(0, headerEnd))?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    // The part's content ends before the CRLF that precedes the next delimiter.
    if (name !== undefined)
      parts.push({
        name,
        ...(filename !== undefined ? { filename } : {}),
        content: part.slice(headerEnd + 4).replace(/\r\n$/, ""),
      });
  }
  return parts;
}

/**
 * A repository's files sent as multipart parts named files, each filename its path relative to the
 * repository's top (curl -F 'files=@envs/prod/main.tf;filename=envs/prod/main.tf'), as the API's
 * files takes them; a name the API would refuse is said.
 */
function repositoryFiles(body: string, contentType: string | undefined): Record<string, string> | string | undefined {
  const parts = (multipartParts(body, contentType) ?? []).filter((part) => part.name === REPOSITORY_FILES);
  if (parts.length === 0) return undefined;
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { filename, content } of parts) {
    if (filename === undefined || !TF_FILE_NAME.test(filename))
      return `each files part is named by its path relative to the repository's top (filename=envs/prod/main.tf: .tf, .tfvars, .yaml, .yml, .json or .template, no . or .. segment, no leading /), not ${JSON.stringify((filename ?? "").slice(0, 80))}.`;
    files[filename] = content;
  }
  if (Object.keys(files).length > MAX_TF_FILES) return `files holds at most ${MAX_TF_FILES} files.`;
  return files;
}

/** The template and the approved list's fields, from a form or from the body and the query. */
function requestParts(request: FastifyRequest): {
  template: string;
  fields: URLSearchParams;
  files?: Record<string, string> | string;
} {
  const text = typeof request.body === "string" ? request.body : "";
  const query = new URLSearchParams(splitRequestUrl(request.url).query);
  // The form with a file chosen: the pasted text, else the file's.
  const multipart = multipartFields(text, request.headers["content-type"]);
  if (multipart) {
    for (const [key, value] of query) if (!multipart.has(key)) multipart.set(key, value);
    const pasted = multipart.get("template") ?? "";
    const files = repositoryFiles(text, request.headers["content-type"]);
    return {
      template: pasted.trim() === "" ? (multipart.get("file") ?? "") : pasted,
      fields: multipart,
      ...(files !== undefined ? { files } : {}),
    };
  }
  const isForm = /^application\/x-www-form-urlencoded/i.test(request.headers["content-type"] ?? "");
  const form = isForm ? new URLSearchParams(text) : undefined;
  // curl --data-binary sends a file as form-encoded too: a form is a body with a `template` field.
  if (form?.has("template")) {
    for (const [key, value] of query) if (!form.has(key)) form.set(key, value);
    return { template: form.get("template") ?? "", fields: form };
  }
  return { template: text, fields: query };
}

const NO_LIST =
  "Name the approved list: ?ids=aws-ec2,aws-cloudformation (catalogue ids, comma-separated) or ?list=<a saved list's id or slug>; optionally ?within=90d (versions retiring within it, 180d by default), ?failOn=deprecated|extended|end (the first phase that fails), ?locations=EU,CH (where resources may go), ?region=eu-west-1 (where the deployment is made when it does not say) and input.<name>=<value> (a parameter's or variable's value).";

/** region= and each input.<name>= field, as the API's region and inputs (text values). */
function givenOf(fields: URLSearchParams): DeploymentInputs | string {
  const region = fields.get("region")?.trim() || undefined;
  if (region !== undefined && !TemplateCheckBody.shape.region.safeParse(region).success)
    return `region is a region code such as eu-west-1, not ${region.slice(0, 40)}.`;
  const inputs = Object.fromEntries(
    [...fields]
      .filter(([key]) => key.startsWith("input.") && key.length > 6)
      .map(([key, value]) => [key.slice(6), value]),
  );
  if (!TemplateCheckBody.shape.inputs.safeParse(inputs).success)
    return "input.<name> fields name inputs of 1 to 200 characters, 200 at most.";
  return { ...(Object.keys(inputs).length > 0 ? { inputs } : {}), ...(region ? { region } : {}) };
}

/** The query's within=, failOn= and locations=, as the API's retiringWithin, failOn and allowedLocations; a bad one is a 400. */
function checkOptions(fields: URLSearchParams): { window: VersionWindow; allowedLocations?: string[] } | string {
  const within = fields.get("within")?.trim() || undefined;
  if (within !== undefined && !TemplateCheckBody.shape.retiringWithin.safeParse(within).success)
    return `within is a number of days such as 90d (0d to ${LIFECYCLE_WITHIN_MAX_DAYS}d), not ${within.slice(0, 40)}.`;
  const failOn = fields.get("failOn")?.trim() || undefined;
  const failOnParsed = TemplateCheckBody.shape.failOn.safeParse(failOn);
  if (!failOnParsed.success) return `failOn is ${FAIL_ON.join(", ")}, not ${(failOn ?? "").slice(0, 40)}.`;
  const locations = (fields.get("locations") ?? "")
    .split(",")
    .map((location) => location.trim())
    .filter((location) => location !== "");
  if (locations.length > 0 && !TemplateCheckBody.shape.allowedLocations.safeParse(locations).success)
    return `locations are region codes, ISO country codes or EU/EEA, comma-separated (at most ${MAX_ALLOWED_LOCATIONS}).`;
  return {
    window: versionWindow(new Date(), within, failOnParsed.data),
    ...(locations.length > 0 ? { allowedLocations: locations } : {}),
  };
}

/** POST /deployments/check. */
export async function deploymentCheckPost(c: TextContext, request: FastifyRequest, reply: FastifyReply) {
  const { replies } = c;
  const rendering = replies.rendering(request);
  const { template, fields, files } = requestParts(request);
  if (typeof files === "string") return replies.error(request, reply, 400, "Invalid body", files);
  const root = fields.get("root")?.trim() || undefined;
  if (files && template.trim() !== "")
    return replies.error(request, reply, 400, "Invalid body", "Send either the template or files, not both.");
  if (root !== undefined && (!files || !ROOT_NAME.test(root)))
    return replies.error(
      request,
      reply,
      400,
      "Invalid body",
      "root names what to check among the files sent (a root module's folder, or a template), relative to the repository's top.",
    );
  if (!files && template.trim() === "")
    return replies.error(request, reply, 400, "Invalid template", `Send the template as the body. ${NO_LIST}`);
  const ids = (fields.get("ids") ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  const listId = fields.get("list")?.trim();
  if (ids.length > 0 === Boolean(listId))
    return replies.error(
      request,
      reply,
      400,
      "Invalid body",
      `Give either ids or list, not both and not neither. ${NO_LIST}`,
    );
  const options = checkOptions(fields);
  if (typeof options === "string") return replies.error(request, reply, 400, "Invalid body", options);
  const given = givenOf(fields);
  if (typeof given === "string") return replies.error(request, reply, 400, "Invalid body", given);
  let approved: string[];
  try {
    if (listId) {
      const found = await replies.savedList(c.store, listId, request, reply);
      if ("answered" in found) return found.answered;
      approved = resolveList(c.catalogue, found.list).services.map((service) => service.slug);
    } else approved = requireKnownIds(c.catalogue, ids);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  if (await strictBucket(c, request, reply)) return reply;
  let deployment: Deployment;
  try {
    // Read in a reader process (threads/reader.ts): a costly template fails alone, with a 422.
    const asked = files ? { files, ...(root ? { root } : {}), given } : { template, given };
    const read = await c.templateReader.read(asked, { deadline: deadlineOf(request), client: clientKey(request.ip) });
    if (read.refusal) throw httpErrorOf(read.refusal.statusCode ?? 400, read.refusal.message, read.refusal.details);
    deployment = read.deployment!;
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return replies.error<ErrorTitle>(request, reply, error.statusCode, error.title, error.details ?? "");
  }
  const asDoc = rendering === "html" && c.site.available;
  const input = { deployment, approved, rendering, width: widthOf(request), asDoc, ...options };
  const computed = await c.computed.text({ name: "deploymentCheck", input }, waitFor(request));
  return replyComputedPage(c, request, reply, rendering, computed, asDoc);
}
