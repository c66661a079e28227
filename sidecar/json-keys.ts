/**
 * A key given twice in one object of a request's JSON body. JSON.parse keeps the last and drops the
 * first without a word, so a client's `{"approvedServiceIds": [...], "approvedServiceIds": []}` was
 * answered for a list it did not mean; the template readers refuse such a key
 * (catalogue/templates/readers/parse.ts), and request bodies now do too (issue 126).
 */

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * The first key given twice in one object of `text` (valid JSON: parse it first), as its dotted
 * path ("jobsUsed.aws-s3", array items by index: "items.0.name"); undefined when there is none.
 * One pass over the characters, building nothing but each open object's keys.
 */
export function duplicateKey(text: string): string | undefined {
  const open: { keys: Set<string> | undefined; at: string | number }[] = [];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      const start = at;
      for (at++; at < text.length && text.charCodeAt(at) !== 0x22; at++) if (text.charCodeAt(at) === 0x5c) at++;
      const top = open.at(-1);
      // A string in an array, or an object's value (a key is followed by ":").
      if (!top?.keys) continue;
      let next = at + 1;
      while (next < text.length && isSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) !== 0x3a) continue;
      const quoted = text.slice(start, at + 1);
      const key = quoted.includes("\\") ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
      if (top.keys.has(key)) return [...open.slice(0, -1).map((entry) => entry.at), key].join(".");
      top.keys.add(key);
      top.at = key;
    } else if (code === 0x7b || code === 0x5b) open.push({ keys: code === 0x7b ? new Set() : undefined, at: 0 });
    else if (code === 0x7d || code === 0x5d) open.pop();
    else if (code === 0x2c) {
      const top = open.at(-1);
      if (top && !top.keys) top.at = (top.at as number) + 1;
    }
  }
  return undefined;
}

/** What a 400 says of a key given twice. */
export const duplicateKeyDetails = (path: string) =>
  `body.${path}: given twice; JSON keeps only the last of them, so the body is refused rather than read for what it may not mean. Send the key once.`;
