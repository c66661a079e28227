/**
 * The one edit distance: the search's respelling, the schema's did-you-mean for unknown keys, MCP's
 * nearest ids and the inventory refresh's rename guesses all count edits the same way.
 */

/** Three rows of the distance table, reused: a respelling compares a word with thousands. */
let rows = new Int32Array(0);

/**
 * Edit distance counting a swap of two adjacent letters as one edit (optimal string alignment).
 * Past `most` it stops early and answers some distance above `most`.
 */
export function editDistance(a: string, b: string, most = Number.MAX_SAFE_INTEGER): number {
  const width = b.length + 1;
  if (rows.length < 3 * width) rows = new Int32Array(6 * width);
  // Row offsets: two back (for a swap), the previous, the current.
  let back = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j < width; j++) rows[previous + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[current] = i;
    let rowBest = i;
    for (let j = 1; j < width; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(rows[previous + j]! + 1, rows[current + j - 1]! + 1, rows[previous + j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        d = Math.min(d, rows[back + j - 2]! + 1);
      rows[current + j] = d;
      if (d < rowBest) rowBest = d;
    }
    // No later cell can be below this row's least (a swap costs at least its diagonal step).
    if (rowBest > most) return rowBest;
    [back, previous, current] = [previous, current, back];
  }
  return rows[previous + b.length]!;
}
