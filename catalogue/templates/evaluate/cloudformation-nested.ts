/**
 * What a CloudFormation template brings in beyond its own Resources, read where its files are there
 * and named as not read where they are not (never "allowed" for what was not read):
 * - a nested stack (AWS::CloudFormation::Stack's TemplateURL) or a SAM application
 *   (AWS::Serverless::Application's Location) whose template is a local path, as `aws cloudformation
 *   package` and `sam build` read them (relative to the template that names it): read with the
 *   Parameters it is passed, in the same region, bounded as Terraform's modules are (depth,
 *   instances); one held elsewhere (an S3 or https URL, a Serverless Application Repository
 *   application) is not read;
 * - AWS::Include of a local file (a Transform of the template, or Fn::Transform in Resources): its
 *   sections or resources read with the template's; any other macro or transform (what SAM and the
 *   language extensions do is read) rewrites the template when the stack is made, and is not read.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/transform-aws-include.html,
 * https://docs.aws.amazon.com/cli/latest/reference/cloudformation/package.html
 */
import { TemplateError } from "../model/errors.ts";
import { joinDir } from "../readers/terraform-modules.ts";
import { parseTemplateText } from "../readers/parse.ts";
import { dependsOn, isUnknown, isValueObject, own, textOf, type Value } from "./values.ts";

/** Nested stacks and applications nest at most this deep (Terraform's modules: 12). */
export const MAX_STACK_DEPTH = 12;

/** The transforms whose work the check does itself: SAM's expansion, the language extensions' loops. */
export const READ_TRANSFORMS = new Set(["AWS::Serverless-2016-10-31", "AWS::LanguageExtensions"]);
const INCLUDE = "AWS::Include";

/** Where a template sits among the repository's files, and the nesting that led to it. */
export interface StackContext {
  /** The repository's files (path → text, relative to its top); none when the template came alone. */
  readonly files?: Readonly<Record<string, string>>;
  /** This template's path among them ("" when it came alone). */
  readonly path: string;
  /** The templates from the root to this one, to refuse a template nesting itself. */
  readonly chain: readonly string[];
  /** "AuthStack/" for a nested stack's resources: prefixed to their logical ids. */
  readonly prefix: string;
}

export const rootContext = (files?: Readonly<Record<string, string>>, path = ""): StackContext => ({
  ...(files ? { files } : {}),
  path,
  chain: [path],
  prefix: "",
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/** What a location names: a file among the repository's (its path), or why it cannot be read here. */
export function localFile(context: StackContext, location: Value): { path: string } | { why: string } {
  if (isUnknown(location)) return { why: `its location ${dependsOn(location)}` };
  if (typeof location !== "string" || location.trim() === "") return { why: "its location is not a path or URL" };
  const written = location.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(written))
    return { why: "held elsewhere: the stack fetches it when it is made, and the check never does" };
  if (written.startsWith("/") || written.startsWith("\\"))
    return { why: "an absolute path, outside the repository's top, which the check never reads" };
  const path = joinDir(dirOf(context.path), written);
  if (path === undefined) return { why: "a path outside the repository's top, which the check never reads" };
  if (!context.files || !Object.hasOwn(context.files, path))
    return {
      why: `its file ${path} is not in the input: send it with the template (files, with root naming the template; cloud-catalogue check reads it from the repository)`,
    };
  return { path };
}

/** A file of the repository read as a template or snippet (its errors name the file). */
export function parseFile(context: StackContext, path: string): unknown {
  try {
    return parseTemplateText(context.files![path]!);
  } catch (error) {
    if (error instanceof TemplateError && error.constructor === TemplateError)
      throw new TemplateError(`${path}: ${error.message}`);
    throw error;
  }
}

/** A nested template's context, or why it is not read (too deep, or nesting itself). */
export function nestedContext(
  context: StackContext,
  path: string,
  logicalId: string,
): { context: StackContext } | { why: string } {
  if (context.chain.includes(path))
    return { why: `its template ${path} nests itself, which CloudFormation never ends` };
  if (context.chain.length > MAX_STACK_DEPTH) return { why: `stacks nest more than ${MAX_STACK_DEPTH} deep` };
  return {
    context: {
      ...(context.files ? { files: context.files } : {}),
      path,
      chain: [...context.chain, path],
      prefix: `${context.prefix}${logicalId}/`,
    },
  };
}

/** A nested stack or application a resource makes: where its template is said to be, and its parameters. */
export interface NestedTemplate {
  readonly what: "nested stack" | "nested application";
  readonly location: Value;
  readonly attribute: string;
  readonly parameters: Value | undefined;
}

/**
 * The nested template a resource makes, when it makes one: a stack's TemplateURL, an application's
 * Location (a string; a Serverless Application Repository application is named by `sarApplication`).
 */
export function nestedTemplateOf(type: string, properties: Value): NestedTemplate | undefined {
  if (!isValueObject(properties)) return undefined;
  if (type === "AWS::CloudFormation::Stack")
    return {
      what: "nested stack",
      location: own(properties, "TemplateURL") ?? null,
      attribute: "TemplateURL",
      parameters: own(properties, "Parameters"),
    };
  if (type === "AWS::Serverless::Application")
    return {
      what: "nested application",
      location: own(properties, "Location") ?? null,
      attribute: "Location",
      parameters: own(properties, "Parameters"),
    };
  return undefined;
}

/** A Serverless Application Repository application's name and version, when Location names one. */
export function sarApplication(location: Value): string | undefined {
  if (!isValueObject(location)) return undefined;
  const id = own(location, "ApplicationId");
  if (id === undefined) return undefined;
  const version = own(location, "SemanticVersion");
  return `${isUnknown(id) ? "(an application named by an input)" : textOf(id).slice(0, 160)}${version !== undefined && !isUnknown(version) ? ` version ${textOf(version).slice(0, 40)}` : ""}`;
}

/** A nested template's parameters as the inputs its evaluator takes (a value not known stays so). */
export function parametersOf(parameters: Value | undefined): Record<string, unknown> {
  const given: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (isValueObject(parameters)) for (const key of Object.keys(parameters)) given[key] = parameters[key];
  return given;
}

/** A transform as a template or Fn::Transform names it: its name and, for AWS::Include, its Location. */
export interface TransformUse {
  readonly name: string;
  readonly location?: unknown;
}

/** The transforms a Transform section or an Fn::Transform names (a name, an object, or a list of them). */
export function transformsOf(value: unknown): TransformUse[] {
  const entries = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return entries.flatMap((entry): TransformUse[] => {
    if (typeof entry === "string") return [{ name: entry }];
    if (!isObject(entry)) return [{ name: "(a transform that names nothing)" }];
    const name = typeof entry.Name === "string" ? entry.Name : "(a transform without a Name)";
    const parameters = isObject(entry.Parameters) ? entry.Parameters : {};
    return [{ name, ...(name === INCLUDE ? { location: parameters.Location } : {}) }];
  });
}

export const isInclude = (use: TransformUse) => use.name === INCLUDE;

/** What the user can do about a macro: check the template CloudFormation processed. */
export const MACRO_ADVICE =
  "a macro rewrites the template when the stack is made: check the processed template (aws cloudformation get-template --template-stage Processed) instead";

/**
 * A template with its top-level AWS::Include transforms read: each local snippet's sections merged
 * into the template's (a section's entries added), what cannot be read named in `notRead`, and the
 * transforms that are neither read nor included named too.
 */
export function withTopLevelTransforms(
  template: Record<string, unknown>,
  context: StackContext,
  notRead: string[],
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...template };
  for (const use of transformsOf(template.Transform)) {
    if (READ_TRANSFORMS.has(use.name)) continue;
    if (!isInclude(use)) {
      notRead.push(`${context.prefix}Transform ${use.name.slice(0, 120)}: ${MACRO_ADVICE} (Transform)`);
      continue;
    }
    const file = localFile(context, typeof use.location === "string" ? use.location : null);
    if ("why" in file) {
      notRead.push(`${context.prefix}Transform ${INCLUDE}: the snippet ${describeLocation(use.location)}, ${file.why}`);
      continue;
    }
    const snippet = parseFile(context, file.path);
    if (!isObject(snippet)) throw new TemplateError(`${file.path}: an AWS::Include snippet is an object of sections.`);
    for (const [key, value] of Object.entries(snippet))
      merged[key] = isObject(merged[key]) && isObject(value) ? { ...merged[key], ...value } : value;
  }
  return merged;
}

