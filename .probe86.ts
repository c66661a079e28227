import { exitPlan } from "./catalogue/exit/plan.ts";
import { loadCatalogue } from "./catalogue/load/load.ts";
const c = loadCatalogue();
const [ids, to] = JSON.parse(process.argv[2]!);
const plan = exitPlan(c, ids, to);
for (const e of plan.services) console.log(e.slug, e.outcome, e.coverage, e.candidates.filter(x=>x.proposed).map(x=>x.slug).join(","), "|", (e.jobs??[]).map(j=>`${j.group}:${j.status}:${j.by??""}`).join(" "));
console.log(plan.targetList.providers.join(","));
