/**
 * Template uploads (4 MiB each) read UPLOADS_AT_ONCE at a time per host: eight arriving together
 * took `npm start` from 263 to 315 MB while their bodies were read, each held two or three times
 * over (the socket's chunks, the string, the copy sent to its reader). The others wait before
 * their body is read, unread in their sockets, where TCP holds them at no cost to this process;
 * a slot is given back when the answer is sent or the connection closes. One at a time, not two:
 * eight 4 MiB JSON checks then peaked at 276 MB, not 303 (Terraform plans 265, not 295), the
 * second reader thread's heap no longer beside the first; each check takes about a second.
 *
 * A body left unread counts against node's request limit (30 s, then 408 "did not arrive in
 * time"), although its client sent it whole (issue 109: 7 of 8 parallel uploads answered 408). So
 * the wait is the server's, and bounded as such: an upload waits for its turn at most until its
 * deadline (deadline.ts) and never past two thirds of the request limit, which leaves its body the
 * rest to arrive; past that it is answered 503 with Retry-After, its body read and discarded
 * (linger.ts). Once its turn comes, the body's time is the client's. A turn is handed on when the
 * answer is sent and the host's reader has nothing left to read (`settled`): an upload answered 503
 * past its deadline while its template is still read would otherwise let the next body in beside
 * it (eight maximum checks then peaked at 396 MB, not 289–341).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../catalogue/base/problem.ts";
import { bodyReadFrom, deadlineOf, pastDeadline } from "./deadline.ts";
import type { HttpTimeouts } from "./http-limits.ts";

export const UPLOADS_AT_ONCE = 1;
/** Uploads waiting for a slot; beyond them a 503 (each client is also limited by its strict bucket). */
export const UPLOADS_WAITING_MAX = 64;
/** The share of the request limit an upload may wait for its turn; the rest is its body's. */
export const UPLOAD_WAIT_SHARE = 2 / 3;

export function gateUploads(
  app: FastifyInstance,
  applies: (request: FastifyRequest) => boolean,
  timeouts: Pick<HttpTimeouts, "requestMs">,
  settled: () => Promise<void> = () => Promise.resolve(),
): void {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const handOver = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  app.addHook("onRequest", (request, reply, done) => {
    if (!applies(request)) return done();
    let state: "waiting" | "holding" | "done" = "waiting";
    const wait: { timer?: NodeJS.Timeout } = {};
    const start = () => {
      state = "holding";
      clearTimeout(wait.timer);
      bodyReadFrom(request);
      done();
    };
    const leave = () => {
      clearTimeout(wait.timer);
      const index = waiting.indexOf(start);
      if (index >= 0) waiting.splice(index, 1);
    };
    reply.raw.once("close", () => {
      // A request answered past its deadline leaves its template still being read: the next body
      // is read once that reading has ended, so that two are never held at once.
      if (state === "holding") void settled().then(handOver);
      else if (state === "waiting") leave();
      state = "done";
    });
    if (inFlight < UPLOADS_AT_ONCE) {
      inFlight++;
      return start();
    }
    if (waiting.length >= UPLOADS_WAITING_MAX) {
      state = "done";
      return done(
        Object.assign(
          new HttpError(503, "Service unavailable", "Too many templates are being uploaded; retry in a few seconds."),
          { retryAfter: 5 },
        ),
      );
    }
    const until = Math.min(
      deadlineOf(request) ?? Number.POSITIVE_INFINITY,
      Date.now() + timeouts.requestMs * UPLOAD_WAIT_SHARE,
    );
    wait.timer = setTimeout(
      () => {
        if (state !== "waiting") return;
        state = "done";
        leave();
        done(pastDeadline());
      },
      Math.max(0, until - Date.now()),
    );
    waiting.push(start);
  });
}
