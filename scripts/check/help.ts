/**
 * `cloud-catalogue check --help`: every option, input, bound and exit status. docs/ci-check.md
 * holds the same text in its "Every option" block (tests/build/check-help.test.ts compares them);
 * an option added to options.ts is said here, or that test fails.
 */
import {
  ARM_COPY_MAX,
  bodyLimitText,
  LIFECYCLE_WITHIN_MAX_DAYS,
  MAX_TEMPLATE_BODY_BYTES,
  MAX_TF_FILES,
  TEMPLATE_BUDGET_WORDS,
  TEMPLATE_MAX_DEPTH,
  TEMPLATE_READ_HEAP_MB,
  TEMPLATE_READ_SECONDS,
  TEMPLATE_VALUES_MAX,
} from "../../catalogue/base/limits.ts";
import { API_TIMEOUT_SECONDS } from "./options.ts";

const LIMIT = bodyLimitText(MAX_TEMPLATE_BODY_BYTES);

/** Words wrapped at the help's width: the first line indented by `indent`, the others by `hanging`. */
function wrapped(text: string, indent: string, hanging = indent, width = 96): string {
  const lines: string[] = [];
  let line = "";
  const lead = () => (lines.length === 0 ? indent : hanging);
  for (const word of text.split(" ")) {
    if (line !== "" && lead().length + line.length + 1 + word.length > width) {
      lines.push(lead() + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(lead() + line);
  return lines.join("\n");
}

/** The evaluation's bounds, each with its number (limits.ts's words, as the API's description says them). */
const EVALUATION_BOUNDS = [
  `Read and evaluated as the API does, in a process of its own with ${TEMPLATE_READ_HEAP_MB} MB of heap and ${TEMPLATE_READ_SECONDS} s; past any of these bounds the check stops (exit 2, the bound named in the message and the SARIF):`,
  ...[
    `${TEMPLATE_VALUES_MAX.toLocaleString("en")} values after YAML aliases`,
    `${TEMPLATE_MAX_DEPTH} levels of nesting`,
    ...Object.values(TEMPLATE_BUDGET_WORDS),
    `an ARM copy loop's count of ${ARM_COPY_MAX} (Azure's own limit)`,
  ].map((words) => wrapped(`- ${words}`, "  ", "    ")),
]
  .map((paragraph, at) => (at === 0 ? wrapped(paragraph, "  ") : paragraph))
  .join("\n");

export const CHECK_USAGE =
  "usage: cloud-catalogue check [<template|plan file|folder of .tf files> …] [--ids a,b,c | --ids-file FILE | --list LIST] [options] (cloud-catalogue check --help)";

export const CHECK_HELP = `Usage: cloud-catalogue check [<template|plan file|folder of .tf files> …]
         [--ids a,b,c | --ids-file FILE | --list LIST]
         [--catalogue DIR | --api URL [--api-timeout 120s]] [--retiring-within 180d]
         [--fail-on deprecated] [--locations EU,CH,…] [--var name=value …] [--var-file FILE …]
         [--region eu-west-1] [--root DIR] [--recursive]
         [--format text|json|md] [--output FILE] [--sarif FILE]
         [--junit FILE] [--gitlab FILE] [--markdown FILE] [--github-annotations]
         [--baseline FILE [--new-only]] [--write-baseline FILE] [--skip-rule RULE …]
         [--rule RULE …] [--fail-on-severity error|warning] [--strict] [--soft-fail]
         [--config FILE | --no-config] [--debug] [--version]

Checks a deployment against the approved services, as POST /v1/deployments/check does: the
services it uses, what the list lacks, and each vendor policy's verdict from the list. One
finding per resource instance, each with its file and line.

What is checked (each path its own root and verdict; none: the configuration's roots):
  a file                a CloudFormation or SAM template (JSON or YAML), an ARM template (what
                        bicep build writes), a Terraform plan (terraform show -json plan.out >
                        plan.json), one .tf file, or Google API names one a line
  a folder              a Terraform root module, read as terraform plan reads it, without
                        credentials: its *.tf files, terraform.tfvars and *.auto.tfvars, the
                        folders its local modules' sources name anywhere under the
                        repository's top (../../modules/x), and what terraform init
                        installed in it (.terraform/modules); variables (optional()
                        defaults too), locals, provider blocks, count, for_each and modules
                        are evaluated; a module whose files are not there is a not-read
                        error, one with count = 0 needs none
  The repository's top is --root, else the git root above the path, else the path's folder:
  nothing outside it is read. A CloudFormation or SAM template's nested stacks, applications
  and AWS::Include snippets named by a local path are read from it too (sam build's output
  names them so); one held elsewhere (S3, the Serverless Application Repository) or a macro
  is a not-read error.
  Bounded as the API is: regular files only (a symbolic link, fifo or device is refused), each
  at most ${LIMIT}, at most ${MAX_TF_FILES} files of a root and ${LIMIT} together, read within ${TEMPLATE_READ_SECONDS} s.
${EVALUATION_BOUNDS}

The repository:
  --root DIR            the repository's top (it must hold the path): local modules and nested
                        templates are read anywhere under it, never outside it
  --recursive           check every root module under each folder given (a folder of .tf files
                        no other folder calls as a module), one verdict each, in one SARIF log

The configuration (.cloud-catalogue.yaml; cloud-catalogue init writes it):
  (neither option)      the file found in the working folder or the nearest folder above it,
                        up to the repository's top (the folder holding .git): its list, roots,
                        locations, fail-on, severity, retiring-within, skip-rules, rules,
                        baseline, api and api-timeout, under the options given
  --config FILE         this file instead
  --no-config           no file
  An unknown key, a rule the check does not have or a value of the wrong kind is exit 2,
  naming the line and the key.

The approved list (one of, or the configuration's list):
  --ids a,b,c           catalogue ids, comma-separated
  --ids-file FILE       ids separated by commas, spaces or lines (# comments), a JSON list, or a
                        saved list's JSON (GET /v1/lists/<id>)
  --list LIST           a saved list's id, slug or URL, checked by the API that holds it: --api,
                        the API of a …/v1/lists/<id> URL, or PUBLIC_API_URL

The catalogue it is checked against (the answer names its release):
  (neither option)      the snapshot the package holds (in a clone of the repository: dist/ when
                        fresh for the sources, else catalogue/data): no server, no network
  --catalogue DIR       a mirror (cloud-catalogue mirror <api-url> DIR) or a build folder
  --api URL             that deployment's API: the check is sent to its POST
                        /v1/deployments/check
  --api-timeout Ns      how long --api waits for the answer before exit 3 (default
                        ${API_TIMEOUT_SECONDS}s; 1 to 3600); the catalogue release is asked within 10 s

What is asked beside the list:
  --retiring-within Nd  a version the deployment names fails when its support has ended or
                        ends within N days (default 180d; 0 to ${LIFECYCLE_WITHIN_MAX_DAYS})
  --fail-on PHASE       the first phase of a version's life that fails: deprecated (the default:
                        any phase after standard support), extended (paid extended support or
                        worse) or end (the vendor refusing to create, update or run it); a
                        version already in it fails whatever the window
  --locations EU,CH,…   a resource going to a region outside these fails (region codes of any
                        provider, country codes, EU, EEA, multi-regions); one whose region the
                        input does not say is a warning

The deployment's inputs (parameters and variables are evaluated; their defaults apply otherwise):
  --var name=value      a Terraform variable's or a CloudFormation or ARM parameter's value, as
                        terraform plan -var takes it (a list or object in HCL); repeatable
  --var-file FILE       a .tfvars file (HCL or JSON), a CloudFormation parameters file
                        ([{"ParameterKey", "ParameterValue"}]) or an ARM parameters file;
                        repeatable, later values winning, --var last
  --region REGION       where the deployment is made when it does not say: a CloudFormation
                        stack's region, an ARM resource group's location, a Terraform provider
                        block without a region (the environment's AWS_REGION)

Output (the answer is the API's; every other output says each suppressed finding, with its reason):
  --format text|json|md the answer as the text host renders it (default text; colour on a
                        terminal unless NO_COLOR), the API's JSON, or Markdown; several roots:
                        each after its name (JSON: {"roots": [{"root", "answer"}]})
  --output FILE         the answer written to FILE instead of stdout
  --sarif FILE          SARIF 2.1.0 for code scanning, written on every exit: a result per
                        finding with partialFingerprints, accepted ones with their suppressions
                        (state accepted); expired suppressions and stale baseline entries as
                        notifications; on 2 and 3 no result and the reason as a notification
  --junit FILE          JUnit XML: a testsuite per root, a testcase per finding (failure,
                        skipped with the reason, or passing below the threshold)
  --gitlab FILE         GitLab's code-quality report (artifacts:reports:codequality)
  --markdown FILE       a pull request's comment: the outcome, the findings that count, the
                        accepted ones with their reasons
  --github-annotations  GitHub workflow commands on stdout, after the answer
                        (::error file=…,line=…::): an annotation per finding
  stderr                the catalogue release, each finding that counts, each accepted one
                        with its reason, then one line per root with the outcome and the counts

The gate:
  --fail-on-severity error|warning
                        the findings that fail the check: errors (default), or warnings too
  --strict              the same as --fail-on-severity warning
  --soft-fail           exit 0 where findings would fail the check (they are still reported);
                        exits 2 and 3 stay
  --baseline FILE       accepted findings: a JSON file {"suppressions": [{"rule", "item",
                        "resource", "file", "reason", "expires"}]}, rule and reason required,
                        expires a YYYY-MM-DD (the last day it applies). A finding (one per
                        resource instance) an entry in force accepts does not count (SARIF:
                        unchanged, suppressed with the reason); others are new. An expired
                        entry accepts nothing and is reported; an entry that accepts nothing
                        any more is reported by name (SARIF: a note)
  --new-only            with a baseline: report only the findings no suppression accepts, in
                        every output (a pull request's check)
  --write-baseline FILE write a baseline accepting every finding that counts (keeping the
                        entries of --baseline in use), then exit as checked against it
  --skip-rule RULE      suppress every finding of RULE, said as such (repeatable or a,b)
  --rule RULE           only RULE's findings count; the others are suppressed (repeatable)
  inline                # cloud-catalogue:ignore RULE[,RULE…] [expires=YYYY-MM-DD] reason in a
                        .tf file or YAML (// in JSON), in or just above the resource it accepts
  --debug               on a crash, the stack trace too
  --version             the package's version
  --help, -h            this text

Exit status:
  0  allowed: no finding that counts is at or above --fail-on-severity (or --soft-fail)
  1  not allowed: an error counts (a verdict denies something, the list lacks a service the
     deployment uses, a part was not read, a resource is outside --locations, a version is
     retiring), or, at --fail-on-severity warning, any finding
  2  no check: a usage error; a configuration, baseline or inline suppression that is not valid;
     an input that cannot be read or is refused by a bound; a template the check cannot read;
     unknown ids or an unknown region; a list not found; a file that cannot be written; a crash
  3  no answer: the API cannot be reached, answers 429 or 5xx, or gives no answer within
     --api-timeout; a retry may give a verdict
  Several roots: 1 when any root fails the gate.

Environment:
  PUBLIC_API_URL        the API a --list is checked by, when neither --api nor the list's URL
                        names one
  NO_COLOR              plain text even on a terminal

Examples:
  cloud-catalogue init infra/ --ids aws-lambda,aws-s3 --baseline
  cloud-catalogue check --sarif check.sarif --junit check.xml
  cloud-catalogue check template.yaml --ids aws-cloudformation,aws-s3 --sarif check.sarif
  cloud-catalogue check infra/ --ids-file approved.txt --baseline cloud-catalogue-baseline.json
  cloud-catalogue check infra/ --ids-file approved.txt --write-baseline cloud-catalogue-baseline.json
  cloud-catalogue check envs/prod --ids-file approved.txt --region eu-west-1
  cloud-catalogue check . --recursive --ids-file approved.txt --sarif check.sarif
  cloud-catalogue check plan.json --list https://catalogue.example.org/v1/lists/platform
`;
