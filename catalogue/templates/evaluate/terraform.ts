/**
 * Terraform configuration evaluated as `terraform plan` would before it asks the providers: the root
 * module's variables from the request, the variable files and their defaults; locals; provider
 * blocks with their aliases, and which one each resource uses (`provider =`, a module's
 * `providers`, or the default configuration inherited); `count` and `for_each` over known values;
 * local modules and installed registry modules read with their inputs. The answer is every resource
 * instance with its evaluated attributes, its provider configuration's, and whether it is deployed:
 * yes, no (a count of 0), or depending on an input that has no value here.
 */
import { TemplateError } from "../model/errors.ts";
import { budget, placeOf, withBudget } from "./budget.ts";
import { evaluate, access, type Key, type Scope } from "./hcl-evaluate.ts";
import type { Expression } from "../readers/hcl-expression.ts";
import { fromJson } from "./hcl-functions.ts";
import {
  installedModules,
  joinDir,
  filesIn,
  readModule,
  readVariableFile,
  variableFiles,
  type BodyConfig,
  type ModuleCallConfig,
  type ModuleConfig,
  type ResourceConfig,
} from "../readers/terraform-modules.ts";
import type { KeepAttribute } from "../readers/hcl.ts";
import {
  isList,
  isUnknown,
  isValueObject,
  jsonPreview,
  own,
  textOf,
  Unknown,
  unknownInside,
  unknownOf,
  valueObject,
  type Value,
  type ValueObject,
} from "./values.ts";
import type { Deployed, InputUse } from "../model/deployment.ts";
import { typeConstraint, withDefaults } from "./terraform-type-defaults.ts";
import { both, depends, forEachItems, YES } from "./terraform-instances.ts";

/** Modules nest at most this deep. */
const MAX_MODULE_DEPTH = 12;

export interface EvaluatedProvider {
  /** The configuration's key where it is declared (aws, aws.us) and where, when a block declares it. */
  readonly key: string;
  readonly where?: string;
  readonly attributes: ValueObject;
}

export interface EvaluatedResource {
  readonly mode: ResourceConfig["mode"];
  readonly type: string;
  readonly address: string;
  readonly where: string;
  readonly attributes: ValueObject;
  readonly provider: EvaluatedProvider;
  readonly deployed: Deployed;
}

export interface UnreadModule {
  readonly entry: string;
  readonly source: string | undefined;
}

export interface TerraformEvaluation {
  readonly resources: readonly EvaluatedResource[];
  /** The providers the root module's provider blocks configure (aws, google). */
  readonly providers: readonly string[];
  readonly unreadModules: readonly UnreadModule[];
  readonly inputs: readonly InputUse[];
}

interface Binding {
  readonly count?: Value;
  readonly each?: { readonly key: Value; readonly value: Value };
  /** A dynamic block's iterators, by name (replica.value, r.key). */
  readonly iterators?: ReadonlyMap<string, { readonly key: Value; readonly value: Value }>;
}

interface ProviderRef {
  readonly key: string;
  readonly where?: string;
  readonly attributes: () => ValueObject;
}

/**
 * Evaluates a configuration's files (path → text, relative to the repository's top) with the
 * request's variable values, within the evaluation's budgets; the root module is the folder
 * `rootDir` ("" the top), and local modules are read anywhere under the top, never outside it.
 */
export function evaluateTerraform(
  files: Readonly<Record<string, string>>,
  variables: Readonly<Record<string, unknown>> | undefined,
  keep: KeepAttribute,
  rootDir = "",
): TerraformEvaluation {
  return withBudget(() => evaluateFiles(files, variables, keep, rootDir));
}

