/**
 * Template uploads (4 MiB each): what the server holds of them at once is bounded, and no client's
 * slow body holds it for the others (issue 120: a 4 MB body sent at 2 KB/s held the one upload slot
 * of its host, and a 100-byte check and an 835 KB check from someone else answered 503 after 20 s).
 *
 * - A body that says it is small (Content-Length up to UNGATED_BYTES, the limit of every other
 *   row) is read at once: it costs no more than any other request's.
 * - A larger one (or one of unknown length: chunked) takes one of UPLOADS_AT_ONCE slots before its
 *   body is read, one per client at a time, the waiting clients served in turn (threads/slots.ts),
 *   and holds it until its answer is sent or its connection closes. The slots are the server's,
 *   shared by its two hosts (server.ts). The others wait before their body is read, unread in their
 *   sockets, where TCP holds them at no cost to this process. A slow uploader so holds one slot, its
 *   own client's; behind nginx (which reads each body whole before it passes it on) no slot waits
 *   for a client at all.
 * Memory: eight 4 MiB checks arriving together took `npm start` from 263 to 315 MB when their
 * bodies were read at once (each held two or three times over: the socket's chunks, the string, the
 * copy sent to its reader), 276 MB one at a time. Two at a time, each to its answer: RELIABILITY.md
 * has the figures (four, each only until a reader took it, let the checks pile up in the heavy
 * thread: 363 MB).
 *
 * A body left unread counts against node's request limit (30 s, then 408 "did not arrive in
 * time"), although its client sent it whole (issue 109: 7 of 8 parallel uploads answered 408). So
 * the wait is the server's, and bounded as such: an upload waits for its turn at most until its
 * deadline (deadline.ts) and never past two thirds of the request limit, which leaves its body the
 * rest to arrive; past that it is answered 503 with Retry-After, its body read and discarded
 * (linger.ts). Once its turn comes, the body's time is the client's.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import { HttpError } from "../catalogue/base/problem.ts";
import { MAX_BODY_BYTES } from "../catalogue/base/limits.ts";
import { bodyReadFrom, deadlineOf } from "./deadline.ts";
import type { HttpTimeouts } from "./http-limits.ts";
import { clientKey } from "./plugins/limit-store.ts";
import { onRequestOfRoutes } from "./route-hooks.ts";
import { Slots } from "./threads/slots.ts";

/** Large uploads a server holds at once (from their first byte to their answer), one per client. */
export const UPLOADS_AT_ONCE = 2;
/** Uploads waiting for a slot; beyond them a 503 (each client is also limited by its strict bucket). */
export const UPLOADS_WAITING_MAX = 64;
/** A client's uploads waiting at once; beyond them its next is a 503. */
export const UPLOADS_WAITING_PER_CLIENT = 8;
/** The share of the request limit an upload may wait for its turn; the rest is its body's. */
export const UPLOAD_WAIT_SHARE = 2 / 3;
/** A body that says it is this small or smaller is read at once, as every other row's is. */
export const UNGATED_BYTES = MAX_BODY_BYTES;

const tooManyUploads = () =>
  Object.assign(
    new HttpError(503, "Service unavailable", "Too many templates are being uploaded; retry in a few seconds."),
    { retryAfter: 5 },
  );

/** The upload slots of a server: one set for both its hosts. */
export function uploadSlots(): Slots {
  return new Slots(UPLOADS_AT_ONCE, UPLOADS_WAITING_MAX, tooManyUploads, {
    perClient: 1,
    perClientWaiting: UPLOADS_WAITING_PER_CLIENT,
  });
}

/** Whether a request's body says it is small enough to be read at once. */
function declaredSmall(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return length !== undefined && request.headers["transfer-encoding"] === undefined && Number(length) <= UNGATED_BYTES;
}

/**
 * Gates the uploads of the routes declared after this call for which `applies` holds (the rows
 * that read a template): the hook is theirs alone (route-hooks.ts), so no other request pays for it.
 */
export function gateUploads(
  app: FastifyInstance,
  applies: (route: RouteOptions) => boolean,
  timeouts: Pick<HttpTimeouts, "requestMs">,
  slots: Slots = uploadSlots(),
): void {
  onRequestOfRoutes(app, applies, (request, reply, done) => {
    if (declaredSmall(request)) return done();
    let state: "waiting" | "holding" | "done" = "waiting";
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Answered, or its client gone: the slot, or its place in the queue, is given back.
    reply.raw.once("close", () => {
      state = "done";
      release();
    });
    const until = Math.min(
      deadlineOf(request) ?? Number.POSITIVE_INFINITY,
      Date.now() + timeouts.requestMs * UPLOAD_WAIT_SHARE,
    );
    slots
      .run(
        () => {
          if (state === "waiting") {
            state = "holding";
            bodyReadFrom(request);
            done();
          }
          return held;
        },
        {
          deadline: until,
          client: clientKey(request.ip),
          // Its client left while it waited: no turn is spent on it.
          gone: () => (state === "done" ? tooManyUploads() : undefined),
        },
      )
      .catch((error: unknown) => {
        // Refused before its turn (the queue full, its deadline passed): answered so, its body unread.
        if (state !== "waiting") return;
        state = "done";
        release();
        done(error as Error);
      });
  });
}
