/**
 * The servers' log: one access line per request, written to stdout asynchronously.
 * Fastify's default logs two lines per request (incoming, completed), each a synchronous write(2)
 * to stdout: at the default level that cost more than half the throughput of a cached answer
 * (issue 20). Here the request's line is written once, when the response is done, through pino's
 * own asynchronous destination (sonic-boom; pino flushes what is left when the process exits).
 * The lines of one event-loop turn are handed to it as one Buffer: line by line, its string mode
 * measures the UTF-8 length of everything gathered so far on every line (a third of a replayed
 * answer's throughput), and its buffer mode fed a Buffer per line pins a pooled 8 KiB slab for
 * every line that lives through two scavenges (RSS grew by ~1 MB a second under load). A pino
 * transport (a worker thread) costs as little per line but adds a V8 heap, ~14 MB of RSS.
 * Errors keep Fastify's own lines.
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
    // Lines are written at least every second, and as soon as 4 KiB are gathered.
    const lines = pino.destination({
      dest: 1,
      sync: false,
      contentMode: "buffer",
      minLength: 4096,
      periodicFlush: 1000,
    });
    let turn: string[] = [];
    const flushTurn = () => {
      if (turn.length === 0) return;
      // sonic-boom's types know only its string mode; in buffer mode write() takes a Buffer.
      lines.write(Buffer.from(turn.join("")) as unknown as string);
      turn = [];
    };
    // A turn's lines not yet handed over when the process exits are written before it ends.
    process.once("exit", () => {
      try {
        flushTurn();
        lines.flushSync();
      } catch {
        // Already ended (pino's own exit handler, or a closed stdout): nothing more can be written.
      }
    });
    destination = {
      write: (line: string) => {
        if (turn.push(line) === 1) setImmediate(flushTurn);
      },
    };
  }
  return { logger: { level, stream: destination }, logController: new AccessLog(level) };
}