function evaluateFiles(
  files: Readonly<Record<string, string>>,
  variables: Readonly<Record<string, unknown>> | undefined,
  keep: KeepAttribute,
  rootDir: string,
): TerraformEvaluation {
  if (filesIn(files, rootDir).length === 0)
    throw new TemplateError(
      rootDir === ""
        ? "No .tf file at the top of the files: the root module needs at least one."
        : `No .tf file in ${rootDir}, the root module's folder: it needs at least one.`,
    );
  const run = new Run(files, keep, rootDir);
  const root = run.module(rootDir);
  const values = new Map<string, { value: Value; source: string }>();
  for (const [name] of root.variables) {
    const given = variables && Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (given !== undefined) values.set(name, { value: fromJson(given), source: "the request" });
  }
  for (const path of variableFiles(files, rootDir)) {
    for (const [name, expression] of readVariableFile(path, files[path]!))
      if (root.variables.has(name) && values.get(name)?.source !== "the request")
        values.set(name, { value: budget().at({ file: path }, () => evaluate(expression, EMPTY_SCOPE)), source: path });
  }
  const unknownNames = Object.keys(variables ?? {}).filter((name) => !root.variables.has(name));
  if (unknownNames.length > 0)
    throw new TemplateError(
      `inputs names variables the root module does not declare: ${unknownNames.slice(0, 8).join(", ")}.`,
    );
  const rootInstance = new ModuleInstance(
    run,
    root,
    { path: "", depth: 0, manifestKey: "" },
    new Map(),
    YES,
    remembered((name) => {
      const given = values.get(name);
      const declared = root.variables.get(name)!;
      const typed = (value: Value) => withDefaults(value, typeConstraint(declared.type));
      if (given) return { value: typed(given.value), source: given.source };
      if (declared.default)
        return {
          value: typed(budget().at(placeOf(declared.where), () => evaluate(declared.default!, EMPTY_SCOPE))),
          source: "its default",
        };
      return { value: new Unknown([`var.${name}`]), source: "no value" };
    }),
  );
  rootInstance.resolveProviders(undefined);
  rootInstance.expand();
  return {
    resources: run.resources,
    providers: [...new Set(root.providers.map((provider) => provider.key.split(".")[0]!))],
    unreadModules: run.unreadModules,
    inputs: [...run.inputs.values()],
  };
}

const EMPTY_SCOPE: Scope = {
  reference: (root) => new Unknown([], `${root} cannot be read in a variable's value`),
};

class Run {
  readonly resources: EvaluatedResource[] = [];
  readonly unreadModules: UnreadModule[] = [];
  readonly inputs = new Map<string, InputUse>();
  private readonly modules = new Map<string, ModuleConfig>();
  private readonly installed: Map<string, string>;
  readonly files: Readonly<Record<string, string>>;
  private readonly keep: KeepAttribute;

  constructor(files: Readonly<Record<string, string>>, keep: KeepAttribute, rootDir: string) {
    this.files = files;
    this.keep = keep;
    this.installed = installedModules(files, rootDir);
  }

  module(dir: string): ModuleConfig {
    let config = this.modules.get(dir);
    if (!config) {
      config = readModule(this.files, dir, this.keep);
      this.modules.set(dir, config);
    }
    return config;
  }

  /**
   * A module call's folder among the files (a local source joined to its caller's, else where
   * terraform init put it), or why it is not read: a local source leaving the repository's top,
   * or files not sent.
   */
  folderOf(call: ModuleCallConfig, callerDir: string, manifestKey: string): string | { why: string } {
    const source = call.source;
    if (source && (source.startsWith("./") || source.startsWith("../"))) {
      const dir = joinDir(callerDir, source);
      if (dir === undefined)
        return { why: "its source leaves the repository's top, and the check never reads outside it" };
      return filesIn(this.files, dir).length > 0
        ? dir
        : { why: `its files are not in the input (${dir || "the top"})` };
    }
    const dir = this.installed.get(manifestKey);
    return dir !== undefined && filesIn(this.files, dir).length > 0
      ? dir
      : { why: "its files are not in the input (a registry module after terraform init: .terraform/modules)" };
  }
}

type VariableValue = (name: string) => { value: Value; source: string };

/** A variable's value worked out once per module instance, however often it is read. */
function remembered(variable: VariableValue): VariableValue {
  const known = new Map<string, ReturnType<VariableValue>>();
  return (name) => {
    let found = known.get(name);
    if (!found) {
      found = variable(name);
      known.set(name, found);
    }
    return found;
  };
}

