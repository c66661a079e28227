/**
 * The cloud-catalogue package as its users get it (issues 111 and 122): `npm pack ./cli` (its
 * prepack builds it), the tarball installed with `npm install` into an empty folder, then `check` on
 * a template, a folder of .tf files and a plan with each Node here (20 and 24): the exit statuses,
 * answers and SARIF are the repository's CLI's; an eighth queue after a baseline of seven fails,
 * and every output is valid as its consumer reads it. Then docs/ci-check.md's first run in a new
 * repository, followed by its container, GitHub Actions and GitLab CI examples, run as written (the
 * release's address a local file; the image's build context read through .dockerignore, its
 * instructions run as a script). In the slow set (vitest.config.ts): it packs and installs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import dockerignore, { type Ignore } from "@balena/dockerignore";
import { codeQualityErrors, gfmHtmlOf, junitErrors, readWorkflowCommand, toolkitLine } from "../helpers/ci-formats.ts";
import { REPOSITORY_CLI, ROOT, runCli, type CliRun } from "../helpers/cli.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";
import { runWatched } from "../helpers/process-tree.ts";

const PACK_MS = 300_000;
/** A test that runs the repository's CLI (which reads its build or catalogue/data) or installs: a loaded machine's minutes. */
const RUN_MS = 120_000;
const work = mkdtempSync(join(tmpdir(), "csc-cli-package-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let tarball: string;
let installed: string;

/** Runs a shell script to its end, in `cwd`, with this environment added; its status and output. */
function sh(script: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync("bash", ["-euo", "pipefail", "-c", script], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", PUBLIC_API_URL: "", ...env },
    encoding: "utf8",
    timeout: PACK_MS,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const packed = sh(`npm pack ./cli --pack-destination ${JSON.stringify(work)}`, ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  tarball = join(
    work,
    readdirSync(work).find((name) => name.endsWith(".tgz"))!,
  );
  installed = join(work, "project");
  mkdirSync(installed);
  const install = sh(`npm install --prefer-offline --no-audit --no-fund ${JSON.stringify(tarball)}`, installed);
  expect(install.status, install.stderr).toBe(0);
}, PACK_MS);

/** Each Node here, by major version: the system's and the repository's pinned one. */
const NODES = [
  ...new Map(
    ["/usr/bin/node", join(ROOT, "node_modules", "node", "bin", "node"), process.execPath]
      .filter((path) => existsSync(path))
      .map((path) => [execFileSync(path, ["--version"], { encoding: "utf8" }).trim().split(".")[0]!, path]),
  ),
].sort(([a], [b]) => a.localeCompare(b));
const PACKAGE_DIR = () => join(installed, "node_modules", "@cloud-services-catalogue", "cli");

describe("the installed package", () => {
  it("is compiled JavaScript with no dependency, declaring the Node versions it runs on", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR(), "package.json"), "utf8")) as {
      bin: Record<string, string>;
      engines: { node: string };
      dependencies?: object;
    };
    expect(manifest.bin).toEqual({ "cloud-catalogue": "dist/bin/cloud-catalogue.js" });
    expect(manifest.engines.node).toBe(">=20");
    expect(manifest.dependencies).toBeUndefined();
    expect(readdirSync(join(installed, "node_modules")).sort()).toEqual([
      ".bin",
      ".package-lock.json",
      "@cloud-services-catalogue",
    ]);
    expect(readdirSync(join(PACKAGE_DIR(), "dist", "bin")).every((name) => name.endsWith(".js"))).toBe(true);
    if (!NODES.some(([major]) => major === "v20")) console.warn("cli-package: no Node 20 here; only", NODES);
  });
});

const TEMPLATE =
  'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n  Queue:\n    Type: AWS::SQS::Queue\n';
