/**
 * Template uploads (4 MiB each) read UPLOADS_AT_ONCE at a time per host: eight arriving together
 * took `npm start` from 263 to 315 MB while their bodies were read, each held two or three times
 * over (the socket's chunks, the string, the copy sent to its reader). The others wait before
 * their body is read, unread in their sockets, where TCP holds them at no cost to this process;
 * a slot is given back when the answer is sent or the connection closes. One at a time, not two:
 * eight 4 MiB JSON checks then peaked at 276 MB, not 303 (Terraform plans 265, not 295), the
 * second reader thread's heap no longer beside the first; each check takes about a second.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../catalogue/base/problem.ts";

export const UPLOADS_AT_ONCE = 1;
/** Uploads waiting for a slot; beyond them a 503 (each client is also limited by its strict bucket). */
export const UPLOADS_WAITING_MAX = 64;

export function gateUploads(app: FastifyInstance, applies: (request: FastifyRequest) => boolean): void {
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
    const start = () => {
      state = "holding";
      done();
    };
    reply.raw.once("close", () => {
      if (state === "holding") handOver();
      else if (state === "waiting") waiting.splice(waiting.indexOf(start), 1);
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
    waiting.push(start);
  });
}
