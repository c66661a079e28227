import { loadCatalogue } from "../catalogue/load.ts";
const c = loadCatalogue();
for (const g of c.groups) {
  console.log(`## ${g.id} (${g.name})`);
  console.log("  " + g.services.map((s) => { const v = c.bySlug.get(s)!.service; return `${s}[${v.name}${v.lifecycle ? " !" + v.lifecycle.status : ""}]`; }).join("; "));
}