const PLAN = JSON.stringify(
  terraformPlan([
    ["aws_s3_bucket", "logs"],
    ["aws_sqs_queue", "jobs"],
    ["random_id", "suffix"],
  ]),
);
/** The inputs compared: a template, a folder of .tf files and a plan, each with a list that denies something. */
const INPUTS: { what: string; path: string; ids: string }[] = [
  { what: "a CloudFormation template", path: "template.yaml", ids: "aws-cloudformation,aws-s3" },
  { what: "a folder of .tf files", path: "infra", ids: "aws-lambda,aws-s3" },
  { what: "a Terraform plan", path: "plan.json", ids: "aws-s3" },
];
function repository(): string {
  const dir = mkdtempSync(join(work, "repository-"));
  writeFileSync(join(dir, "template.yaml"), TEMPLATE);
  writeFileSync(join(dir, "plan.json"), PLAN);
  cpSync(join(ROOT, "tests", "fixtures", "deployments", "terraform", "example-aws"), join(dir, "infra"), {
    recursive: true,
  });
  return dir;
}

/** A run's SARIF, valid, without what names where the catalogue came from (the package's snapshot, or a build). */
function sarifOf(dir: string, name: string) {
  const log = JSON.parse(readFileSync(join(dir, name), "utf8")) as { runs: { properties?: { catalogue?: object } }[] };
  expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
  const { from: _from, ...catalogue } = log.runs[0]!.properties!.catalogue as { from: string };
  log.runs[0]!.properties = { catalogue };
  return log;
}

