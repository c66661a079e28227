/**
 * `cloud-catalogue check` reads and evaluates its input as the sidecar does, under the same budgets:
 * the evaluator's own (TEMPLATE_BUDGETS, checked before anything is made), then, for what would
 * still escape them, a child process (./read-child.ts) with the reading thread's heap
 * (TEMPLATE_READ_HEAP_MB) and time (TEMPLATE_READ_SECONDS). A child process rather than a worker
 * thread: a thread's resourceLimits are best-effort, and one large allocation past them aborts the
 * whole process (nodejs/node#47224); a child's heap limit ends the child alone. The CLI then exits 2
 * with the bound it passed, in its message and its SARIF.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { TEMPLATE_READ_HEAP_MB, TEMPLATE_READ_SECONDS } from "../../catalogue/base/limits.ts";
import type { Deployment, DeploymentInputs } from "../../catalogue/templates/read.ts";
import { PACKAGED } from "../package/packaged.ts";
import type { CheckInput } from "./api.ts";
import { CheckUsageError } from "./errors.ts";
import type { ReadChildAnswer, ReadChildRequest } from "./read-child.ts";

/** The child's entry: the package's bundled one, or the repository's source. */
const childEntry = (): string =>
  fileURLToPath(
    PACKAGED ? new URL("../../bin/read-deployment.js", import.meta.url) : new URL("./read-child.ts", import.meta.url),
  );

/** The V8 flags that give the child the reading thread's heap (sidecar/threads/reader.ts's resourceLimits). */
const childFlags = (heapMb: number) => [`--max-old-space-size=${heapMb}`, "--max-semi-space-size=1"];

const cannot = (reason: string) => new CheckUsageError(`the template cannot be checked: ${reason}`);

/**
 * Reads `input` into a deployment in a bounded child (the reading budget's heap and time, unless
 * given others); a refusal or a passed bound is a CheckUsageError (exit 2).
 */
export function readBounded(
  input: CheckInput,
  given: DeploymentInputs,
  { seconds = TEMPLATE_READ_SECONDS, heapMb = TEMPLATE_READ_HEAP_MB } = {},
): Promise<Deployment> {
  return new Promise((resolve, reject) => {
    const child = fork(childEntry(), [], {
      execArgv: childFlags(heapMb),
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let answer: ReadChildAnswer | undefined;
    let late = false;
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      late = true;
      child.kill("SIGKILL");
    }, seconds * 1000);
    child.once("message", (message: ReadChildAnswer) => (answer = message));
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(cannot(`its reading process could not start (${error.message})`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (answer && "deployment" in answer) return resolve(answer.deployment);
      if (answer && "refusal" in answer) return reject(cannot(answer.refusal));
      if (answer && "crash" in answer) return reject(new Error(answer.crash));
      if (late)
        return reject(
          cannot(
            `reading and evaluating it took more than ${seconds} s, the reading budget (the API's); it was stopped`,
          ),
        );
      if (/heap limit|out of memory/i.test(stderr) || signal === "SIGABRT" || code === 134)
        return reject(
          cannot(
            `reading and evaluating it needed more than ${heapMb} MB of heap, the reading budget (the API's); it was stopped`,
          ),
        );
      reject(
        new Error(
          `the reading process ended without an answer (${signal ?? `exit ${code}`}): ${stderr.trim().slice(0, 300)}`,
        ),
      );
    });
    child.send({ input, given } satisfies ReadChildRequest);
  });
}
