/**
 * `cloud-catalogue check --help`: every option, input, bound and exit status. docs/ci-check.md
 * holds the same text in its "Every option" block (tests/build/check-help.test.ts compares them);
 * an option added to options.ts is said here, or that test fails.
 */
import {
  bodyLimitText,
  LIFECYCLE_WITHIN_MAX_DAYS,
  MAX_TEMPLATE_BODY_BYTES,
  MAX_TF_FILES,
  TEMPLATE_READ_SECONDS,
} from "../../catalogue/base/limits.ts";

const LIMIT = bodyLimitText(MAX_TEMPLATE_BODY_BYTES);

export const CHECK_USAGE =
  "usage: cloud-catalogue check <template|plan file|folder of .tf files> (--ids a,b,c | --ids-file FILE | --list LIST) [options] (cloud-catalogue check --help)";

export const CHECK_HELP = `Usage: cloud-catalogue check <template|plan file|folder of .tf files>
         (--ids a,b,c | --ids-file FILE | --list LIST)
         [--catalogue DIR | --api URL] [--retiring-within 180d] [--fail-on deprecated]
         [--locations EU,CH,…] [--var name=value …] [--var-file FILE …] [--region eu-west-1]
         [--root DIR] [--recursive]
         [--format text|json|md] [--sarif FILE]
         [--baseline FILE [--new-only]] [--write-baseline FILE]
         [--fail-on-severity error|warning] [--strict] [--soft-fail] [--debug]

Checks a deployment against the approved services, as POST /v1/deployments/check does: the
services it uses, what the list lacks, and each vendor policy's verdict from the list.

What is checked (one path):
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

The repository:
  --root DIR            the repository's top (it must hold the path): local modules and nested
                        templates are read anywhere under it, never outside it
  --recursive           check every root module under the folder (a folder of .tf files no
                        other folder calls as a module), one verdict each: the answers under
                        each root's path (--format json: {"roots": {path: answer}}), one
                        SARIF log; exit with the worst root's status

The approved list (one of):
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

Output:
  --format text|json|md the answer as the text host renders it (default text; colour on a
                        terminal unless NO_COLOR), the API's JSON, or Markdown
  --sarif FILE          SARIF 2.1.0 for code scanning, written on every exit: on 2 and 3 with no
                        result and the reason as the tool's execution notification
  stderr                the catalogue release, each finding that counts, then one line with
                        the outcome and the counts

The gate:
  --fail-on-severity error|warning
                        the findings that fail the check: errors (default), or warnings too
  --strict              the same as --fail-on-severity warning
  --soft-fail           exit 0 where findings would fail the check (they are still reported);
                        exits 2 and 3 stay
  --baseline FILE       accepted findings: a JSON file {"suppressions": [{"rule", "item",
                        "resource", "file", "reason", "expires"}]}, rule and reason required,
                        expires a YYYY-MM-DD (the last day it applies). A finding whose every
                        resource an entry in force accepts does not count (SARIF: unchanged,
                        suppressed with the reason); others are new. An expired entry accepts
                        nothing and is reported; an entry that accepts nothing is reported
                        (SARIF: absent)
  --new-only            with --baseline: report only the new findings, in the output and the
                        SARIF (a pull request's check)
  --write-baseline FILE write a baseline accepting every finding that counts (keeping the
                        entries of --baseline in use), then exit as checked against it
  --debug               on a crash, the stack trace too
  --help, -h            this text

Exit status:
  0  allowed: no finding that counts is at or above --fail-on-severity (or --soft-fail)
  1  not allowed: an error counts (a verdict denies something, the list lacks a service the
     deployment uses, a part was not read, a resource is outside --locations, a version is
     retiring), or, at --fail-on-severity warning, any finding
  2  no check: a usage error; an input that cannot be read or is refused by a bound; a template
     the check cannot read; unknown ids or an unknown region; a list not found; a file that
     cannot be written; a crash; with --recursive, a root that could not be checked
  3  no answer: the API cannot be reached, or answers 429 or 5xx; a retry may give a verdict

Environment:
  PUBLIC_API_URL        the API a --list is checked by, when neither --api nor the list's URL
                        names one
  NO_COLOR              plain text even on a terminal

Examples:
  cloud-catalogue check template.yaml --ids aws-cloudformation,aws-s3 --sarif check.sarif
  cloud-catalogue check infra/ --ids-file approved.txt --baseline cloud-catalogue-baseline.json
  cloud-catalogue check infra/ --ids-file approved.txt --write-baseline cloud-catalogue-baseline.json
  cloud-catalogue check envs/prod --ids-file approved.txt --region eu-west-1
  cloud-catalogue check . --recursive --ids-file approved.txt --sarif check.sarif
  cloud-catalogue check plan.json --list https://catalogue.example.org/v1/lists/platform
`;
