/**
 * The three policy documents as Terraform/OpenTofu configuration: the document documents.ts wrote,
 * carried into the providers' resources unchanged — never a second generator of the rules. JSON the
 * providers take as a string (the SCP's content, the initiative's parameters, metadata and
 * parameter values) is the document's own JSON in a heredoc, so it reads back byte for byte
 * (decisions.md#policies-as-terraform).
 *
 * Argument names are the providers' own (their website/docs/r pages):
 * - AWS: aws_organizations_policy (name, description, type, content) and
 *   aws_organizations_policy_attachment (policy_id, target_id);
 * - Azure: azurerm_management_group_policy_set_definition (name, management_group_id, policy_type,
 *   display_name, description, metadata, parameters, policy_definition_reference {policy_definition_id,
 *   reference_id, parameter_values}) and azurerm_management_group_policy_assignment (name,
 *   display_name, management_group_id, policy_definition_id, enforce). The management-group
 *   resources, since azurerm 4 moved a definition's management group out of azurerm_policy_set_definition
 *   and the documents are meant for a management group (documents.ts's az commands). The initiative
 *   references built-in definitions only, so there is no azurerm_policy_definition to write;
 * - Google: google_org_policy_policy (name, parent, spec {rules {values {allowed_values,
 *   denied_values}}}).
 */
import type { AzurePolicySetDocumentT, GcpOrgPolicyDocumentT, ScpDocumentT } from "../schema/index.ts";
import { GCP_CONSTRAINT, GCP_ORGANIZATION_PLACEHOLDER } from "./documents.ts";

/**
 * The configuration's media type. HCL has none registered with IANA; text/x-hcl is the unregistered
 * name for it (text, so that a browser or a terminal shows it).
 */
export const TERRAFORM_MEDIA_TYPE = "text/x-hcl; charset=utf-8";

/** The file each policy's configuration is saved as, on every face. */
export const TERRAFORM_FILES = { scp: "aws-scp.tf", azure: "azure-policy-set.tf", gcp: "gcp-org-policy.tf" } as const;

/** Characters HCL's quoted strings escape: JSON's escapes but \b and \f, which HCL lacks. */
const HCL_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Template sequences read literally: `${` and `%{` start an interpolation or a directive in a
 * quoted string and in a heredoc alike, and `$${` / `%%{` are their escapes (an SCP may carry IAM
 * policy variables such as ${aws:username}).
 */