class ModuleInstance {
  private readonly locals = new Map<string, Value>();
  private readonly evaluatingLocals = new Set<string>();
  private readonly resourceValues = new Map<string, Value>();
  private readonly evaluatingResources = new Set<string>();
  private readonly children = new Map<string, Value>();
  private readonly expanding = new Set<string>();
  providers = new Map<string, ProviderRef>();

  private readonly run: Run;
  private readonly config: ModuleConfig;
  /** The module's address prefix ("module.net." or ""). */
  private readonly path: string;
  private readonly inherited: ReadonlyMap<string, ProviderRef>;
  private readonly deployed: Deployed;
  private readonly depth: number;
  /** Its key in terraform init's manifest ("" for the root, "vpc", "vpc.endpoints"). */
  private readonly manifestKey: string;
  private readonly variable: VariableValue;

  constructor(
    run: Run,
    config: ModuleConfig,
    place: { path: string; depth: number; manifestKey: string },
    inherited: ReadonlyMap<string, ProviderRef>,
    deployed: Deployed,
    variable: VariableValue,
  ) {
    this.run = run;
    this.config = config;
    this.path = place.path;
    this.depth = place.depth;
    this.manifestKey = place.manifestKey;
    this.inherited = inherited;
    this.deployed = deployed;
    this.variable = variable;
  }

  /** This module's provider configurations: its own blocks, and those its caller passes or it inherits. */
  resolveProviders(passed: ReadonlyMap<string, string> | undefined): void {
    if (passed && passed.size > 0) {
      for (const [child, parent] of passed) {
        const ref = this.inherited.get(parent);
        if (ref) this.providers.set(child, ref);
      }
    } else for (const [key, ref] of this.inherited) if (!key.includes(".")) this.providers.set(key, ref);
    for (const block of this.config.providers) {
      let evaluated: ValueObject | undefined;
      const attributes = () => {
        evaluated ??= this.evaluateBody({ attributes: block.attributes, blocks: block.blocks ?? [] }, {});
        return evaluated;
      };
      this.providers.set(block.key, { key: block.key, where: block.where, attributes });
    }
  }

  scope(binding: Binding): Scope {
    return { reference: (root, keys) => this.reference(root, keys, binding) };
  }

  private reference(root: string, keys: readonly Key[], binding: Binding): Value {
    const rest = (value: Value, from: number) => keys.slice(from).reduce<Value>(access, value);
    const name = keys[0];
    const iterator = binding.iterators?.get(root);
    if (iterator) return rest(name === "key" ? iterator.key : iterator.value, 1);
    switch (root) {
      case "var": {
        if (typeof name !== "string") return new Unknown([], "var used without a name");
        if (!this.config.variables.has(name)) return new Unknown([], `var.${name} is not declared`);
        const { value, source } = this.variable(name);
        if (this.path === "" && !this.run.inputs.has(name))
          this.run.inputs.set(name, {
            name: `var.${name}`,
            source,
            ...(isUnknown(value) ? {} : { value: jsonPreview(value, 200) }),
          });
        return rest(value, 1);
      }
      case "local":
        if (typeof name !== "string") return new Unknown([], "local used without a name");
        return rest(this.local(name), 1);
      case "count":
        return binding.count === undefined ? new Unknown([], "count.index outside a counted block") : binding.count;
      case "each":
        if (!binding.each) return new Unknown([], "each outside a for_each block");
        return rest(name === "key" ? binding.each.key : binding.each.value, 1);
      case "path":
        return this.config.dir === "" ? "." : this.config.dir;
      case "terraform":
        return name === "workspace"
          ? "default"
          : new Unknown([], `terraform.${textOf(isUnknown(name) ? null : name)} not known`);
      case "module":
        if (typeof name !== "string") return new Unknown([], "module used without a name");
        return rest(this.moduleOutputs(name), 1);
      case "data":
        return new Unknown([], "read from the provider when planned (a data source)");
      case "self":
        return new Unknown([], "computed by the provider");
      default:
        if (typeof name === "string" && root.includes("_")) return this.resourceReference(root, name, keys.slice(1));
        return new Unknown([], `${root} is not a reference this check reads`);
    }
  }