export const describeLocation = (location: unknown) =>
  typeof location === "string" ? location.slice(0, 160) : isObject(location) ? "named by an intrinsic function" : "";

/**
 * A nested stack's or application's template, parsed with its context, when its file is here; else
 * it is named in `notRead` with why (a Serverless Application Repository application, a URL, a file
 * not sent or outside the top, a template nesting itself or too deep).
 */
export function nestedTemplateFile(
  context: StackContext,
  notRead: string[],
  logicalId: string,
  use: NestedTemplate,
  at: string,
): { template: Record<string, unknown>; context: StackContext } | undefined {
  const named = `${context.prefix}${logicalId}: ${use.what}`;
  const application = use.what === "nested application" ? sarApplication(use.location) : undefined;
  if (application) {
    notRead.push(
      `${named} from the Serverless Application Repository, ${application} (${at}): fetched when the stack is made, and never by the check; check the application's template on its own`,
    );
    return undefined;
  }
  const file = localFile(context, use.location);
  const shown = typeof use.location === "string" ? ` ${use.location.slice(0, 160)}` : "";
  const inner = "why" in file ? file : nestedContext(context, file.path, logicalId);
  if ("why" in inner) {
    notRead.push(`${named}${shown} (${at}): ${inner.why}`);
    return undefined;
  }
  const template = parseFile(inner.context, inner.context.path);
  if (!isObject(template))
    throw new TemplateError(`${inner.context.path}: a nested template is an object with Resources.`);
  return { template, context: inner.context };
}

/**
 * The resources an Fn::Transform stands for, each as [logical id, resource, where]: an AWS::Include
 * of a local file read (in Resources, a snippet of resources by logical id; as a resource, the
 * resource itself), anything else named in `notRead`.
 */
export function includedResources(
  context: StackContext,
  notRead: string[],
  resolve: (value: unknown) => Value,
  where: { logicalId: string; transform: unknown; at: string; section: boolean },
): [string, unknown, string][] {
  const { logicalId, transform, at, section } = where;
  const found: [string, unknown, string][] = [];
  for (const use of transformsOf(transform)) {
    const named = `${context.prefix}${section ? "Resources" : logicalId}: Fn::Transform ${use.name.slice(0, 120)}`;
    if (!isInclude(use)) {
      notRead.push(`${named} (${at}): ${MACRO_ADVICE}`);
      continue;
    }
    const file = localFile(context, resolve(use.location ?? null));
    if ("why" in file) {
      notRead.push(`${named} of ${describeLocation(use.location)} (${at}): ${file.why}`);
      continue;
    }
    const snippet = parseFile(context, file.path);
    if (!section) found.push([logicalId, snippet, `${file.path} (${at})`]);
    else if (isObject(snippet))
      for (const [id, resource] of Object.entries(snippet)) found.push([id, resource, `${file.path}: ${id}`]);
    else throw new TemplateError(`${file.path}: an AWS::Include in Resources holds resources by logical id.`);
  }
  return found;
}