describe.each(NODES)("the installed package on Node %s", (_major, node) => {
  it.each(INPUTS)(
    "checks $what as the repository's CLI does: exit status, answer and SARIF",
    async (input) => {
      const dir = repository();
      const args = (sarif: string) => ["check", input.path, "--ids", input.ids, "--format", "json", "--sarif", sarif];
      const bin = join(PACKAGE_DIR(), "dist", "bin", "cloud-catalogue.js");
      const packaged: CliRun = await runCli(bin, dir, args("packaged.sarif"), { node });
      const own: CliRun = await runCli(REPOSITORY_CLI, dir, args("repository.sarif"), { timeoutMs: 120_000 });
      expect(packaged.stderr).toContain("from the package's snapshot");
      expect(packaged.status, packaged.stderr).toBe(1);
      expect(own.status, own.stderr).toBe(1);
      expect(JSON.parse(packaged.stdout)).toEqual(JSON.parse(own.stdout));
      expect(sarifOf(dir, "packaged.sarif")).toEqual(sarifOf(dir, "repository.sarif"));
    },
    RUN_MS,
  );

  it(
    "runs as its bin, by the shebang, with that Node first on PATH",
    () => {
      const dir = repository();
      const bin = join(installed, "node_modules", ".bin", "cloud-catalogue");
      const result = sh(`"${bin}" check template.yaml --ids aws-cloudformation,aws-s3,aws-sqs`, dir, {
        PATH: `${join(node, "..")}:${process.env.PATH}`,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain("cloud-catalogue check: allowed (0 errors, 0 warnings)");
    },
    RUN_MS,
  );

  it(
    "fails on an eighth queue after a baseline of seven, and writes every output valid for its consumer",
    async () => {
      const dir = mkdtempSync(join(work, "queues-"));
      const queues = (count: number) =>
        JSON.stringify(
          terraformPlan(Array.from({ length: count }, (_, at) => ["aws_sqs_queue", `q${at}`] as [string, string])),
        );
      writeFileSync(join(dir, "plan.json"), queues(7));
      const bin = join(PACKAGE_DIR(), "dist", "bin", "cloud-catalogue.js");
      const check = (...args: string[]) =>
        runCli(bin, dir, ["check", "plan.json", "--ids", "aws-s3", ...args], { node });
      expect((await check("--write-baseline", "baseline.json")).status).toBe(0);
      writeFileSync(join(dir, "plan.json"), queues(8));
      const outputs = ["--sarif", "c.sarif", "--junit", "c.xml", "--gitlab", "c.json", "--markdown", "c.md"];
      const eighth = await check("--baseline", "baseline.json", "--github-annotations", ...outputs);
      expect(eighth.status).toBe(1);
      expect(eighth.stderr).toContain("not allowed (1 error, 0 warnings; 7 accepted by the baseline)");
      const read = (name: string) => readFileSync(join(dir, name), "utf8");
      const sarif = JSON.parse(read("c.sarif")) as {
        runs: { results: { baselineState: string; properties: { resource: string } }[] }[];
      };
      expect(validSarif(sarif), sarifAjv.errorsText(validSarif.errors)).toBe(true);
      expect(
        sarif.runs[0]!.results.filter((result) => result.baselineState === "new").map(
          (result) => result.properties.resource,
        ),
      ).toEqual(["aws_sqs_queue.q7"]);
      expect(await junitErrors(read("c.xml"))).toEqual([]);
      expect(codeQualityErrors(JSON.parse(read("c.json")))).toEqual([]);
      const annotations = eighth.stdout.split("\n").filter((line) => line.startsWith("::"));
      expect(annotations).toHaveLength(8);
      for (const line of annotations) expect(line).toBe(toolkitLine(readWorkflowCommand(line)!));
      expect(gfmHtmlOf(read("c.md"))).toContain("<table>");
    },
    RUN_MS,
  );
});

/**
 * A new repository as a team starts from: git's own folder and its Terraform configuration, nothing
 * of cloud-catalogue's. The first run (docs/ci-check.md "First run") then writes what the examples read.
 */
function newRepository(): string {
  const dir = mkdtempSync(join(work, "repository-"));
  cpSync(join(ROOT, "tests", "fixtures", "deployments", "terraform", "example-aws"), join(dir, "infra"), {
    recursive: true,
  });
  const git = sh(
    'git init --quiet --initial-branch=main . && git add -A && git commit --quiet -m "The orders service"',
    dir,
    GIT_IDENTITY,
  );
  expect(git.status, git.stderr).toBe(0);
  return dir;
}
/** Git's identity for the first run's commit, as a CI runner or a developer has one. */
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Platform Team",
  GIT_AUTHOR_EMAIL: "platform@example.org",
  GIT_COMMITTER_NAME: "Platform Team",
  GIT_COMMITTER_EMAIL: "platform@example.org",
};

/** The lines of the first ```sh block under a section of docs/ci-check.md. */
function docCommands(section: string): string[] {
  const doc = readFileSync(join(ROOT, "docs", "ci-check.md"), "utf8");
  const start = doc.indexOf(`\n## ${section}\n`);
  const block = /\n```sh\n([\s\S]*?)```\n/.exec(doc.slice(start));
  if (start < 0 || !block) throw new Error(`docs/ci-check.md has no sh block under ${section}`);
  return block[1]!.split("\n").filter((line) => line.trim() && !line.trim().startsWith("#"));
}

/** docs/ci-check.md's first run in a new repository, the package installed as its Install section does. */
function firstRun(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = newRepository();
  const env = { ...globalPrefix(), ...GIT_IDENTITY };
  const install = sh(`npm install --global --no-audit --no-fund ${JSON.stringify(tarball)}`, dir, env);
  expect(install.status, install.stderr).toBe(0);
  for (const line of docCommands("First run")) {
    const result = sh(line, dir, env);
    expect(result.status, `${line}\n${result.stderr}`).toBe(0);
  }
  expect(existsSync(join(dir, ".cloud-catalogue.yaml"))).toBe(true);
  expect(sh("git status --porcelain", dir).stdout).toBe("");
  return { dir, env };
}
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
/** A global npm prefix of the test's own, so `npm install --global` stays in it. */
const globalPrefix = () => {
  const prefix = mkdtempSync(join(work, "global-"));
  // As on a machine: npm installs into the prefix's lib/, which it expects to be there.
  mkdirSync(join(prefix, "lib"));
  return { npm_config_prefix: prefix, PATH: `${join(prefix, "bin")}:${process.env.PATH}` };
};

describe("the container image (cli/Dockerfile, .dockerignore)", () => {
  it("sends the tarball alone as the build context, as Docker reads .dockerignore", () => {
    // A CommonJS module whose export is the factory: its typings call it the default export.
    const rules = (dockerignore as unknown as () => Ignore)().add(readFileSync(join(ROOT, ".dockerignore"), "utf8"));
    const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    const sent = [
      ...tracked,
      "node_modules/node/bin/node",
      "dist/api/index.json",
      ".cache/builds/x",
      tarball.split("/").at(-1)!,
    ].filter((path) => !rules.ignores(path));
    expect(sent).toEqual([tarball.split("/").at(-1)]);
  });

  it(
    "installs the package and checks a mounted repository after its first run, as the doc's commands say",
    () => {
      const root = mkdtempSync(join(work, "image-"));
      const context = mkdtempSync(join(work, "context-"));
      cpSync(tarball, join(context, tarball.split("/").at(-1)!));
      // The image's own paths under `root`: /tmp, /usr/local (npm's global prefix in node images), /src.
      const rooted = (text: string) => text.replace(/(^|[\s"'=])\/(tmp|src|usr)\b/g, `$1${root}/$2`);
      const env = {
        npm_config_prefix: join(root, "usr", "local"),
        PATH: `${join(root, "usr", "local", "bin")}:${process.env.PATH}`,
      };
      mkdirSync(join(root, "tmp"), { recursive: true });
      mkdirSync(join(root, "usr", "local", "lib"), { recursive: true });
      let workdir = root;
      let entrypoint: string[] = [];
      const lines = readFileSync(join(ROOT, "cli", "Dockerfile"), "utf8")
        .split("\n")
        .filter((line) => line.trim() && !line.startsWith("#"));
      for (const line of lines) {
        const [instruction, ...rest] = line.split(" ");
        const argument = rest.join(" ");
        if (instruction === "FROM") expect(argument).toMatch(/^node:2\d/);
        else if (instruction === "COPY") {
          const [from, to] = rest as [string, string];
          const matches = readdirSync(context).filter((name) =>
            new RegExp(`^${from.replace(/\./g, "\\.").replace(/\*/g, ".*")}$`).test(name),
          );
          expect(matches).toHaveLength(1);
          cpSync(join(context, matches[0]!), rooted(to));
        } else if (instruction === "RUN") {
          const result = sh(rooted(argument), workdir, env);
          expect(result.status, `${line}\n${result.stderr}`).toBe(0);
        } else if (instruction === "WORKDIR") {
          workdir = rooted(argument);
          mkdirSync(workdir, { recursive: true });
        } else if (instruction === "ENTRYPOINT") entrypoint = JSON.parse(argument) as string[];
        else if (instruction !== "CMD") throw new Error(`the test does not run ${instruction}`);
      }
      const [build, run] = docCommands("Container image");
      expect(build).toBe("docker build -f cli/Dockerfile -t cloud-catalogue .");
      // docker run --rm -v "$PWD:/src" cloud-catalogue <args>: the repository mounted at the image's WORKDIR.
      const args = /^docker run --rm -v "\$PWD:\/src" cloud-catalogue (.*)$/.exec(run!)![1]!;
      expect(workdir).toBe(rooted("/src"));
      const { dir } = firstRun();
      cpSync(dir, workdir, { recursive: true });
      const command = `${entrypoint.map((word) => JSON.stringify(word)).join(" ")} ${args}`;
      const result = sh(command, workdir, env);
      expect(result.status, result.stderr).toBe(0);
      expect(sarifOf(workdir, "check.sarif").runs[0]).toBeDefined();
    },
    RUN_MS,
  );
});

/** The YAML block of a section of docs/ci-check.md. */
function docExample(section: string): unknown {
  const doc = readFileSync(join(ROOT, "docs", "ci-check.md"), "utf8");
  const start = doc.indexOf(`\n## ${section}\n`);
  const block = /\n```yaml\n([\s\S]*?)```\n/.exec(doc.slice(start));
  if (start < 0 || !block) throw new Error(`docs/ci-check.md has no yaml block under ${section}`);
  return parseYaml(block[1]!);
}

describe("the CI examples of docs/ci-check.md, run as written", () => {
  it(
    "GitHub Actions: installs the release checking its sha256, checks, and leaves the SARIF to upload",
    () => {
      const workflow = docExample("GitHub Actions") as {
        jobs: Record<
          string,
          { env: Record<string, string>; steps: { run?: string; uses?: string; with?: Record<string, string> }[] }
        >;
      };
      const job = Object.values(workflow.jobs)[0]!;
      expect(Object.keys(job.env)).toEqual(["CLOUD_CATALOGUE_TGZ", "CLOUD_CATALOGUE_SHA256"]);
      const { dir } = firstRun();
      const env = {
        ...globalPrefix(),
        RUNNER_TEMP: mkdtempSync(join(work, "runner-")),
        CLOUD_CATALOGUE_TGZ: `file://${tarball}`,
        CLOUD_CATALOGUE_SHA256: sha256(tarball),
      };
      let stdout = "";
      for (const step of job.steps.filter((entry) => entry.run)) {
        const result = sh(step.run!, dir, env);
        expect(result.status, `${step.run}\n${result.stderr}`).toBe(0);
        stdout += result.stdout;
      }
      const upload = job.steps.find((step) => step.uses?.startsWith("github/codeql-action/upload-sarif"))!;
      expect(sarifOf(dir, upload.with!.sarif_file!).runs).toHaveLength(1);
      // The baseline's findings, each a notice the runner reads as the toolkit writes it.
      const annotations = stdout.split("\n").filter((line) => line.startsWith("::"));
      expect(annotations.length).toBeGreaterThan(0);
      for (const line of annotations) expect(line).toBe(toolkitLine(readWorkflowCommand(line)!));
      expect(gfmHtmlOf(readFileSync(join(dir, "check-comment.md"), "utf8"))).toContain("<details>");
      // A tarball that is not the release's is refused before it is installed.
      const forged = sh(job.steps.find((step) => step.run?.includes("sha256sum"))!.run!, dir, {
        ...env,
        ...globalPrefix(),
        CLOUD_CATALOGUE_SHA256: "0".repeat(64),
      });
      expect(forged.status).not.toBe(0);
    },
    RUN_MS,
  );

  it(
    "GitLab CI: the same, its JUnit and code-quality reports valid, the SARIF and the Markdown answer kept",
    async () => {
      const pipeline = docExample("GitLab CI") as Record<
        string,
        {
          variables: Record<string, string>;
          script: string[];
          artifacts: { paths: string[]; reports: { junit: string; codequality: string } };
        }
      >;
      const job = Object.values(pipeline)[0]!;
      expect(Object.keys(job.variables)).toEqual(["CLOUD_CATALOGUE_TGZ", "CLOUD_CATALOGUE_SHA256"]);
      const { dir } = firstRun();
      const env = {
        ...globalPrefix(),
        CLOUD_CATALOGUE_TGZ: `file://${tarball}`,
        CLOUD_CATALOGUE_SHA256: sha256(tarball),
      };
      for (const line of job.script) {
        const result = sh(line, dir, env);
        expect(result.status, `${line}\n${result.stderr}`).toBe(0);
      }
      for (const path of job.artifacts.paths) expect(existsSync(join(dir, path)), path).toBe(true);
      expect(readFileSync(join(dir, "check.md"), "utf8")).toMatch(/^# Deployment check\n/);
      expect(await junitErrors(readFileSync(join(dir, job.artifacts.reports.junit), "utf8"))).toEqual([]);
      expect(codeQualityErrors(JSON.parse(readFileSync(join(dir, job.artifacts.reports.codequality), "utf8")))).toEqual(
        [],
      );
    },
    RUN_MS,
  );
});

describe("the installed package's evaluation budgets (issue 120)", () => {
  it.each(NODES)(
    "on Node %s, count = 1e8 ends with exit 2, the bound in the message and the SARIF, the CLI under 400 MB",
    async (_major, node) => {
      const dir = mkdtempSync(join(work, "costly-"));
      writeFileSync(join(dir, "main.tf"), 'resource "aws_s3_bucket" "big" {\n  count = 100000000\n}\n');
      const bin = join(PACKAGE_DIR(), "dist", "bin", "cloud-catalogue.js");
      const run = await runWatched([bin, "check", "main.tf", "--ids", "aws-s3", "--sarif", "bound.sarif"], {
        cwd: dir,
        node,
      });
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/count of 100,000,000 makes 100,000,000 instances.*at most 10,000 resource/);
      const log = JSON.parse(readFileSync(join(dir, "bound.sarif"), "utf8")) as {
        runs: { invocations: { toolExecutionNotifications: { message: { text: string } }[] }[] }[];
      };
      expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications[0]!.message.text).toMatch(
        /at most 10,000 resource/,
      );
      expect(run.seconds).toBeLessThanOrEqual(15);
      expect(run.peakMb).toBeLessThanOrEqual(400);
    },
    RUN_MS,
  );
});