  private local(name: string): Value {
    const known = this.locals.get(name);
    if (known !== undefined) return known;
    const declared = this.config.locals.get(name);
    if (!declared) return new Unknown([], `local.${name} is not declared`);
    if (this.evaluatingLocals.has(name)) return new Unknown([], `local.${name} refers to itself`);
    this.evaluatingLocals.add(name);
    const value = budget().at(placeOf(declared.where), () => evaluate(declared.expression, this.scope({})));
    this.evaluatingLocals.delete(name);
    this.locals.set(name, value);
    return value;
  }

  /** Another resource's configured attribute (azurerm_resource_group.main.location); what the provider computes is Unknown. */
  private resourceReference(type: string, name: string, keys: readonly Key[]): Value {
    const config = this.config.resources.find(
      (resource) => resource.mode === "resource" && resource.type === type && resource.name === name,
    );
    const address = `${this.path}${type}.${name}`;
    if (!config) return new Unknown([], `${address} is not in the configuration`);
    const counted = config.count !== undefined || config.forEach !== undefined;
    const index = counted ? keys[0] : undefined;
    if (counted && index === undefined) return new Unknown([], `${address}'s instances as a whole are not read`);
    if (isUnknown(index)) return index;
    const id = `${address}[${String(index)}]`;
    let attributes = this.resourceValues.get(id);
    if (attributes === undefined) {
      if (this.evaluatingResources.has(id)) return new Unknown([], `${address} refers to itself`);
      this.evaluatingResources.add(id);
      const binding = counted ? this.bindingAt(config, index as string | number) : {};
      attributes = binding
        ? budget().at(placeOf(config.where), () => this.evaluateBody(config.body, binding))
        : new Unknown([], `${id} is not an instance`);
      this.evaluatingResources.delete(id);
      this.resourceValues.set(id, attributes);
    }
    const attributeKeys = keys.slice(counted ? 1 : 0);
    const attribute = attributeKeys[0];
    if (attribute === undefined) return attributes;
    if (isValueObject(attributes) && typeof attribute === "string" && own(attributes, attribute) === undefined)
      return new Unknown([], `${address}.${attribute} is computed by the provider`);
    return attributeKeys.reduce<Value>(access, attributes);
  }

  /** The binding of one instance of a counted resource, or undefined when there is none at that index. */
  private bindingAt(config: ResourceConfig, index: string | number): Binding | undefined {
    if (config.count) return { count: typeof index === "number" ? index : Number(index) };
    const collection = evaluate(config.forEach!, this.scope({}));
    if (isUnknown(collection)) return { each: { key: index, value: unknownOf([collection]) } };
    const each = forEachItems(collection).find(([key]) => key === String(index));
    return each ? { each: { key: each[0], value: each[1] } } : undefined;
  }

  /** A module call's outputs, the call expanded first when it has not been yet (calls may refer to each other). */
  private moduleOutputs(name: string): Value {
    const done = this.children.get(name);
    if (done !== undefined) return done;
    const call = this.config.modules.find((module) => module.name === name);
    if (!call) return new Unknown([], `module.${name} is not declared`);
    if (this.expanding.has(name)) return new Unknown([], `module.${name} refers to itself`);
    this.expandModule(call);
    return this.children.get(name)!;
  }

