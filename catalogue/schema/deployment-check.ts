/**
 * POST /v1/deployments/check (added in 1.10.0): the request (a template and the approved list or a
 * saved list's id) and the answer (catalogue/templates/check.ts says what each field means).
 */
import { z } from "zod";
import { LIFECYCLE_WITHIN_MAX_DAYS, MAX_ALLOWED_LOCATIONS, MAX_ID_LENGTH, MAX_TF_FILES } from "../base/limits.ts";
import { allowedLocations, approvedServiceIds, LifecycleQuery } from "./requests.ts";
import { VersionSource, VERSION_PHASES, VERSION_STATUSES } from "./versions.ts";
import { strictBody } from "./unknown-keys.ts";
import { d } from "./vocabulary.ts";

/**
 * The first phase of a version's life a deployment check fails on (added in 1.12.0): deprecated,
 * any phase after standard support (the default); extended, extended support or worse; end, the
 * vendor refusing to create or update resources on it, or its end.
 */
export const FAIL_ON = ["deprecated", "extended", "end"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/**
 * A file's path in `files`, relative to the repository's top: a Terraform file (.tf, .tfvars,
 * .tfvars.json, terraform init's .terraform/modules/modules.json) or, from 1.13.0, a template or
 * snippet (.yaml, .yml, .json, .template: a CloudFormation or SAM template, its nested templates, an
 * AWS::Include snippet), in folders allowed; no "." or ".." segment, no leading "/" (nothing outside
 * the repository's top).
 */
export const TF_FILE_NAME =
  /^(?!\/)(?!(?:.*\/)?\.\.?(?:\/|$))(?:[^/\\]{1,200}\/){0,15}[^/\\]{1,200}\.(?:tf|tfvars|json|ya?ml|template)$/;
/** The request's root: a folder or file among `files` ("." the top), with the same rules as their paths. */
export const ROOT_NAME = /^(?:\.|(?!\/)(?!(?:.*\/)?\.\.?(?:\/|$))(?:[^/\\]{1,200}\/){0,15}[^/\\]{1,200}\/?)$/;
// Where the limit lives (base/limits.ts) and where its readers have found it.
export { MAX_TF_FILES };
/** Inputs a check takes at most. */
export const MAX_DEPLOYMENT_INPUTS = 200;

export const TemplateCheckBody = strictBody({
  template: z
    .union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .meta(
      d(
        "What will be deployed: a CloudFormation or SAM template (JSON or YAML text, or the JSON object), an ARM template (also what bicep build writes), a Terraform plan (terraform show -json), one Terraform configuration file's text (.tf, recognised by its first block), or Google API names (a list, or text one a line)",
      ),
    )
    .optional(),
  files: z
    .record(
      z
        .string()
        .regex(
          TF_FILE_NAME,
          "a file's path relative to the repository's top: .tf, .tfvars, .tfvars.json, .yaml, .yml, .json or .template (main.tf, modules/net/main.tf, prod.auto.tfvars, stacks/auth.yaml), no . or .. segment, no leading /",
        )
        .meta(
          d(
            "A file's path relative to the repository's top: .tf, .tfvars, .tfvars.json, .terraform/modules/modules.json, or (from 1.13.0) a template or snippet: .yaml, .yml, .json, .template; in folders, never . or .. segments nor a leading /",
          ),
        ),
      z.string(),
    )
    .refine((files) => Object.keys(files).length >= 1 && Object.keys(files).length <= MAX_TF_FILES, {
      message: `1 to ${MAX_TF_FILES} .tf files`,
    })
    .optional()
    .meta({
      // The refinement's bounds in the document too.
      minProperties: 1,
      maxProperties: MAX_TF_FILES,
      ...d(
        `Instead of template: a repository's files, path (relative to the repository's top) to text (1 to ${MAX_TF_FILES}). Terraform: the root module's .tf files (at the top, or in the folder root names), a local module's in the folder its source names, anywhere under the top (../../modules/net from envs/prod; a source leaving the top is not read), a registry module's where terraform init put it (the root module's .terraform/modules/…, with modules.json), and the root's terraform.tfvars and *.auto.tfvars; evaluated as terraform plan would (variables with their optional() defaults, locals, provider blocks, count and for_each, modules; a module with count 0 needs no file); a module whose files are not sent is not read (notEvaluated). From 1.13.0, CloudFormation or SAM too: root names the template, and its nested stacks' and applications' local TemplateURL and Location and its AWS::Include snippets are read from the files, relative to the template naming them (added in 1.11.0; folders, variable files and modules from 1.12.0; repositories and templates from 1.13.0)`,
      ),
    }),
  root: z
    .string()
    .min(1)
    .max(1000)
    .regex(ROOT_NAME, "a folder or file among files, relative to the repository's top (envs/prod, template.yaml, .)")
    .optional()
    .meta(
      d(
        "With files: what to check among them, relative to the repository's top: the Terraform root module's folder (envs/prod; the top when absent or .), or the CloudFormation or SAM template (template.yaml), whose nested templates and snippets the other files hold (added in 1.13.0)",
      ),
    ),
  approvedServiceIds: approvedServiceIds.optional(),
  inputs: z
    .record(z.string().min(1).max(200), z.unknown())
    .refine((inputs) => Object.keys(inputs).length <= MAX_DEPLOYMENT_INPUTS, {
      message: `at most ${MAX_DEPLOYMENT_INPUTS} inputs`,
    })
    .optional()
    .meta({
      maxProperties: MAX_DEPLOYMENT_INPUTS,
      ...d(
        `Values of the deployment's inputs by name, as a deployment gives them: Terraform root variables (terraform plan -var; over *.auto.tfvars, terraform.tfvars and defaults), CloudFormation parameters (over their Default), ARM parameters (a parameters file's values, over defaultValue); a name the deployment does not declare is a 400 (added in 1.12.0)`,
      ),
    }),
  region: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9 _-]+$/, "a region code")
    .optional()
    .meta(
      d(
        "Where the deployment is made when it does not say: a CloudFormation stack's region (AWS::Region), an ARM deployment's resource group (resourceGroup().location) or subscription deployment location, a Terraform provider block's region when it sets none (the environment's AWS_REGION) (added in 1.12.0)",
      ),
    ),
  retiringWithin: LifecycleQuery.shape.within.meta({
    description: `"<n>d" (or "<n>"), n from 0 to ${LIFECYCLE_WITHIN_MAX_DAYS}: a version the deployment names is retiring when it is in, or enters between today (UTC) and today + n days, the phase failOn names; 180d when not given (added in 1.11.0)`,
    example: "90d",
  }),
  failOn: z.enum(FAIL_ON).optional().meta({
    description:
      "The first phase of a version's life the check fails on: deprecated (the default: any phase after standard support, whatever the vendor calls it, begun or beginning within retiringWithin), extended (extended support, paid or not, or worse), end (the vendor refusing to create or update resources on it, or its end). A version already in that phase is retiring now (added in 1.12.0)",
    example: "extended",
  }),
  allowedLocations: allowedLocations.meta(
    d(
      `Where the deployment's resources may go, as in the policy endpoints' allowedLocations (1 to ${MAX_ALLOWED_LOCATIONS} places: region codes of any provider of the catalogue, ISO 3166-1 alpha-2 country codes, the groups EU and EEA, vendors' multi-regions or global, since 1.12.0 read by the one vocabulary of places; an unknown place is a 400 naming the nearest): each resource that states its region, location or zone is checked against them, the same way on every provider (locations) (added in 1.11.0)`,
    ),
  ),
  listId: z
    .string()
    .min(1)
    .max(MAX_ID_LENGTH)
    .optional()
    .meta(
      d(
        "A saved list's id or slug, instead of approvedServiceIds; reading it renews the list as GET /v1/lists/{id} does",
      ),
    ),
})
  .refine((body) => (body.template === undefined) !== (body.files === undefined), {
    message: "give either template or files (what will be deployed), not both and not neither",
  })
  .refine((body) => (body.approvedServiceIds === undefined) !== (body.listId === undefined), {
    message: "give either approvedServiceIds or listId (the approved list), not both and not neither",
  })
  .refine((body) => body.root === undefined || body.files !== undefined, {
    message: "root names what to check among files: give files with it",
  })
  .meta({
    id: "TemplateCheckBody",
    description:
      "Request body of POST /v1/deployments/check: the template (or .tf files) and either approvedServiceIds or listId",
    // The refinements in the document too, so a client validating against it agrees with the server.
    allOf: [
      { oneOf: [{ required: ["template"] }, { required: ["files"] }] },
      { oneOf: [{ required: ["approvedServiceIds"] }, { required: ["listId"] }] },
      { if: { required: ["root"] }, then: { required: ["files"] } },
    ],
  });
