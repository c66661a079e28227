/**
 * A Markdown table of a document (docs/api.md) as rows of trimmed cells, found by its head's first
 * cells however prettier pads them: for suites that hold a table of the docs to the code it shows.
 */
export function markdownTable(markdown: string, head: string): string[][] {
  const lines = markdown.split("\n");
  const squeeze = (line: string) => line.replace(/\s+/g, " ");
  const start = lines.findIndex((line) => squeeze(line).startsWith(head));
  if (start < 0) throw new Error(`no table headed "${head}"`);
  const body = lines.slice(start + 2);
  const end = body.findIndex((line) => !line.startsWith("|"));
  return body.slice(0, end < 0 ? undefined : end).map((line) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
}