  /** The values of a block's attributes, nested blocks as lists of objects (a plan's shape). */
  evaluateBody(body: BodyConfig, binding: Binding): ValueObject {
    const scope = this.scope(binding);
    const entries: [string, Value][] = [];
    for (const [name, expression] of body.attributes)
      if (!["count", "for_each", "provider", "depends_on", "lifecycle"].includes(name))
        entries.push([name, evaluate(expression, scope)]);
    const blocks = new Map<string, Value[]>();
    const add = (type: string, value: Value) => {
      const list = blocks.get(type);
      if (list) list.push(value);
      else blocks.set(type, [value]);
    };
    for (const { type, body: inner, dynamic } of body.blocks) {
      if (!dynamic) {
        add(type, this.evaluateBody(inner, binding));
        continue;
      }
      const collection = evaluate(dynamic.forEach, scope);
      const unknown = isUnknown(collection) ? collection : undefined;
      // A dynamic block's for_each is any collection: a list's items by index, a map's by key.
      const items: [Value, Value][] = unknown
        ? [[unknown, unknown]]
        : isList(collection)
          ? collection.map((item, index) => [index, item])
          : forEachItems(collection);
      budget().items(items.length, `a dynamic "${type}" block's for_each`);
      for (const [key, value] of items) {
        const iterators = new Map(binding.iterators ?? []);
        iterators.set(dynamic.iterator, { key, value });
        add(type, this.evaluateBody(inner, { ...binding, iterators }));
      }
    }
    return valueObject([...entries, ...blocks]);
  }

  /** Every resource and module call of this module instance, expanded by count and for_each. */
  expand(): void {
    for (const call of this.config.modules)
      if (!this.children.has(call.name)) budget().at(placeOf(call.where), () => this.expandModule(call));
    for (const resource of this.config.resources)
      budget().at(placeOf(resource.where), () => this.expandResource(resource));
  }

  /** A resource's or module call's instances, their number charged to the instances budget before any is made. */
  private instancesOf(
    count: Expression | undefined,
    forEach: Expression | undefined,
    address: string,
  ): { key: string; binding: Binding; deployed: Deployed }[] {
    const instances = this.instancesIn(count, forEach, address);
    if (instances.length === 1) budget().instances(1, address);
    return instances;
  }

  private instancesIn(
    count: Expression | undefined,
    forEach: Expression | undefined,
    address: string,
  ): { key: string; binding: Binding; deployed: Deployed }[] {
    if (count) {
      const value = evaluate(count, this.scope({}));
      if (isUnknown(value)) return [{ key: "[?]", binding: { count: value }, deployed: depends(value, "count") }];
      const total = typeof value === "number" ? value : Number(value);
      if (!Number.isInteger(total) || total < 0)
        return [
          {
            key: "[?]",
            binding: { count: new Unknown([]) },
            deployed: depends(new Unknown([], "a count that is not a whole number"), "count"),
          },
        ];
      if (total === 0) return [{ key: "", binding: { count: 0 }, deployed: { state: "no", because: "count is 0" } }];
      // Charged before the instances are made: count = 10000000 is refused here, allocating nothing.
      if (total > 1) budget().instances(total, `${address}'s count of ${total.toLocaleString("en")}`);
      return Array.from({ length: total }, (_, index) => ({
        key: `[${index}]`,
        binding: { count: index },
        deployed: YES,
      }));
    }
    if (forEach) {
      const value = evaluate(forEach, this.scope({}));
      const unknown = isUnknown(value) ? value : unknownInside(value);
      // A collection with an Unknown key or member has instances no one can name yet.
      if (unknown && (isUnknown(value) || !isValueObject(value)))
        return [
          { key: "[?]", binding: { each: { key: unknown, value: unknown } }, deployed: depends(unknown, "for_each") },
        ];
      const items = forEachItems(value);
      if (items.length === 0)
        return [{ key: "", binding: {}, deployed: { state: "no", because: "for_each is empty" } }];
      if (items.length > 1)
        budget().instances(items.length, `${address}'s for_each over ${items.length.toLocaleString("en")} items`);
      return items.map(([key, item]) => ({
        key: `[${JSON.stringify(key)}]`,
        binding: { each: { key, value: item } },
        deployed: YES,
      }));
    }
    return [{ key: "", binding: {}, deployed: YES }];
  }

  private expandResource(config: ResourceConfig): void {
    const base = `${this.path}${config.mode === "resource" ? "" : `${config.mode}.`}${config.type}.${config.name}`;
    const provider = this.providerOf(config);
    for (const { key, binding, deployed } of this.instancesOf(config.count, config.forEach, base)) {
      const state = both(this.deployed, deployed);
      this.run.resources.push({
        mode: config.mode,
        type: config.type,
        address: `${base}${key}`,
        where: config.where,
        attributes: state.state === "no" ? valueObject() : this.evaluateBody(config.body, binding),
        provider: {
          key: provider.key,
          ...(provider.where ? { where: provider.where } : {}),
          attributes: provider.attributes(),
        },
        deployed: state,
      });
    }
  }

