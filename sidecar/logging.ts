/**
 * The servers' log: one access line per request, written to stdout asynchronously.
 * Fastify's default logs two lines per request (incoming, completed), each a synchronous write(2)
 * to stdout: at the default level that cost more than half the throughput of a cached answer
 * (decisions.md#memory-rss). Here the request's line is written once, when the response is done, through pino's
 * own asynchronous destination (sonic-boom), flushed when the process exits. Errors keep
 * Fastify's own lines.
 * https://fastify.dev/docs/latest/Reference/Logging/ · https://getpino.io/#/docs/asynchronous
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";
import pino from "pino";
import type { ConfigT } from "./config.ts";

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

let destination: pino.DestinationStream | undefined;

/** Fastify's logger options for a level; both hosts of a process share one destination. */
export function loggerOptions(level: ConfigT["LOG_LEVEL"]) {
  if (level === "silent") return { logger: false as const };
  if (!destination) {
    const lines = pino.destination({ dest: 1, sync: false });
    destination = lines;
    // What is gathered when the process exits is written before it ends.
    process.once("exit", () => lines.flushSync());
  }
  return { logger: { level, stream: destination }, logController: new AccessLog(level) };
}
