/** Debian's nginx in front of sidecar processes, with the configuration the deployment uses (scripts/deploy-config.ts). */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderNginxConfig } from "../../scripts/deploy-config.ts";
import { waitFor } from "./components.ts";
import { spawnServer, type ServerProcess } from "./process.ts";

export interface Nginx {
  /** Stops nginx and removes its prefix folder. */
  stop(): void;
}

/** Starts nginx serving `dist` on the two ports in front of the sidecars; resolves once `readyUrl` answers 2xx. */
export async function startNginx(options: {
  binary: string;
  dist: string;
  apiPort: number;
  textPort: number;
  /** Each sidecar's API and text base URLs (a ServerProcess, or apps listening in-process). */
  sidecars: readonly Pick<ServerProcess, "api" | "text">[];
  readyUrl: string;
}): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), "csc-nginx-"));
  for (const dir of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(prefix, dir));
  const config = renderNginxConfig({
    dist: options.dist,
    prefix,
    apiPort: options.apiPort,
    textPort: options.textPort,
    sidecars: options.sidecars.map((s) => ({
      host: "127.0.0.1",
      apiPort: Number(new URL(s.api).port),
      textPort: Number(new URL(s.text).port),
    })),
    ...(process.getuid?.() === 0 ? { user: "root" } : {}),
  });
  writeFileSync(join(prefix, "nginx.conf"), config);
  const nginx = spawn(options.binary, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  nginx.stderr.on("data", (chunk) => (stderr += chunk));
  const stop = () => {
    nginx.kill("SIGTERM");
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => (await fetch(options.readyUrl)).ok, 15_000, `nginx to start: ${stderr}`);
  } catch (error) {
    stop();
    throw error;
  }
  return { stop };
}

/**
 * The production topology: two sidecar processes started with `env`, each pushed onto `sidecars` as
 * it starts (so the suite's afterAll stops what started), then nginx in front of them.
 */
export async function startTwoSidecarsBehindNginx(
  options: Omit<Parameters<typeof startNginx>[0], "sidecars"> & {
    env: Record<string, string>;
    sidecars: ServerProcess[];
  },
): Promise<Nginx> {
  const { env, ...nginx } = options;
  for (let i = 0; i < 2; i++) options.sidecars.push(await spawnServer(env));
  return startNginx(nginx);
}

/** Stops nginx, then each sidecar. */
export async function stopSidecarsBehindNginx(nginx: Nginx | undefined, sidecars: readonly ServerProcess[]) {
  nginx?.stop();
  for (const sidecar of sidecars) await sidecar.kill();
}
