/**
 * The process-wide bound on files being sent (sidecar/response-budget.ts, decisions.md#bounded-memory): an answer
 * starts on its connection's turn and with a slot; beyond the slots it waits, and beyond the
 * queue or the wait it is refused with 503; a slot comes back when its answer ends.
 */
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { StreamBudget } from "../../sidecar/response-budget.ts";

/** A socket and a response as node has them: the response gets its socket when its turn comes. */
function connection(turn = true) {
  const socket = Object.assign(new EventEmitter(), { destroyed: false }) as unknown as Socket;
  const response = Object.assign(new EventEmitter(), { socket: turn ? socket : null }) as unknown as ServerResponse;
  return { socket, response };
}

describe("the budget of files in flight", () => {
  it("waits for the connection's turn, then for a slot, and hands a freed slot to the next in line", async () => {
    const budget = new StreamBudget(1, 1, 5000);
    const first = connection(false);
    let started = false;
    const firstRelease = budget.acquire(first.response, first.socket).then((release) => ((started = true), release));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBe(false);
    (first.response as unknown as { socket: Socket }).socket = first.socket;
    first.response.emit("socket", first.socket);
    const release = await firstRelease;
    expect(budget.usage).toEqual({ streaming: 1, waiting: 0 });
    const second = connection();
    const secondRelease = budget.acquire(second.response, second.socket);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(budget.usage).toEqual({ streaming: 1, waiting: 1 });
    // Beyond the queue: 503 at once.
    const third = connection();
    await expect(budget.acquire(third.response, third.socket)).rejects.toMatchObject({ statusCode: 503 });
    release!();
    expect(await secondRelease).toBeTypeOf("function");
    expect(budget.usage).toEqual({ streaming: 1, waiting: 0 });
    // An answer that ends (finish or close) gives its slot back, once.
    second.response.emit("finish");
    second.response.emit("close");
    expect(budget.usage).toEqual({ streaming: 0, waiting: 0 });
  });

  it("refuses with 503 after the wait, and lets a client that went away leave the queue", async () => {
    const budget = new StreamBudget(1, 10, 100);
    const holder = connection();
    await budget.acquire(holder.response, holder.socket);
    const late = connection();
    await expect(budget.acquire(late.response, late.socket)).rejects.toMatchObject({ statusCode: 503, retryAfter: 5 });
    const gone = connection();
    const waiting = budget.acquire(gone.response, gone.socket);
    (gone.socket as unknown as { destroyed: boolean }).destroyed = true;
    gone.socket.emit("close");
    expect(await waiting).toBeUndefined();
    expect(budget.usage).toEqual({ streaming: 1, waiting: 0 });
  });
});
