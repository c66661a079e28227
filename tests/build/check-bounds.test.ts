/**
 * `cloud-catalogue check` reads what it is given as the API bounds a request (issue 111,
 * scripts/check/inputs.ts): regular files only (a link, fifo or device refused by its type, before it
 * is opened for reading), each at most 4 MiB (refused by its size before a byte is read), at most 200
 * .tf files in a folder and 4 MiB together, every read within the reading budget. Each refusal is
 * exit 2 naming the file and the bound, with the SARIF saying it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_TEMPLATE_BODY_BYTES, MAX_TF_FILES } from "../../catalogue/base/limits.ts";
import { CheckUsageError } from "../../scripts/check/errors.ts";
import { readInputFile, readTerraformFolder, withinReadTime } from "../../scripts/check/inputs.ts";
import { folderWith, packagedCli, runCli } from "../helpers/cli.ts";

/** A test runs the bin a few times, each a fraction of a CPU-second; on a loaded machine, seconds each. */
const RUN_MS = 60_000;
let bin: string;
beforeAll(async () => {
  bin = await packagedCli();
}, 120_000);

/** A refused run: exit 2 at once (a fifo never blocks it), its reason on stderr and in the SARIF. */
async function refused(cwd: string, ...args: string[]): Promise<string> {
  const result = await runCli(bin, cwd, ["check", ...args, "--sarif", "bound.sarif"], { timeoutMs: 30_000 });
  expect(result.signal, "the run ended by itself").toBeNull();
  expect(result.status, args.join(" ")).toBe(2);
  expect(result.stdout).toBe("");
  const log = JSON.parse(readFileSync(join(cwd, "bound.sarif"), "utf8")) as {
    runs: { invocations: { toolExecutionNotifications: { message: { text: string } }[] }[] }[];
  };
  const reason = result.stderr.trim().replace(/^cloud-catalogue check: /, "");
  expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications[0]!.message.text).toBe(reason);
  return reason;
}

const TF = 'resource "aws_s3_bucket" "logs" {}\n';

describe("what check reads: regular files only", { timeout: RUN_MS }, () => {
  it("refuses a symbolic link, named or in a folder, rather than following it", async () => {
    const dir = folderWith({ "real.tf": TF });
    symlinkSync(join(dir, "real.tf"), join(dir, "link.tf"));
    expect(await refused(dir, "link.tf", "--ids", "aws-s3")).toBe(
      "the template link.tf is a symbolic link: the check reads regular files only, as the API takes a file's text; name the file itself",
    );
    expect(await refused(dir, ".", "--ids", "aws-s3")).toMatch(/^the file link\.tf is a symbolic link: /);
  });

  it("refuses a fifo, named or in a folder, without waiting on it", async () => {
    const dir = folderWith({ "main.tf": TF });
    execFileSync("mkfifo", [join(dir, "pipe.tf")]);
    expect(await refused(dir, "pipe.tf", "--ids", "aws-s3")).toMatch(
      /^the template pipe\.tf is a named pipe \(fifo\): /,
    );
    expect(await refused(dir, ".", "--ids", "aws-s3")).toMatch(/^the file pipe\.tf is a named pipe \(fifo\): /);
    execFileSync("mkfifo", [join(dir, "ids.txt")]);
    expect(await refused(dir, "main.tf", "--ids-file", "ids.txt")).toMatch(/^the ids file ids\.txt is a named pipe/);
  });

  it("refuses a device such as /dev/zero", async () => {
    expect(await refused(folderWith({}), "/dev/zero", "--ids", "aws-s3")).toMatch(
      /^the template \/dev\/zero is a character device: /,
    );
  });
});

describe("what check reads: the API's sizes", { timeout: RUN_MS }, () => {
  it("refuses a 1 GB sparse .tf by its size, named or in a folder, reading none of it", async () => {
    const dir = folderWith({ "main.tf": TF });
    execFileSync("truncate", ["-s", "1G", join(dir, "huge.tf")]);
    expect(await refused(dir, "huge.tf", "--ids", "aws-s3")).toBe(
      "the template huge.tf is 1024.0 MiB, over the 4 MiB the check reads (the API's limit); it was not read",
    );
    expect(await refused(dir, ".", "--ids", "aws-s3")).toBe(
      "the 2 .tf files of the folder . hold 1024.0 MiB together, over the 4 MiB the check reads (the API's body limit); none was read",
    );
  });

  it(`refuses a folder of more than ${MAX_TF_FILES} .tf files, and one whose files hold more than 4 MiB together`, async () => {
    const many = folderWith(Object.fromEntries(Array.from({ length: MAX_TF_FILES + 1 }, (_, at) => [`f${at}.tf`, TF])));
    expect(await refused(many, ".", "--ids", "aws-s3")).toBe(
      `the folder . holds ${MAX_TF_FILES + 1} .tf files; the check reads at most ${MAX_TF_FILES} (the API's limit for one module)`,
    );
    const third = `# ${"x".repeat(MAX_TEMPLATE_BODY_BYTES / 3)}\n`;
    const heavy = folderWith({ "a.tf": third, "b.tf": third, "c.tf": third, "d.tf": TF });
    expect(await refused(heavy, ".", "--ids", "aws-s3")).toMatch(
      /^the 4 \.tf files of the folder \. hold 4\.0 MiB together, over the 4 MiB/,
    );
  });

  it("reads a file of exactly 4 MiB and refuses one byte more, and a folder holding 4 MiB exactly", async () => {
    const exact = "#".repeat(MAX_TEMPLATE_BODY_BYTES - 1) + "\n";
    const dir = folderWith({ "exact.tf": exact, "over.tf": `${exact}\n` });
    expect(await readInputFile(join(dir, "exact.tf"), "template")).toHaveLength(MAX_TEMPLATE_BODY_BYTES);
    await expect(readInputFile(join(dir, "over.tf"), "template")).rejects.toThrow(
      /over\.tf is 4\.0 MiB, over the 4 MiB the check reads/,
    );
    mkdirSync(join(dir, "module"));
    writeFileSync(join(dir, "module", "main.tf"), exact);
    expect(Object.keys(await readTerraformFolder(join(dir, "module")))).toEqual(["main.tf"]);
  });
});

describe("what check reads: the reading budget", () => {
  it("refuses a read that does not end within the budget, and passes on one that does", async () => {
    const never = new Promise<string>(() => undefined);
    const stalled = withinReadTime("template on a stalled mount", () => never, 0.05);
    await expect(stalled).rejects.toThrow(CheckUsageError);
    await expect(stalled).rejects.toThrow(
      "reading the template on a stalled mount took more than 0.05 s (the API's reading budget)",
    );
    await expect(withinReadTime("template", () => Promise.resolve("text"), 0.05)).resolves.toBe("text");
  });
});
