import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../scripts/cli.ts", import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 30_000 });

// decisions.md#faces: `npm run mirror -- --help` printed one usage line and exited 2.
describe("cloud-catalogue --help", () => {
  it.each(["mirror --help", "--help", "-h", "help", "serve -h"])("%s prints the whole help and exits 0", (line) => {
    const result = run(...line.split(" "));
    expect(result.status).toBe(0);
    for (const part of ["mirror <api-url> <dir>", "serve <dir>", "TEXT_PORT", "Exit status", "Examples"])
      expect(result.stdout).toContain(part);
  });

  it("keeps a usage error a usage error: exit 2 with the usage line", () => {
    const result = run("mirror");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^usage: cloud-catalogue mirror/);
    // Not an http(s) URL is a usage error too (it exited 1, a failed mirror, before issue 111).
    const ftp = run("mirror", "ftp://x", "dir");
    expect(ftp.status).toBe(2);
    expect(ftp.stderr).toMatch(/^cloud-catalogue mirror: not an http\(s\) URL: ftp:\/\/x\nusage: /);
    expect(run("serve").status).toBe(2);
    expect(run("frobnicate").status).toBe(2);
  });
});
