/**
 * The reader process (./reader.ts starts it): reads one template at a time — the API's JSON body
 * parsed with its duplicate keys refused and its depth bounded as the API's parser bounds every
 * body, the text host's template text, or MCP's template — into a deployment, evaluation included.
 * A template the check cannot read (TemplateError: 400) or past a budget (TemplateBudgetError: 422)
 * is sent back as the refusal, for the body's other fields to be validated first. A value past what
 * V8 can hold (a string or an array over its maximum length) is that template's 422 too. What the
 * process cannot survive (its heap exhausted by one allocation: nodejs/node#47224 aborts a whole
 * process, which is why this is not a thread) ends this process alone; its reader answers for it.
 */
import { HttpError } from "../../catalogue/base/problem.ts";
import {
  TemplateBudgetError,
  TemplateDepthError,
  TemplateError,
  TemplateSyntaxError,
} from "../../catalogue/templates/model/errors.ts";
import { parseJsonTemplate } from "../../catalogue/templates/readers/parse.ts";
import {
  READ_TEMPLATE,
  readDeployment,
  TerraformFiles,
  type Deployment,
  type DeploymentInputs,
} from "../../catalogue/templates/read.ts";
import { DEPTH_DETAILS } from "../json-depth.ts";
import { MAX_TF_FILES, ROOT_NAME, TemplateCheckBody, TF_FILE_NAME } from "../../catalogue/schema/deployment-check.ts";
import { errorMessage } from "./error-message.ts";
import { lowerThisThreadsPriority } from "./priority.ts";
import type { FromReader, ReadMessage, ReadRequest, ReadTemplate } from "./read-messages.ts";

/** What the check could not read, as the API answers it; anything else is thrown on. */
function refusalOf(error: unknown): HttpError {
  if (error instanceof TemplateBudgetError) return new HttpError(422, "Template too costly", error.message);
  if (error instanceof TemplateError) return new HttpError(400, "Invalid template", error.message);
  throw error;
}

function deploymentOf(
  template: unknown,
  given: DeploymentInputs = {},
): { deployment: Deployment } | { refusal: ReturnType<typeof errorMessage> } {
  try {
    return { deployment: readDeployment(template, given) };
  } catch (error) {
    return { refusal: errorMessage(refusalOf(error)) };
  }
}

/** `files` as the row's schema takes it: 1 to MAX_TF_FILES .tf names, each to its text. */
const tfFiles = (value: unknown): value is Record<string, string> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length >= 1 &&
  Object.keys(value).length <= MAX_TF_FILES &&
  Object.entries(value).every(([name, text]) => TF_FILE_NAME.test(name) && typeof text === "string");

/** The body's inputs and region as the row's schema takes them, or undefined when it would refuse them (it then names them). */
function givenOf(body: Record<string, unknown>): DeploymentInputs | undefined {
  const parsed = TemplateCheckBody.shape.inputs.safeParse(body.inputs);
  const region = TemplateCheckBody.shape.region.safeParse(body.region);
  if (!parsed.success || !region.success) return undefined;
  return { ...(parsed.data ? { inputs: parsed.data } : {}), ...(region.data ? { region: region.data } : {}) };
}

function read(request: ReadRequest): ReadTemplate {
  if ("template" in request) return deploymentOf(request.template, request.given);
  if ("files" in request) return deploymentOf(new TerraformFiles(request.files, request.root), request.given);
  let body: unknown;
  try {
    body = parseJsonTemplate(request.body);
  } catch (error) {
    // The body's own nesting and syntax are answered as the API's parser answers every body's.
    if (error instanceof TemplateDepthError) throw new HttpError(400, "Invalid body", `body: ${DEPTH_DETAILS}`);
    if (error instanceof TemplateSyntaxError) throw new HttpError(400, "Invalid JSON", `body: ${error.message}`);
    throw refusalOf(error);
  }
  // Not an object, or no template: the row's schema refuses it as it would any such body.
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { body };
  const given = givenOf(body as Record<string, unknown>);
  if (!given) return { body };
  // .tf files without a template: read here as a text template would be; anything else is left to the schema.
  if (!("template" in body) && "files" in body) {
    // root goes with files: what was read stands for both.
    const { files, root, ...rest } = body as { files: unknown; root?: unknown };
    // Names the row's schema would refuse are left to it, unread, so it names them.
    if (!tfFiles(files) || (root !== undefined && !(typeof root === "string" && ROOT_NAME.test(root)))) return { body };
    return {
      body: { ...rest, template: READ_TEMPLATE },
      ...deploymentOf(new TerraformFiles(files, root), given),
    };
  }
  if (!("template" in body)) return { body };
  const { template } = body;
  // What the row's schema refuses (an empty text, a number) it refuses as it is, unread.
  if (typeof template === "string" ? template === "" : template === null || typeof template !== "object")
    return { body };
  return { body: { ...body, template: READ_TEMPLATE }, ...deploymentOf(template, given) };
}

/** V8's own refusals of a value past its maximum size: that template's cost, not a fault. */
const PAST_V8_MAXIMUM =
  /^(Invalid (string|array|typed array) length|Array buffer allocation failed|Maximum call stack size exceeded)/;

/** An error thrown by the reading, as its request is answered. */
function answerOf(error: unknown): ReturnType<typeof errorMessage> {
  if (error instanceof RangeError && PAST_V8_MAXIMUM.test(error.message)) {
    // A recursion past the stack (a shape no bound above foresaw) is the template's depth too.
    if (/call stack/.test(error.message))
      return errorMessage(new HttpError(400, "Invalid template", "The template nests too deeply to read."));
    return errorMessage(
      new HttpError(
        422,
        "Template too costly",
        `Reading the template made a value larger than the reader can hold (${error.message}); check it in parts.`,
      ),
    );
  }
  return errorMessage(error);
}

// Reading a template yields the CPU to the server's own threads, as the heavy thread does.
lowerThisThreadsPriority();

process.on("message", ({ id, request }: ReadMessage) => {
  let answer: FromReader;
  try {
    answer = { id, ok: read(request) };
  } catch (error) {
    answer = { id, error: answerOf(error) };
  }
  process.send!(answer);
});
// Told to end (the reader's close), or left by its server: this process has nothing else to do.
process.on("disconnect", () => process.exit(0));
process.send!({ ready: true } satisfies FromReader);
