/**
 * Issue 120: in the scale-out deployment (deploy/README.md) a sidecar that died stayed down, and
 * nginx answered 503 for it. Each sidecar runs under systemd (deploy/catalogue-sidecar.service),
 * restarted whenever it dies. The unit is verified by systemd's own checker, with its paths pointed
 * at this checkout, and runs node as `npm start` does (package.json's flags and allocator settings).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { requireComponent } from "../helpers/components.ts";
import { START_ENV } from "../helpers/process.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const UNIT = readFileSync(new URL("../../deploy/catalogue-sidecar.service", import.meta.url), "utf8");
const START = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts
  .start;

/** A key's values in the unit (a key may be given more than once). */
const values = (key: string) => [...UNIT.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((match) => match[1]!);

describe("the sidecar's systemd unit", () => {
  it("restarts the sidecar whenever it ends, and never stops trying", () => {
    expect(values("Restart")).toEqual(["always"]);
    expect(Number(values("RestartSec")[0])).toBeLessThanOrEqual(5);
    expect(values("StartLimitIntervalSec")).toEqual(["0"]);
    // The readers are child processes of the server: a stop or restart ends them too.
    expect(values("KillMode")).toEqual(["control-group"]);
  });

  it("runs the server with npm start's node flags and allocator settings", () => {
    const [execStart] = values("ExecStart");
    const flags = START.split(/\s+/).filter((word) => word.startsWith("--"));
    expect(execStart).toBe(`/srv/catalogue/node_modules/.bin/node ${flags.join(" ")} sidecar/server.ts`);
    const environment = Object.fromEntries(
      values("Environment")
        .flatMap((line) => line.split(/\s+/))
        .map((pair) => pair.split("=") as [string, string]),
    );
    expect(environment).toEqual(START_ENV);
  });

  const analyze = requireComponent("systemd-analyze");
  it.skipIf(!analyze)("passes systemd-analyze verify, pointed at this checkout", () => {
    const dir = mkdtempSync(join(tmpdir(), "csc-unit-"));
    try {
      const env = join(dir, "sidecar.env");
      writeFileSync(env, "PORT=8080\n");
      const unit = join(dir, "catalogue-sidecar.service");
      writeFileSync(
        unit,
        UNIT.replaceAll("/srv/catalogue", ROOT)
          .replace("/etc/catalogue/sidecar.env", env)
          .replace("User=catalogue", `User=${userInfo().username}`),
      );
      const result = spawnSync(analyze!, ["verify", "--man=no", unit], { encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr.trim(), result.stderr).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