export type TemplateCheckBodyT = z.output<typeof TemplateCheckBody>;

const Source = z.object({ url: z.string(), backs: z.string(), checked: z.string() });
const ConditionalResource = z.object({
  item: z.string().meta(d("Its type (or API)")),
  from: z.string().meta(d("Its address, logical id or name")),
  because: z.string().meta(d("Why: the condition, count or for_each and what it depends on")),
  on: z.array(z.string()).optional().meta(d("The inputs it depends on (dependsOnInputs only)")),
});

/** A phase of a version in the answer. */
const VersionPhaseAnswer = z
  .object({
    phase: z.enum(VERSION_PHASES).meta(d(`One of ${VERSION_PHASES.join(", ")}`)),
    starts: z.string().meta(d("Its first day (YYYY-MM-DD)")),
    name: z.string().meta(d("What the vendor calls the date it begins from")),
    consequence: z.string().optional().meta(d("What it means, in the vendor's terms, where recorded")),
    paid: z.boolean().optional().meta(d("True when the vendor charges for the phase")),
    price: z.string().optional().meta(d("Its price basis where the vendor states it")),
  })
  .meta({ id: "VersionPhaseAnswer", description: "A phase of a version a deployment names (added in 1.12.0)" });
const Denied = z.object({
  identifier: z.string(),
  neededFor: z.array(z.string()).meta(d("What in the deployment needs it: resource types, APIs or implicit-need rows")),
  approve: z.array(z.string()).meta(d("Catalogue services whose approval would allow it (empty: none owns it)")),
});

