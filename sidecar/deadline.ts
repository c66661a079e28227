/**
 * A total deadline per request (issue 109): the time the server may spend on a request it has read —
 * waiting in the upload gate (upload-gate.ts), the template reader's queue and thread
 * (threads/reader.ts), the heavy computations' queue and thread (routes/api.ts, worker/pool.ts), the
 * text host's page jobs (text/computed.ts) — before it answers. Each wait takes the request's
 * deadline and, once it passes, rejects with a 503 and Retry-After, answered through the host's own
 * error path (its Error shape or rendering, CORS and security headers kept). Without it a queued
 * request waited until the socket's idle limit closed it (Fastify's `connectionTimeout`, 35 s):
 * no answer at all.
 *
 * The time the client takes to send its body is its own (node answers a body not received within
 * the request limit with 408): it moves the deadline on by as much. The deadline therefore falls
 * at most `deadlineMs` (http-limits.ts) after the last byte received, before the idle limit.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../catalogue/base/problem.ts";

/** What a request answered past its deadline is told to wait before trying again. */
export const DEADLINE_RETRY_AFTER_SECONDS = 5;

const DEADLINE = Symbol("deadline");
/** When the server stopped waiting for its own work and started reading the body (the gate's turn, or arrival). */
const BODY_FROM = Symbol("body from");
type Stamped = IncomingMessage & { [DEADLINE]?: number; [BODY_FROM]?: number };

export const PAST_DEADLINE_DETAILS =
  "The server could not finish this request in the time it gives one: too much work is waiting. Retry in a few seconds.";

/** The 503 of a wait that passed the request's deadline. */
export function pastDeadline(): HttpError {
  return Object.assign(new HttpError(503, "Service unavailable", PAST_DEADLINE_DETAILS), {
    retryAfter: DEADLINE_RETRY_AFTER_SECONDS,
  });
}

/**
 * Stamps each request's deadline when it arrives, on the node request (the text host hands its /v1/
 * requests to the API app, whose stamp then finds the text host's), and moves it on by the time its
 * body took to arrive. Registered first on both hosts.
 */
export function stampDeadlines(app: FastifyInstance, deadlineMs: number): void {
  app.addHook("onRequest", (request, _reply, done) => {
    const raw = request.raw as Stamped;
    if (raw[DEADLINE] === undefined) {
      const now = Date.now();
      raw[DEADLINE] = now + deadlineMs;
      raw[BODY_FROM] = now;
    }
    done();
  });
  // The body is parsed before this hook: the time since the server began reading it was the client's.
  app.addHook("preValidation", (request, _reply, done) => {
    const raw = request.raw as Stamped;
    const from = raw[BODY_FROM];
    if (from !== undefined && raw[DEADLINE] !== undefined) {
      raw[DEADLINE] += Date.now() - from;
      raw[BODY_FROM] = undefined;
    }
    done();
  });
}

/** The request's deadline (epoch ms); undefined for a request no host stamped (a test's own app). */
export function deadlineOf(request: FastifyRequest | IncomingMessage): number | undefined {
  const raw = ("raw" in request ? request.raw : request) as Stamped;
  return raw[DEADLINE];
}

/** The upload gate's turn came: the body is read from now, on the client's time. */
export function bodyReadFrom(request: FastifyRequest): void {
  (request.raw as Stamped)[BODY_FROM] = Date.now();
}

/**
 * `work`, or a rejection with `pastDeadline()` once `deadline` passes first. The work itself goes
 * on (a thread's computation cannot be cut short here): only this request stops waiting for it.
 */
export function beforeDeadline<T>(work: Promise<T>, deadline: number | undefined): Promise<T> {
  if (deadline === undefined) return work;
  const left = deadline - Date.now();
  if (left <= 0) {
    work.catch(() => undefined);
    return Promise.reject(pastDeadline());
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      work.catch(() => undefined);
      reject(pastDeadline());
    }, left);
    work.finally(() => clearTimeout(timer)).then(resolve, reject);
  });
}
