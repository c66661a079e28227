/**
 * The gate's configuration and first step (issue 122, docs/ci-check.md "Configuration" and "First
 * run"): `.cloud-catalogue.yaml` found from the working folder up to the repository's top, read
 * strictly (exit 2 naming the line and key), under the options given; rules skipped or selected,
 * each suppressed finding said with its reason; several roots, a verdict each; `cloud-catalogue
 * init` writing the configuration and the baseline; `--version`; `--api-timeout`.
 */
import { createServer, type Socket } from "node:net";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { readConfig } from "../../scripts/check/config.ts";
import { API_TIMEOUT_SECONDS, parseCheckArgs, type CheckRequest } from "../../scripts/check/options.ts";
import { folderWith, packagedCli, ROOT, runCli } from "../helpers/cli.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan } from "../helpers/terraform-plan.ts";

const RUN_MS = 60_000;
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 120_000);
const cli = (cwd: string, ...args: string[]) => runCli(bin, cwd, args);
const check = (cwd: string, ...args: string[]) => cli(cwd, "check", ...args);

const plan = (...resources: [string, string][]) => JSON.stringify(terraformPlan(resources));
/** A queue the list denies (an error) and a random_id no service holds (a warning). */
const PLAN = plan(["aws_s3_bucket", "logs"], ["aws_sqs_queue", "jobs"], ["random_id", "suffix"]);
/** A repository: `.git`, the configuration at its top, and the plan in a folder below. */
const repository = (config: string, files: Record<string, string> = {}) =>
  folderWith({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".cloud-catalogue.yaml": config,
    "infra/plan.json": PLAN,
    ...files,
  });

describe("the configuration read", () => {
  it("is strict: an unknown key named with the nearest one, a rule the check does not have, each with its line", async () => {
    const dir = folderWith({
      "a.yaml": "list:\n  ids: [aws-s3]\nskip-rule: [unplaced]\n",
      "b.yaml": "list:\n  ids: [aws-s3]\nskip-rules:\n  - unplaced\n  - unplace\n",
      "c.yaml": "list: [aws-s3\n",
      "d.yaml": "list:\n  ids: [aws-s3]\n  file: approved.txt\n",
    });
    await expect(readConfig(join(dir, "a.yaml"))).rejects.toThrow(
      /a\.yaml is not valid: line 3: \(file\): unknown key "skip-rule" \(did you mean "skip-rules"\?\)/,
    );
    await expect(readConfig(join(dir, "b.yaml"))).rejects.toThrow(
      /line 5: skip-rules\.1: not a rule of the check .*: unplace/,
    );
    await expect(readConfig(join(dir, "c.yaml"))).rejects.toThrow(/c\.yaml is not valid YAML: line \d+: /);
    await expect(readConfig(join(dir, "d.yaml"))).rejects.toThrow(/the approved list is one of/);
  });

  it("gives what the options do not, its paths from its own folder, options winning", async () => {
    const dir = folderWith({
      "sub/.cloud-catalogue.yaml":
        "list: {file: approved.txt}\nroots: [infra]\nseverity: warning\nbaseline: b.json\nskip-rules: [unplaced]\napi-timeout: 30s\n",
    });
    const cwd = process.cwd();
    process.chdir(dir);
    onTestFinished(() => process.chdir(cwd));
    const config = await readConfig(join("sub", ".cloud-catalogue.yaml"));
    const request = parseCheckArgs([], config) as CheckRequest;
    expect(request).toMatchObject({
      roots: ["sub/infra"],
      approved: { idsFile: "sub/approved.txt" },
      failOn: "warning",
      baseline: "sub/b.json",
      rules: { skipped: ["unplaced"], skippedBy: "sub/.cloud-catalogue.yaml" },
      apiTimeoutSeconds: 30,
    });
    const given = parseCheckArgs(
      ["plan.json", "--ids", "aws-s3", "--fail-on-severity", "error", "--skip-rule", "not-evaluated"],
      config,
    ) as CheckRequest;
    expect(given).toMatchObject({
      roots: ["plan.json"],
      approved: { ids: ["aws-s3"] },
      failOn: "error",
      rules: { skipped: ["not-evaluated"], skippedBy: "--skip-rule" },
    });
    expect((parseCheckArgs(["x", "--ids", "a"]) as CheckRequest).apiTimeoutSeconds).toBe(API_TIMEOUT_SECONDS);
  });
});