const NeedRow = z.object({
  id: z.string(),
  what: z.string(),
  identifiers: z.array(z.string()),
  services: z.array(z.string()),
  approve: z.array(z.string()),
  source: Source,
});

export const TemplateCheck = z
  .object({
    format: z
      .enum(["cloudformation", "arm", "terraform-plan", "terraform-config", "gcp-apis"])
      .meta(
        d(
          "What the template was read as (SAM and CDK output are CloudFormation; Bicep output is ARM; .tf files are terraform-config, added in 1.11.0)",
        ),
      ),
    tools: z.array(z.string()).meta(d("aws-cdk when the CDK synthesised it, aws-sam when it uses the SAM transform")),
    expanded: z.array(z.string()).meta(d("What each AWS::Serverless type was expanded to, as the SAM transform does")),
    items: z.number().int().meta(d("Distinct resource types or APIs read")),
    services: z
      .array(
        z.object({
          id: z.string(),
          providerId: z.string(),
          approved: z.boolean(),
          status: z
            .enum(["missing", "allowed"])
            .optional()
            .meta(
              d(
                "Not approved: missing (something it needs here is denied) or allowed (the approved list's document allows all it needs here)",
              ),
            ),
          allowedThrough: z
            .array(z.string())
            .optional()
            .meta(
              d(
                "Not approved, but wholly allowed by the approved list's document: the services (or essentials) it came with",
              ),
            ),
          items: z.array(
            z.object({
              item: z.string(),
              from: z
                .array(z.string())
                .meta(
                  d(
                    "Every resource instance the item came from: logical ids, resource names or addresses (since 1.13.0; before, the first five)",
                  ),
                ),
            }),
          ),
        }),
      )
      .meta(d("The catalogue services the deployment uses, each with the items that made it so")),
    missingServiceIds: z
      .array(z.string())
      .meta(
        d(
          "Services the approved list lacks whose approval the verdict needs: those it uses with something denied, the implicit needs' services, and for a denied item none of them covers the first service allowing it (what suggestedServiceIds adds)",
        ),
      ),
    choices: z
      .array(z.object({ item: z.string(), chosen: z.string(), oneOf: z.array(z.string()) }))
      .meta(d("Items several services own, none approved: the service counted, and the others that would do as well")),
    unplaced: z
      .array(
        z.object({
          item: z.string(),
          kind: z.enum(["cloudformation-type", "azure-type", "terraform-type", "gcp-api"]),
          from: z
            .array(z.string())
            .meta(d("Every resource instance the item came from (since 1.13.0; before, the first five)")),
          reason: z.string(),
          arrivesWith: z.array(z.string()).optional(),
        }),
      )
      .meta(d("Items no catalogue service owns, listed with the reason, never dropped")),
    notEvaluated: z
      .array(z.string())
      .meta(
        d(
          'Azure types the Indexed-mode policy never evaluates, then what the check did not read, each with where and why (an ARM linked template: `<name>: linked template <uri> (<path>)`; in .tf files, a module: `module.<name>: module "<source>" (<file>, line <n>): <why>`, or a count or for_each that is not a literal: `<address>: count is not a literal (<file>, line <n>)`; in CloudFormation, from 1.13.0, a nested stack or application whose template is not among the files, a Serverless Application Repository application, a macro or transform other than SAM\'s and the language extensions, an AWS::Include of a file not sent: `<logical id>: <what> (<path>): <why and what to do>`)',
        ),
      ),
    implicitNeeds: z
      .array(NeedRow)
      .meta(d("What the deployment's tools and types need beyond their own services, each row with its vendor page")),
    toolNeeds: z
      .array(NeedRow)
      .meta(
        d(
          "Tool commands a user may run beside the deployment (sam logs), each with its vendor page and what to approve to run it: not what the deployment needs, counted in no verdict (added in 1.11.0)",
        ),
      ),
    verdicts: z
      .array(
        z.object({
          providerId: z.enum(["aws", "azure", "gcp"]),
          approvedServiceIds: z.array(z.string()),
          allowed: z.boolean(),
          checked: z.number().int(),
          denied: z.array(Denied),
          refused: z.string().optional(),
          notEvaluated: z
            .array(z.string())
            .optional()
            .meta(
              d(
                "What the deployment holds that this verdict did not read (an ARM linked template, properties.templateLink; in .tf files, a module or a count or for_each that is not a literal; from 1.13.0 a CloudFormation nested stack, application, macro or include not read), each with where: allowed is then false (added in 1.11.0)",
              ),
            ),
          wider: z.array(z.object({ id: z.string(), cameWith: z.array(z.string()), complete: z.boolean() })),
          notGoverned: z
            .array(z.object({ identifier: z.string(), neededFor: z.array(z.string()), reason: z.string() }))
            .meta(
              d(
                "What the document does not govern, never denied, each with why (Google: APIs gcp.restrictServiceUsage does not apply to, per Google's supported-services list); empty for AWS and Azure (added in 1.11.0)",
              ),
            ),
        }),
      )
      .meta(
        d(
          "Per vendor, the generated document's verdict for this deployment: from the approved list, then (when it lacks something) from suggestedServiceIds",
        ),
      ),
    suggestedServiceIds: z.array(z.string()).meta(d("The approved list with what the check says to add")),
    versions: z
      .array(
        z.object({
          type: z.string(),
          from: z.string().meta(d("The resource: its logical id, name or address")),
          attribute: z
            .string()
            .meta(d("Where the version is written, e.g. Runtime, engine_version, properties.kubernetesVersion")),
          value: z.string().meta(d("The version as the template writes it")),
          serviceId: z.string(),
          status: z
            .enum([...VERSION_STATUSES, "unknown"])
            .meta(
              d(
                "The version's status today (ServiceVersion.status), or unknown: the catalogue holds no version this value names (never matched to a nearest one)",
              ),
            ),
          version: z.string().optional().meta(d("The version the value names, as the vendor writes it (13 for 13.7)")),
          family: z.string().optional(),
          ends: z
            .string()
            .optional()
            .meta(d("The day its support next ends (standard, else extended), or the last day it had")),
          endsWhich: z.enum(["standardEnd", "extendedEnd"]).optional(),
          phase: z
            .enum(VERSION_PHASES)
            .optional()
            .meta(
              d(
                "Its phase today: supported, deprecated, extended, block-create, block-update or ended (added in 1.12.0)",
              ),
            ),
          phases: z
            .array(VersionPhaseAnswer)
            .optional()
            .meta(
              d(
                "Every phase after standard support its dates give, in order, each with its first day (added in 1.12.0)",
              ),
            ),
          retiring: z
            .boolean()
            .meta(
              d(
                "It is in, or enters within retiringWithin, the phase failOn names (before 1.12.0: its support had ended or ended within the window)",
              ),
            ),
          retiringPhase: VersionPhaseAnswer.optional().meta(
            d(
              "When retiring: the phase that makes it so, begun (retiring now) or beginning within the window (added in 1.12.0)",
            ),
          ),
          failOn: z.enum(FAIL_ON).optional().meta(d("The failOn applied (added in 1.12.0)")),
          successor: z.string().optional(),
          source: VersionSource.optional(),
        }),
      )
      .meta(
        d(
          "Each version a resource names (Lambda runtimes and layers' compatible runtimes, Functions hosts and language stacks, App Service PHP, Kubernetes clusters and node pools, engine versions, Azure Cache for Redis tiers) with its status, phases and vendor page, from the catalogue's version data (added in 1.11.0)",
        ),
      ),
    serviceLifecycle: z
      .array(
        z.object({
          serviceId: z.string(),
          status: z.enum(["preview", "deprecated", "sunset", "retired"]),
          date: z.string().optional().meta(d("Its sunset or retirement date, when announced")),
          retiring: z
            .boolean()
            .meta(d("Retired, sunsetting within retiringWithin, or deprecated when failOn is deprecated")),
          successor: z.string().optional(),
          note: z.string().optional(),
          announcementUrl: z.string().optional(),
        }),
      )
      .meta(
        d(
          "Each service the deployment uses that has a lifecycle of its own (deprecated, sunsetting, retired, preview), judged against it (added in 1.12.0)",
        ),
      ),
    locations: z
      .array(
        z.object({
          from: z.string().meta(d("The resource: its ARM name, plan or .tf address")),
          type: z.string(),
          providerId: z
            .string()
            .optional()
            .meta(
              d("The catalogue provider it deploys to (by its Terraform type's prefix; azure for ARM), when known"),
            ),
          attribute: z.string().meta(d("What states the location: region, location or zone")),
          location: z.string().meta(d("The location as the input states it")),
          region: z
            .string()
            .optional()
            .meta(
              d("The catalogue region it names (a zone or data centre only when it extends exactly one region's id)"),
            ),
          country: z.string().optional().meta(d("The region's country (ISO 3166-1 alpha-2)")),
          allowed: z
            .boolean()
            .nullable()
            .optional()
            .meta(
              d(
                "With allowedLocations only: whether the region is among them (true for a global resource, which every vendor's location policy exempts), or null when the catalogue's regions do not hold the location",
              ),
            ),
          via: z
            .string()
            .optional()
            .meta(
              d(
                "Where the location came from when not the resource's own attribute: a provider block (the provider block aws.eu (main.tf, line 3)), the request's region (added in 1.12.0)",
              ),
            ),
          multiRegion: z
            .array(z.string())
            .optional()
            .meta(
              d(
                "A vendor's multi-region or dual-region (a bucket's US, EU, NAM4): the catalogue regions it may keep data in, or the countries where its vendor names no region; allowed only when all are (added in 1.12.0)",
              ),
            ),
          global: z
            .string()
            .optional()
            .meta(
              d(
                "Set on a global resource (location global: CloudFront, IAM, Front Door, a global load balancer): why, and that the vendors' location policies exempt it, its data possibly leaving the allowed locations (added in 1.12.0)",
              ),
            ),
        }),
      )
      .meta(
        d(
          "Each resource whose location the evaluated input says (its own region, location or zone, its provider block's region, the request's region), at most 500: where it goes and, with allowedLocations, whether it may; global resources answered as global (from 1.12.0; before, only literal attributes) (added in 1.11.0)",
        ),
      ),
    inputs: z
      .array(
        z.object({
          name: z.string().meta(d("As the deployment names it: var.region, parameter Env, parameters('location')")),
          source: z
            .string()
            .meta(d('Where its value came from: "the request", "its default", a variable file\'s name, or "no value"')),
          value: z.string().optional().meta(d("The value as JSON text, cut to 200 characters")),
        }),
      )
      .meta(
        d(
          "The deployment's inputs the evaluation read (Terraform root variables, CloudFormation and ARM parameters), each with where its value came from (added in 1.12.0)",
        ),
      ),
    notDeployed: z
      .array(ConditionalResource)
      .meta(
        d(
          "Resources declared but never deployed with these inputs (a false condition or Condition, a count, copy count or for_each of none), at most 200: in no verdict (added in 1.12.0)",
        ),
      ),
    dependsOnInputs: z
      .array(ConditionalResource)
      .meta(
        d(
          "Resources deployed or not depending on inputs that have no value (on names them), at most 200: counted in the verdicts as deployed; give the inputs to decide (added in 1.12.0)",
        ),
      ),
    unknownLocations: z
      .array(
        z.object({
          type: z.string(),
          from: z.string(),
          providerId: z.string().optional(),
          why: z
            .string()
            .meta(d("Why the location is not known: the input it depends on, or what the input does not say")),
        }),
      )
      .meta(
        d(
          "Resources whose location the input does not say (a stack's region not given, a variable without a value), at most 500, each with why: neither allowed nor denied (added in 1.12.0)",
        ),
      ),
    deploymentErrors: z
      .array(z.string())
      .optional()
      .meta(
        d(
          "What the vendor's deployment would refuse, each with where and why: an Fn::FindInMap that finds no entry (a region-keyed Mapping without the stack's region), a nested stack passed parameters its template does not declare; CloudFormation fails such a stack, so the check fails too (added in 1.13.0)",
        ),
      ),
    statements: z
      .array(
        z.object({
          kind: z.enum([
            "read",
            "services",
            "unplaced",
            "not-evaluated",
            "implicit-need",
            "verdict",
            "wider",
            "not-governed",
            "versions",
            "locations",
            "inputs",
          ]),
          text: z.string(),
          checked: z.array(z.string()).meta(d("What the statement was checked against")),
        }),
      )
      .meta(d("The answer in sentences, each with what backs it")),
  })
  .meta({
    id: "TemplateCheck",
    description: "What a deployment uses and whether the approved list's policies allow it",
  });
export type TemplateCheckT = z.output<typeof TemplateCheck>;
