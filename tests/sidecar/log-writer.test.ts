import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LogWriter, type LogWriterIo } from "../../sidecar/log-writer.ts";

/** A descriptor that takes at most `chunk` bytes a write, answering after `delayMs`; records what it got. */
function fakeIo(options: { chunk?: number; delayMs?: number; errors?: string[] } = {}) {
  const errors = [...(options.errors ?? [])];
  const chunks: Buffer[] = [];
  const state = {
    /** What was written, decoded as a whole: a partial write may split a character. */
    get written() {
      return Buffer.concat(chunks).toString("utf8");
    },
    syncWritten: "",
    calls: 0,
    inFlight: 0,
    mostInFlight: 0,
    arrayBuffers: new Set<ArrayBufferLike>(),
  };
  let held: (() => void)[] | undefined;
  const io: LogWriterIo = {
    write: (_fd, buffer, offset, length, _position, callback) => {
      state.calls++;
      state.arrayBuffers.add(buffer.buffer);
      state.mostInFlight = Math.max(state.mostInFlight, ++state.inFlight);
      const code = errors.shift();
      const n = Math.min(length, options.chunk ?? length);
      const answer = () => {
        state.inFlight--;
        if (code) return callback(Object.assign(new Error(code), { code }), 0);
        chunks.push(Buffer.from(buffer.subarray(offset, offset + n)));
        callback(null, n);
      };
      if (held) held.push(answer);
      else setTimeout(answer, options.delayMs ?? 0);
    },
    writeSync: (_fd, data) => {
      state.syncWritten += data.toString("utf8");
      return data.length;
    },
  };
  return {
    io,
    state,
    hold: () => (held = []),
    release: () => {
      const answers = held ?? [];
      held = undefined;
      for (const answer of answers) setTimeout(answer, 0);
    },
  };
}

const line = (n: number) => `{"level":30,"n":${n},"msg":"request ü"}\n`;

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await sleep(5);
  expect(done()).toBe(true);
}

describe("LogWriter", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes every line in order, one write at a time, from its two buffers only, across partial writes", async () => {
    const { io, state } = fakeIo({ chunk: 700, delayMs: 1 });
    const writer = new LogWriter(1, { io, bufferBytes: 2048, minWriteBytes: 512 });
    const expected: string[] = [];
    for (let turn = 0; turn < 200; turn++) {
      for (let i = 0; i < 25; i++) {
        expected.push(line(turn * 25 + i));
        writer.write(expected.at(-1)!);
      }
      await nextTurn();
    }
    writer.flush();
    await until(() => state.written.length === expected.join("").length && state.inFlight === 0);
    expect(state.written).toBe(expected.join(""));
    expect(state.mostInFlight).toBe(1);
    // Nothing allocated per write: every write came from one of the same two ArrayBuffers.
    expect(state.arrayBuffers.size).toBe(2);
    expect(state.calls).toBeGreaterThan(100);
  });

  it("tries a busy descriptor again (EAGAIN) and loses nothing", async () => {
    const { io, state } = fakeIo({ errors: ["EAGAIN", "EAGAIN"] });
    const writer = new LogWriter(1, { io, minWriteBytes: 1 });
    for (let n = 0; n < 10; n++) writer.write(line(n));
    await until(() => state.written.length > 0 && state.inFlight === 0);
    await sleep(20);
    expect(state.written).toBe(Array.from({ length: 10 }, (_, n) => line(n)).join(""));
  });

  it("drops lines past its backlog while the descriptor is stuck, then says how many", async () => {
    const { io, state, hold, release } = fakeIo();
    const writer = new LogWriter(1, { io, bufferBytes: 1024, minWriteBytes: 1, maxWaitingChars: 4096 });
    hold();
    for (let n = 0; n < 400; n++) {
      writer.write(line(n));
      await nextTurn();
    }
    release();
    await until(() => /lines dropped/.test(state.written) && state.inFlight === 0);
    writer.write(line(1000));
    writer.flush();
    await until(() => state.written.includes(line(1000)));
    const kept = state.written.split("\n").filter((text) => text.includes('"n":')).length - 1;
    const dropped = Number(/"log: (\d+) lines dropped/.exec(state.written)![1]);
    expect(kept).toBeGreaterThan(0);
    expect(kept + dropped).toBe(400);
    // What was kept is the oldest, in order.
    expect(state.written.startsWith(Array.from({ length: kept }, (_, n) => line(n)).join(""))).toBe(true);
  });

  it("writes a line longer than a buffer, and everything gathered when the process exits", async () => {
    const { io, state } = fakeIo();
    const writer = new LogWriter(1, { io, bufferBytes: 1024, minWriteBytes: 1 });
    const long = `{"msg":"${"é".repeat(3000)}"}\n`;
    writer.write(line(1));
    writer.write(long);
    writer.write(line(2));
    await until(() => state.written.length === line(1).length + long.length + line(2).length);
    expect(state.written).toBe(line(1) + long + line(2));
    writer.write(line(3));
    writer.write(line(4));
    writer.flushSync();
    expect(state.syncWritten).toBe(line(3) + line(4));
  });

  it("stops after the descriptor fails, with one warning", async () => {
    const { io, state } = fakeIo({ errors: ["EPIPE"] });
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const writer = new LogWriter(1, { io, minWriteBytes: 1 });
    writer.write(line(1));
    await until(() => warn.mock.calls.length === 1);
    writer.write(line(2));
    writer.flush();
    writer.flushSync();
    await sleep(10);
    expect(state.calls).toBe(1);
    expect(state.written + state.syncWritten).toBe("");
    expect(String(warn.mock.calls[0]![0])).toMatch(/EPIPE/);
  });
});
