import { describe, expect, it } from "vitest";
import { renderAnsi, TERMINAL_WIDTH } from "../../catalogue/render/ansi.ts";
import { renderMarkdown } from "../../catalogue/render/markdown.ts";
import { textPages } from "../../catalogue/static.ts";
import { realCatalogue } from "../helpers/app.ts";

/* eslint-disable no-control-regex -- these tests look for escape sequences on purpose */
describe("text renderings", () => {
  it("fit every page of the real catalogue in an 80-column terminal", () => {
    const tooWide: string[] = [];
    for (const { page, doc } of textPages(realCatalogue())) {
      for (const line of renderAnsi(doc(), false).split("\n"))
        if ([...line].length > TERMINAL_WIDTH) tooWide.push(`${page}: ${line}`);
    }
    expect(tooWide.slice(0, 5)).toEqual([]);
  });

  it("colour only through SGR escape codes, and none when colour is off", () => {
    const { doc } = [...textPages(realCatalogue())].find((entry) => entry.page === "aws/index")!;
    const coloured = renderAnsi(doc(), true);
    const plain = renderAnsi(doc(), false);
    expect(coloured).toMatch(/\u001b\[\d+m/);
    expect(coloured.replace(/\u001b\[\d+m/g, "")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(plain).not.toMatch(/\u001b/);
    expect(coloured.replace(/\u001b\[\d+m/g, "")).toBe(plain.replace(/\u001b\[\d+m/g, ""));
  });

  it("write Markdown a parser reads back as the same headings", () => {
    const { doc } = [...textPages(realCatalogue())].find((entry) => entry.page === "aws/s3")!;
    const markdown = renderMarkdown(doc());
    expect(markdown.startsWith("# Amazon Simple Storage Service\n")).toBe(true);
    expect(markdown).toContain("## Equivalents");
  });
});
