/**
 * The MCP tool check_deployment: POST /v1/deployments/check for an assistant holding a template.
 * Kept in its own file, registered by one line in tools.ts (TOOLS) and named in
 * catalogue/contract/mcp.ts (MCP_TOOLS).
 */
import { z } from "zod";
import { TemplateCheck } from "../catalogue/schema/index.ts";

export const CHECK_DEPLOYMENT_TOOL = {
  name: "check_deployment" as const,
  description:
    "Check a deployment against an approved list (POST /v1/deployments/check): pass the template (CloudFormation or SAM JSON/YAML text, an ARM template, a Terraform plan from terraform show -json, or Google API names), or a repository's files (path relative to its top → text) with root naming the Terraform root module's folder or the template to check (its local modules, nested stacks, applications and AWS::Include snippets are read from the files, never outside the top), and approvedServiceIds (or a saved list's listId). What it does not read (a nested stack held elsewhere, a macro, a module not sent) is named in notEvaluated and keeps the verdict from allowed. Evaluates its parameters or variables (inputs, else their defaults), conditions and loops, then answers the services it uses with the items that made it so, where each resource goes (with allowedLocations: allowed or not), what is never deployed, what the list lacks, the implicit needs of its tools and types with their vendor pages, and each vendor's verdict: allowed, or the actions, types or APIs still denied and the services that would allow them. The whole request is within /mcp's 64 KiB body limit (a larger one is refused naming it): send a larger template to POST /v1/deployments/check or the text host's POST /deployments/check, which take 4 MiB.",
  input: {
    template: z
      .union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .meta({ description: "The template: its text (JSON or YAML), or the JSON value (or files instead)" }),
    files: z.record(z.string().min(1), z.string()).optional().meta({
      description:
        "Instead of template: a repository's files, path relative to its top → text (.tf, .tfvars, .yaml, .yml, .json, .template), e.g. envs/prod/main.tf and modules/queue/main.tf",
    }),
    root: z.string().min(1).optional().meta({
      description:
        "With files: the Terraform root module's folder (envs/prod; the top when absent) or the template to check (template.yaml)",
    }),
    approvedServiceIds: z.array(z.string().min(1)).min(1).optional().meta({
      description: 'The approved service slugs, e.g. ["aws-ec2", "aws-cloudformation"]',
    }),
    listId: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "A saved list's id or slug, instead of approvedServiceIds" }),
    allowedLocations: z.array(z.string().min(1)).min(1).optional().meta({
      description: 'Where resources may go: region codes, country codes, EU or EEA, e.g. ["EU"]',
    }),
    inputs: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "Values of the deployment's inputs by name: Terraform variables, CloudFormation or ARM parameters (their defaults apply otherwise)",
    }),
    region: z.string().min(1).optional().meta({
      description:
        "Where the deployment is made when it does not say: a CloudFormation stack's region, an ARM resource group's location, a Terraform provider's region",
    }),
  },
  request: (args: {
    template?: unknown;
    files?: Record<string, string> | undefined;
    root?: string | undefined;
    approvedServiceIds?: string[] | undefined;
    listId?: string | undefined;
    allowedLocations?: string[] | undefined;
    inputs?: Record<string, unknown> | undefined;
    region?: string | undefined;
  }) => ({
    operationId: "checkDeployment",
    body: Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)),
  }),
  output: TemplateCheck,
};
