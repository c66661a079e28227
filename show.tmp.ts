import { loadCatalogue } from "./catalogue/load.ts";
import { servicePage, comparePage } from "./catalogue/render/pages.ts";
import { renderMarkdown } from "./catalogue/render/markdown.ts";
import { renderAnsi } from "./catalogue/render/ansi.ts";
const c = loadCatalogue(process.argv[2]);
const slug = process.argv[3]!;
console.log(renderMarkdown(servicePage(c, slug)));
if (process.argv[4]) console.log(renderAnsi(servicePage(c, slug), false));