describe("cloud-catalogue check with a configuration", { timeout: RUN_MS }, () => {
  it("finds it from a folder below the repository's top, and not above the top", async () => {
    const dir = repository("list:\n  ids: [aws-s3, aws-sqs]\nroots: [infra/plan.json]\n", { "infra/deep/.keep": "" });
    const below = await check(join(dir, "infra", "deep"));
    expect(below.stderr).toContain("read the configuration ../../.cloud-catalogue.yaml");
    expect(below.status, below.stderr).toBe(0);
    // A configuration above the repository's top belongs to another project: not read.
    const outer = folderWith({
      ".cloud-catalogue.yaml": "list:\n  ids: [aws-s3]\n",
      "repo/.git/HEAD": "x",
      "repo/plan.json": PLAN,
    });
    const inside = await check(join(outer, "repo"), "plan.json");
    expect(inside.status).toBe(2);
    expect(inside.stderr).toContain("give the approved list");
    expect((await check(join(outer, "repo"), "plan.json", "--config", "../.cloud-catalogue.yaml")).status).toBe(1);
    expect((await check(dir, "--no-config", "infra/plan.json", "--ids", "aws-s3")).stderr).not.toContain(
      "configuration",
    );
  });

  it("refuses a configuration that is not valid with exit 2, writing the SARIF with the reason", async () => {
    const dir = repository("list:\n  ids: [aws-s3]\nfail_on: extended\n");
    const result = await check(dir, "infra/plan.json", "--sarif", "check.sarif");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('line 3: (file): unknown key "fail_on" (did you mean "fail-on"?)');
    const sarif = JSON.parse(readFileSync(join(dir, "check.sarif"), "utf8")) as object;
    expect(validSarif(sarif), sarifAjv.errorsText(validSarif.errors)).toBe(true);
  });

  it("skips and selects rules: each suppressed finding said with its reason, the exit from what counts", async () => {
    const dir = repository("list:\n  ids: [aws-s3]\nroots: [infra/plan.json]\nskip-rules: [denied-action]\n");
    const skipped = await check(dir, "--sarif", "check.sarif");
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(skipped.stderr).toMatch(
      /denied-action: aws_sqs_queue\.jobs .*\[accepted: the rule is skipped \(\.cloud-catalogue\.yaml\)\]/,
    );
    const results = (
      JSON.parse(readFileSync(join(dir, "check.sarif"), "utf8")) as {
        runs: {
          results: { ruleId: string; suppressions?: { kind: string; state: string; justification: string }[] }[];
        }[];
      }
    ).runs[0]!.results;
    expect(results.find((result) => result.ruleId === "denied-action")!.suppressions).toEqual([
      {
        kind: "external",
        state: "accepted",
        justification: "the rule is skipped [.cloud-catalogue.yaml]",
      },
    ]);
    // An option wins over the file: only unplaced counts, at warning, which fails at --strict.
    const selected = await check(dir, "--rule", "unplaced", "--strict");
    expect(selected.status).toBe(1);
    expect(selected.stderr).toContain(
      "not allowed: --fail-on-severity warning fails on the warnings (0 errors, 1 warning; 1 suppressed)",
    );
    expect((await check(dir, "--rule", "denied-actoin")).stderr).toContain("--rule takes the check's rules");
  });

  it("checks each root on its own, a verdict each, and fails when one root fails", async () => {
    const dir = repository("list:\n  ids: [aws-s3]\nroots: [infra/plan.json, ok/plan.json]\n", {
      "ok/plan.json": plan(["aws_s3_bucket", "only"]),
    });
    const result = await check(dir, "--format", "json", "--sarif", "check.sarif");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("cloud-catalogue check: infra/plan.json: not allowed (1 error, 1 warning)");
    expect(result.stderr).toContain("cloud-catalogue check: ok/plan.json: allowed (0 errors, 0 warnings)");
    const answers = JSON.parse(result.stdout) as { roots: { root: string }[] };
    expect(answers.roots.map((entry) => entry.root)).toEqual(["infra/plan.json", "ok/plan.json"]);
    const sarif = JSON.parse(readFileSync(join(dir, "check.sarif"), "utf8")) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    expect(validSarif(sarif), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    expect(
      new Set(sarif.runs[0]!.results.map((entry) => entry.locations[0]!.physicalLocation.artifactLocation.uri)),
    ).toEqual(new Set(["infra/plan.json"]));
  });
});

describe("cloud-catalogue init", { timeout: RUN_MS }, () => {
  it("writes the configuration and the baseline: the next check passes, and a new resource fails it", async () => {
    const dir = folderWith({ ".git/HEAD": "x", "infra/plan.json": PLAN });
    const init = await cli(join(dir, "infra"), "init", "plan.json", "--ids", "aws-s3", "--baseline");
    expect(init.status, init.stderr).toBe(0);
    expect(init.stderr).toContain("wrote 2 entries to the baseline cloud-catalogue-baseline.json");
    // Named as CI names them, from the repository's top, wherever init ran.
    expect(readFileSync(join(dir, "cloud-catalogue-baseline.json"), "utf8")).toContain('"file": "infra/plan.json"');
    expect(init.stderr).toContain(
      "cloud-catalogue init: wrote .cloud-catalogue.yaml and cloud-catalogue-baseline.json",
    );
    expect(readFileSync(join(dir, ".cloud-catalogue.yaml"), "utf8")).toMatch(
      /\nlist:\n {2}ids:\n {4}- aws-s3\nroots:\n {2}- infra\/plan\.json\nbaseline: cloud-catalogue-baseline\.json\n$/,
    );
    const first = await check(dir);
    expect(first.status, first.stderr).toBe(0);
    writeFileSync(
      join(dir, "infra", "plan.json"),
      plan(["aws_s3_bucket", "logs"], ["aws_sqs_queue", "jobs"], ["random_id", "suffix"], ["aws_sqs_queue", "more"]),
    );
    const grown = await check(dir);
    expect(grown.status).toBe(1);
    expect(grown.stderr).toContain("not allowed (1 error, 0 warnings; 2 accepted by the baseline)");
    const again = await cli(dir, "init", "infra/plan.json", "--ids", "aws-s3");
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(".cloud-catalogue.yaml exists already; --force overwrites it");
    expect((await cli(dir, "init", "infra/plan.json", "--ids", "aws-s3", "--force")).status).toBe(0);
    expect((await cli(dir, "init", "missing", "--ids", "aws-s3", "--force")).stderr).toContain(
      "missing does not exist",
    );
  });
});

describe("--version and --api-timeout", { timeout: RUN_MS }, () => {
  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "cli", "package.json"), "utf8")) as { version: string };
    for (const args of [["--version"], ["check", "--version"]]) {
      const result = await cli(folderWith({}), ...args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toBe(`cloud-catalogue ${version}\n`);
    }
  });

  it("gives up on an API that never answers after --api-timeout, exit 3 with the reason", async () => {
    const sockets: Socket[] = [];
    // Accepts the connection and never answers: what a hung proxy does.
    const server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
      server.close();
    });
    const { port } = server.address() as { port: number };
    const dir = folderWith({ "plan.json": PLAN });
    mkdirSync(join(dir, "out"));
    const result = await check(
      dir,
      "plan.json",
      "--ids",
      "aws-s3",
      "--api",
      `http://127.0.0.1:${port}`,
      "--api-timeout",
      "2s",
      "--sarif",
      "out/check.sarif",
    );
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(
      `http://127.0.0.1:${port}/v1/deployments/check gave no answer within 2 s (--api-timeout)`,
    );
    expect((await check(dir, "plan.json", "--ids", "aws-s3", "--api-timeout", "0s")).stderr).toContain(
      "--api-timeout is a number of seconds from 1 to 3600",
    );
  });
});
