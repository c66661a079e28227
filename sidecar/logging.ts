/**
 * The servers' log: one access line per request, written to stdout asynchronously.
 * Fastify's default logs two lines per request (incoming, completed), each a synchronous write(2)
 * to stdout: at the default level that cost more than half the throughput of a cached answer
 * (issue 20). Here the request's line is written once, when the response is done, formatted by
 * pino and written asynchronously by ./log-writer.ts, a turn's lines at a time from fixed buffers
 * (why not pino's own destination: there). A pino transport (a worker thread) would cost as
 * little per line but adds a V8 heap, ~14 MB of RSS. Errors keep Fastify's own lines.
 * https://fastify.dev/docs/latest/Reference/Logging/ · https://getpino.io/#/docs/asynchronous
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";
import type { ConfigT } from "./config.ts";
import { LogWriter } from "./log-writer.ts";

/** Fastify's request-log hooks with one line per request instead of two. */
class AccessLog extends LogController {
  private readonly enabled: boolean;

  constructor(level: ConfigT["LOG_LEVEL"]) {
    super();
    this.enabled = logsRequests(level);
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    if (!this.enabled) return;
    reply.log.info(
      {
        method: request.method,
        url: request.url,
        ip: request.ip,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      "request",
    );
  }
}

/** Whether a level writes the access line. */
export const logsRequests = (level: ConfigT["LOG_LEVEL"]) => level === "info" || level === "debug" || level === "trace";

let destination: LogWriter | undefined;

/** Fastify's logger options for a level; both hosts of a process share one destination. */
export function loggerOptions(level: ConfigT["LOG_LEVEL"]) {
  if (level === "silent") return { logger: false as const };
  if (!destination) {
    // Lines are written at least every second, and as soon as 32 KiB are gathered.
    const lines = (destination = new LogWriter(1));
    // What is gathered when the process exits is written before it ends.
    process.once("exit", () => lines.flushSync());
  }
  return { logger: { level, stream: destination }, logController: new AccessLog(level) };
}