const literal = (text: string) => text.replace(/([$%])\{/g, "$1$1{");

/** A quoted HCL string holding `value` exactly. */
export function hclString(value: string): string {
  let quoted = "";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    quoted += HCL_ESCAPES[char] ?? (code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0")}` : char);
  }
  return `"${literal(quoted)}"`;
}

/** A heredoc holding `value` as indented JSON, its template sequences escaped. */
function jsonHeredoc(value: unknown, indent: string): string {
  // The marker never stands alone on a line of JSON, whose lines start with a brace, a bracket or a quote.
  return `<<-JSON\n${literal(JSON.stringify(value, null, 2))
    .split("\n")
    .map((line) => `${indent}  ${line}`)
    .join("\n")}\n${indent}JSON`;
}

/** A list of quoted strings, one a line. */
function hclList(values: readonly string[], indent: string): string {
  return `[\n${values.map((value) => `${indent}  ${hclString(value)},`).join("\n")}\n${indent}]`;
}

/** `name = value` lines, the equals signs aligned as terraform fmt aligns them. */
function attributes(pairs: readonly (readonly [string, string])[], indent: string): string {
  const width = Math.max(...pairs.map(([name]) => name.length));
  return pairs.map(([name, value]) => `${indent}${name.padEnd(width)} = ${value}`).join("\n");
}

/** A block, its closing brace at the header's indent, ending with a newline. */
const block = (header: string, body: string, indent = "") => `${indent}${header} {\n${body}\n${indent}}\n`;

/** A quoted string interpolating one expression between two literal parts. */
const interpolated = (before: string, expression: string, after: string) =>
  `${hclString(before).slice(0, -1)}\${${expression}}${hclString(after).slice(1)}`;

function requiredProvider(name: string, source: string, version: string): string {
  return block(
    "terraform",
    `  required_providers {\n    ${name} = {\n${attributes(
      [
        ["source", hclString(source)],
        ["version", hclString(version)],
      ],
      "      ",
    )}\n    }\n  }`,
  );
}

function variable(name: string, description: string, type: string, defaultValue?: string): string {
  return block(
    `variable ${hclString(name)}`,
    attributes(
      [
        ["type", type],
        ["description", hclString(description)],
        ...(defaultValue === undefined ? [] : [["default", defaultValue] as const]),
      ],
      "  ",
    ),
  );
}

const header = (lines: readonly string[]) => `${lines.map((line) => `# ${line}`).join("\n")}\n`;

// ---------------------------------------------------------------------------------------------
// AWS

export interface ScpTerraformOptions {
  readonly strategy: "deny-list" | "allow-list";
  /** The part answered, when one of several allow-list SCPs is asked for. */
  readonly part?: number;
}

/**
 * The SCPs (one, or every allow-list part) as aws_organizations_policy resources, each attached to
 * var.target_id.
 */
export function scpTerraform(policies: readonly ScpDocumentT[], options: ScpTerraformOptions): string {
  const several = policies.length > 1;
  const resources = policies.map((policy, index) => {
    const part = options.part ?? index + 1;
    const suffix = several || options.part !== undefined ? `_part${part}` : "";
    const name = `approved_services${suffix}`;
    return (
      block(
        `resource "aws_organizations_policy" ${hclString(name)}`,
        attributes(
          [
            ["name", hclString(`approved-services${suffix.replace("_", "-")}`)],
            ["description", hclString("Approved services")],
            ["type", hclString("SERVICE_CONTROL_POLICY")],
            ["content", jsonHeredoc(policy, "  ")],
          ],
          "  ",
        ),
      ) +
      "\n" +
      block(
        `resource "aws_organizations_policy_attachment" ${hclString(name)}`,
        attributes(
          [
            ["policy_id", `aws_organizations_policy.${name}.id`],
            ["target_id", "var.target_id"],
          ],
          "  ",
        ),
      )
    );
  });
  const placement =
    options.strategy === "deny-list"
      ? "Deny-list: attached beside FullAWSAccess; everything not in NotAction is denied."
      : `Allow-list: attached in place of FullAWSAccess (apply, then detach FullAWSAccess from the target); ${several ? "all these SCPs add up on the target" : options.part ? "attach every part of the allow-list to the same target" : "one SCP holds the whole list"}.`;
  return [
    header([
      "AWS service control policy from the Cloud Services Catalogue (POST /v1/policies/alpha-scp).",
      placement,
      "A starting point: review the actions, add co-required permissions, and test in a non-production OU first.",
    ]),
    requiredProvider("aws", "hashicorp/aws", ">= 5.0"),
    variable(
      "target_id",
      "The root (r-…), organizational unit (ou-…) or account (12 digits) the SCP is attached to",
      "string",
    ),
    ...resources,
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Azure

/** The initiative as a management group's policy set definition, assigned at that management group. */
export function azurePolicySetTerraform(document: AzurePolicySetDocumentT): string {
  const { properties } = document;
  const references = properties.policyDefinitions.map((reference) =>
    block(
      "policy_definition_reference",
      attributes(
        [
          ["policy_definition_id", hclString(reference.policyDefinitionId)],
          ["reference_id", hclString(reference.policyDefinitionReferenceId)],
          ["parameter_values", jsonHeredoc(reference.parameters, "    ")],
        ],
        "    ",
      ),
      "  ",
    ),
  );
  const definition = block(
    'resource "azurerm_management_group_policy_set_definition" "approved_services"',
    [
      attributes(
        [
          ["name", hclString("approved-services")],
          ["management_group_id", "var.management_group_id"],
          ["policy_type", hclString(properties.policyType)],
          ["display_name", hclString(properties.displayName)],
          ["description", hclString(properties.description)],
          ["metadata", jsonHeredoc(properties.metadata, "  ")],
          ["parameters", jsonHeredoc(properties.parameters, "  ")],
        ],
        "  ",
      ),
      ...references.map((reference) => `\n${reference.trimEnd()}`),
    ].join("\n"),
  );
  const assignment = block(
    'resource "azurerm_management_group_policy_assignment" "approved_services"',
    attributes(
      [
        // At most 24 characters (the resource's docs).
        ["name", hclString("approved-services")],
        ["display_name", hclString(properties.displayName)],
        ["management_group_id", "var.management_group_id"],
        ["policy_definition_id", "azurerm_management_group_policy_set_definition.approved_services.id"],
        ["enforce", "var.enforce"],
      ],
      "  ",
    ),
  );
  return [
    header([
      "Azure Policy initiative from the Cloud Services Catalogue (POST /v1/policies/beta-policy),",
      "defined and assigned at one management group. The built-in 'Allowed resource types' runs in",
      "Indexed mode: only types that support tags and location are checked.",
    ]),
    requiredProvider("azurerm", "hashicorp/azurerm", ">= 4.0"),
    block('provider "azurerm"', "  features {}"),
    variable(
      "management_group_id",
      "The management group's ID, /providers/Microsoft.Management/managementGroups/<name>: the initiative is defined and assigned there",
      "string",
    ),
    variable(
      "enforce",
      "false assigns with enforcement mode DoNotEnforce: see what would be denied before denying it",
      "bool",
      "true",
    ),
    definition,
    assignment,
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Google Cloud

const GCP_VALUE_ARGUMENTS: Record<string, string> = { allowedValues: "allowed_values", deniedValues: "denied_values" };

/**
 * The organization policy as google_org_policy_policy, its name and parent built from
 * var.organization_id (defaulting to the organizationId asked for, if any).
 */
/** One google_org_policy_policy resource: the document's constraint, its rules unchanged. */
function gcpPolicyResource(document: GcpOrgPolicyDocumentT): string {
  const constraint = document.name.slice(document.name.lastIndexOf("/") + 1);
  const rules = document.spec.rules.map((rule) => {
    const values = Object.entries(rule.values).map(
      ([key, list]) => [GCP_VALUE_ARGUMENTS[key] ?? key, hclList(list, "        ")] as const,
    );
    return `    rules {\n      values {\n${attributes(values, "        ")}\n      }\n    }`;
  });
  const resource =
    constraint === GCP_CONSTRAINT
      ? "restrict_service_usage"
      : constraint.replace(/^gcp\./, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return block(
    `resource "google_org_policy_policy" "${resource}"`,
    `${attributes(
      [
        ["name", interpolated("organizations/", "var.organization_id", `/policies/${constraint}`)],
        ["parent", interpolated("organizations/", "var.organization_id", "")],
      ],
      "  ",
    )}\n\n  spec {\n${rules.join("\n\n")}\n  }`,
  );
}

/**
 * The organization policy, and with allowedLocations the gcp.resourceLocations one beside it
 * (google_org_policy_policy.resource_locations): one .tf applies both, as gcloud needs two files.
 */
export function gcpOrgPolicyTerraform(
  document: GcpOrgPolicyDocumentT,
  others: readonly GcpOrgPolicyDocumentT[] = [],
): string {
  const organization = /^organizations\/([^/]+)\//.exec(document.name)?.[1];
  const known = organization && organization !== GCP_ORGANIZATION_PLACEHOLDER ? organization : undefined;
  return [
    header([
      `Google Cloud organization policy from the Cloud Services Catalogue (POST /v1/policies/gamma-org-policy):`,
      ...[document, ...others].map((policy) =>
        policy.name.endsWith(`/${GCP_CONSTRAINT}`)
          ? `${GCP_CONSTRAINT} allows only the approved services' APIs and the essentials.`
          : `${policy.name.slice(policy.name.lastIndexOf("/") + 1)} allows only the allowed locations (allowedLocations).`,
      ),
    ]),
    requiredProvider("google", "hashicorp/google", ">= 5.0"),
    variable(
      "organization_id",
      "The numeric organization id the policy is set on",
      "string",
      known === undefined ? undefined : hclString(known),
    ),
    ...[document, ...others].map(gcpPolicyResource),
  ].join("\n");
}
