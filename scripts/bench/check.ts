/**
 * `npm run bench:check`: how long `cloud-catalogue check` takes as a CI job runs it, from the
 * package's bundle (scripts/package/build.ts, built into .cache/bench-check/): a small CloudFormation
 * template, a generated 2 MB one, and a vendor's 3.2 MB ARM template (Bicep's output), each beside
 * `node -e ''` (Node's own start, which the machine's load slows as much) on each Node here. Each
 * figure is the median of BENCH_RUNS runs (5): wall time, CPU (user + system) and peak RSS, with
 * the load average before and after. Targets: a small template ≤ 1.5 s wall, 2 MB ≤ 5 s.
 * Writes the table to .cache/bench-check.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildPackage } from "../package/build.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const work = join(root, ".cache", "bench-check");

/** A CloudFormation template of about `bytes`: queues and buckets with tags, under the 2,000-resource limit. */
function generatedTemplate(bytes: number): string {
  const lines = ['AWSTemplateFormatVersion: "2010-09-09"', "Resources:"];
  let size = 0;
  for (let at = 0; size < bytes; at++) {
    const resource = [
      `  Queue${at}:`,
      "    Type: AWS::SQS::Queue",
      "    Properties:",
      `      QueueName: orders-${at}`,
      "      MessageRetentionPeriod: 345600",
      "      Tags:",
      ...Array.from(
        { length: 12 },
        (_, tag) => `        - { Key: team-${tag}, Value: "orders processing ${at} ${"x".repeat(40)}" }`,
      ),
    ];
    lines.push(...resource);
    size += resource.join("\n").length + 1;
  }
  return `${lines.join("\n")}\n`;
}

interface Figure {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssMb: number;
  readonly status: number | null;
}

/** One run under /usr/bin/time: wall, CPU and peak RSS. */
function measure(node: string, args: readonly string[], cwd: string): Figure {
  const started = performance.now();
  const result = spawnSync("/usr/bin/time", ["-f", "%U %S %M", node, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const wallMs = performance.now() - started;
  const [user, system, rss] = result.stderr.trim().split("\n").at(-1)!.split(" ").map(Number) as [
    number,
    number,
    number,
  ];
  return { wallMs, cpuMs: (user + system) * 1000, rssMb: rss / 1024, status: result.status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function bench(node: string, args: readonly string[], cwd: string, status: number): Figure {
  const figures = Array.from({ length: RUNS }, () => measure(node, args, cwd));
  for (const figure of figures)
    if (figure.status !== status) throw new Error(`bench: ${args.join(" ")} exited ${figure.status}, not ${status}`);
  return {
    wallMs: median(figures.map((figure) => figure.wallMs)),
    cpuMs: median(figures.map((figure) => figure.cpuMs)),
    rssMb: median(figures.map((figure) => figure.rssMb)),
    status,
  };
}

mkdirSync(work, { recursive: true });
const out = await buildPackage({ out: join(work, "package"), log: (line) => console.error(line) });
const bin = join(out, "bin", "cloud-catalogue.js");
const small = 'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n';
writeFileSync(join(work, "small.yaml"), small);
writeFileSync(join(work, "generated-2mb.yaml"), generatedTemplate(2 * 1024 * 1024));
writeFileSync(
  join(work, "vendor-3mb.json"),
  gunzipSync(readFileSync(join(root, "tests/fixtures/templates/azure/chat-with-your-data-main.json.gz"))),
);
const CASES = [
  { name: "`node -e ''`", args: ["-e", ""], status: 0, target: "" },
  {
    name: "small template (4 lines)",
    args: [bin, "check", "small.yaml", "--ids", "aws-cloudformation,aws-s3", "--sarif", "small.sarif"],
    status: 0,
    target: "≤ 1.5 s",
  },
  {
    name: "2 MB template (generated CloudFormation)",
    args: [bin, "check", "generated-2mb.yaml", "--ids", "aws-cloudformation,aws-sqs", "--sarif", "2mb.sarif"],
    status: 0,
    target: "≤ 5 s",
  },
  {
    name: "3.2 MB ARM template (vendor sample)",
    args: [bin, "check", "vendor-3mb.json", "--ids", "azure-app-service", "--sarif", "3mb.sarif"],
    status: 1,
    target: "",
  },
];

const nodes = [
  ...new Map(
    ["/usr/bin/node", join(root, "node_modules", "node", "bin", "node")]
      .filter((path) => existsSync(path))
      .map((path) => [execFileSync(path, ["--version"], { encoding: "utf8" }).trim(), path]),
  ),
];
const before = loadavg()[0]!.toFixed(1);
const rows: string[] = [];
for (const [version, node] of nodes)
  for (const { name, args, status, target } of CASES) {
    const figure = bench(node, args, work, status);
    rows.push(
      `| ${version} | ${name} | ${(figure.wallMs / 1000).toFixed(2)} | ${(figure.cpuMs / 1000).toFixed(2)} | ${figure.rssMb.toFixed(0)} | ${target} |`,
    );
    console.error(rows.at(-1));
  }
const table = [
  `Load average ${before} before, ${loadavg()[0]!.toFixed(1)} after; median of ${RUNS} runs each.`,
  "",
  "| Node | check | wall (s) | CPU (s) | RSS (MiB) | target |",
  "| ---- | ----- | -------: | ------: | --------: | ------ |",
  ...rows,
].join("\n");
writeFileSync(join(root, ".cache", "bench-check.md"), `${table}\n`);
console.log(table);