  /** The provider configuration a resource uses: the one it names, else its type's default (google_* → google). */
  private providerOf(config: ResourceConfig): ProviderRef {
    const key = config.provider ?? config.type.slice(0, Math.max(0, config.type.indexOf("_")));
    return this.providers.get(key) ?? { key, attributes: () => valueObject() };
  }

  private expandModule(call: ModuleCallConfig): void {
    this.expanding.add(call.name);
    try {
      this.expandModuleInstances(call);
    } finally {
      this.expanding.delete(call.name);
    }
  }

  private expandModuleInstances(call: ModuleCallConfig): void {
    const manifestKey = this.manifestKey === "" ? call.name : `${this.manifestKey}.${call.name}`;
    const entry = `${this.path}module.${call.name}: module ${call.source ? `"${call.source.slice(0, 200)}"` : "with a source that is not a literal"} (${call.where})`;
    const dir = this.run.folderOf(call, this.config.dir, manifestKey);
    const counted = call.count !== undefined || call.forEach !== undefined;
    const instances = this.instancesOf(call.count, call.forEach, `${this.path}module.${call.name}`);
    if (typeof dir !== "string" || this.depth >= MAX_MODULE_DEPTH) {
      // A module never instantiated (count = 0, an empty for_each) is never needed: terraform plan reads no file of it.
      if (instances.every((instance) => both(this.deployed, instance.deployed).state === "no")) {
        this.children.set(call.name, call.count ? [] : counted ? valueObject() : new Unknown([], "no instance"));
        return;
      }
      this.run.unreadModules.push({
        entry:
          this.depth >= MAX_MODULE_DEPTH
            ? `${entry}: modules nest more than ${MAX_MODULE_DEPTH} deep`
            : `${entry}: ${typeof dir === "string" ? "" : dir.why}`,
        source: call.source,
      });
      this.children.set(call.name, new Unknown([], `module.${call.name} is not read`));
      return;
    }
    const config = this.run.module(dir);
    const outputs: [string, Value][] = [];
    for (const { key, binding, deployed } of instances) {
      const scope = this.scope(binding);
      const inputs = new Map<string, Value>();
      for (const [name, expression] of call.inputs) inputs.set(name, evaluate(expression, scope));
      const child = new ModuleInstance(
        this.run,
        config,
        { path: `${this.path}module.${call.name}${key}.`, depth: this.depth + 1, manifestKey },
        this.providers,
        both(this.deployed, deployed),
        remembered((name) => {
          const declared = config.variables.get(name)!;
          const typed = (value: Value) => withDefaults(value, typeConstraint(declared.type));
          if (inputs.has(name)) return { value: typed(inputs.get(name)!), source: `module.${call.name}` };
          if (declared.default)
            return {
              value: typed(budget().at(placeOf(declared.where), () => evaluate(declared.default!, EMPTY_SCOPE))),
              source: "its default",
            };
          return { value: new Unknown([], `module.${call.name}'s variable ${name} has no value`), source: "no value" };
        }),
      );
      child.resolveProviders(call.providers);
      child.expand();
      if (both(this.deployed, deployed).state !== "no") outputs.push([key, child.outputs()]);
    }
    const value: Value = !counted
      ? (outputs[0]?.[1] ?? new Unknown([], `module.${call.name} has no instance`))
      : call.count
        ? outputs.map(([, item]) => item)
        : valueObject(outputs.map(([key, item]) => [key.slice(2, -2), item]));
    this.children.set(call.name, value);
  }

  /** This module instance's outputs. */
  outputs(): ValueObject {
    const scope = this.scope({});
    return valueObject([...this.config.outputs].map(([name, expression]) => [name, evaluate(expression, scope)]));
  }
}
