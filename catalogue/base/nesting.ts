/**
 * How deep a parsed JSON value nests, counted without recursion (a recursive walk is what
 * overflows): the body parser, the worker pool and the deployment check's text templates ask it.
 */

/** Whether `value` has arrays or objects nested more than `max` levels deep. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [inner, depth] = pending.pop()!;
    if (inner === null || typeof inner !== "object") continue;
    if (depth + 1 > max) return true;
    for (const item of Array.isArray(inner) ? inner : Object.values(inner)) pending.push([item, depth + 1]);
  }
  return false;
}
