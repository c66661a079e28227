/**
 * The threads that compute (the heavy worker, the template readers) yield the CPU to the main one:
 * on a busy machine their work waits, not every other client's cheap read. Linux gives each thread
 * its own nice value (setpriority on its thread id).
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value of a computing thread (the main thread keeps the process's). */
export const COMPUTING_THREAD_NICE = 10;

/** Lowers the calling thread's CPU priority; elsewhere than Linux, or when not allowed, it keeps the process's. */
export function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, COMPUTING_THREAD_NICE);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
