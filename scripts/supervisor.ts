/**
 * What `npm start` runs first (scripts/start.ts): a small process that starts the server
 * (scripts/start-server.ts) as its child and starts it again when it dies, on the same ports and
 * environment, so that nothing a request does (issue 120: a costly template aborted the whole
 * server, and nothing restarted it) takes the service down for longer than a start.
 *
 * - The server says when it serves, and when it stops on purpose (a failed build, a build cache it
 *   cannot write), over the IPC channel it is started with (`tellSupervisor`). A first start that
 *   ends before it serves is an operator's matter (a port or DATA_DIR in use): the supervisor exits
 *   with its code, its one line already said. A server that served and then died (a signal, a
 *   crash's exit code) is started again after RESTART_DELAYS_MS; one that ends with code 0 or
 *   says "stopping" is not.
 * - A restart that fails before it serves is tried again, the delay growing to 10 s, and given up
 *   after MAX_FAILED_RESTARTS in a row; a server that served starts the count again.
 * - SIGINT and SIGTERM are passed on to the server once (it runs in a process group of its own, so
 *   a terminal's Ctrl-C reaches it only so), and the supervisor exits when it has closed. A
 *   supervisor killed outright leaves no server behind: the server stops when its IPC channel closes.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** What the server tells its supervisor. */
export type ToSupervisor = { readonly kind: "serving"; readonly pid: number } | { readonly kind: "stopping" };

/** Tells the supervisor, when there is one (the server was started with an IPC channel). */
export function tellSupervisor(message: ToSupervisor): void {
  if (process.send && process.connected) process.send(message);
}

/** Waits before each restart in a row (the last repeated). */
export const RESTART_DELAYS_MS = [500, 1000, 2000, 5000, 10_000] as const;
/** Restarts in a row that never served before the supervisor gives up. */
export const MAX_FAILED_RESTARTS = 10;

export interface SupervisorOptions {
  /** The server's script and node's arguments for it. */
  readonly script: string;
  readonly execArgv?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Where its lines go (stderr). */
  readonly log?: (line: string) => void;
}

/** Why a server ended: its exit code or its signal. */
const endedBy = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `signal ${signal}` : `exit code ${code ?? "unknown"}`;

/**
 * Runs the server until it stops on purpose or the supervisor is told to stop; resolves with the
 * exit code the supervisor should end with.
 */
export function supervise({
  script,
  execArgv = process.execArgv,
  env = process.env,
  log = (line) => console.error(line),
}: SupervisorOptions): Promise<number> {
  return new Promise((resolve) => {
    let child: ChildProcess | undefined;
    let stopping = false;
    let restarts = 0;
    let failedInARow = 0;
    let retry: NodeJS.Timeout | undefined;

    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      clearTimeout(retry);
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve(0);
      child.kill(signal);
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));

    const start = () => {
      const started = Date.now();
      let servedAt: number | undefined;
      let onPurpose = false;
      const server = spawn(process.execPath, [...execArgv, script], {
        env,
        stdio: ["inherit", "inherit", "inherit", "ipc"],
        detached: true,
      });
      child = server;
      server.on("message", (message: ToSupervisor) => {
        if (message.kind === "serving") {
          servedAt = Date.now();
          if (restarts > 0) log(`start: the server is serving again (process ${message.pid})`);
        }
        if (message.kind === "stopping") onPurpose = true;
      });
      server.once("error", (error) => log(`start: cannot start the server: ${error.message}`));
      server.once("exit", (code, signal) => {
        child = undefined;
        if (stopping) return resolve(code ?? 0);
        // Ended on purpose, or before it ever served on its first start: its own line said why.
        if (onPurpose || code === 0 || (servedAt === undefined && restarts === 0)) return resolve(code ?? 1);
        failedInARow = servedAt === undefined ? failedInARow + 1 : 0;
        if (failedInARow >= MAX_FAILED_RESTARTS) {
          log(`start: the server did not come back after ${failedInARow} restarts in a row; stopping`);
          return resolve(1);
        }
        const delay = RESTART_DELAYS_MS[Math.min(failedInARow, RESTART_DELAYS_MS.length - 1)];
        const lived = Math.round((Date.now() - started) / 1000);
        log(
          `start: the server ended (${endedBy(code, signal)}) after ${lived} s; starting it again in ${delay} ms (restart ${restarts + 1})`,
        );
        restarts++;
        retry = setTimeout(start, delay);
      });
    };
    start();
  });
}
