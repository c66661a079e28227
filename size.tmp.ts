import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { loadCatalogue } from "./catalogue/load.ts";
import { ENDPOINTS } from "./catalogue/contract/index.ts";
import { catalogueMcpServer } from "./mcp/server.ts";
const catalogue = loadCatalogue();
const server = catalogueMcpServer({ catalogue, store: {} as never, status: {} as never, urls: { apiUrl: "http://a", textUrl: "http://t" }, table: ENDPOINTS, now: () => new Date(), startedAt: 0, client: "x" });
const [a, b] = InMemoryTransport.createLinkedPair();
const client = new Client({ name: "s", version: "1" });
await Promise.all([server.connect(b), client.connect(a)]);
const aws = catalogue.services.filter((s) => s.providerId === "aws").map((s) => s.slug);
const big = [...catalogue.services].map(s=>s.slug).slice(0, 500);
const cases: [string, Record<string, unknown>][] = [
  ["search_services", {}], ["search_services", { limit: 200 }],
  ["lifecycle_upcoming", {}],
  ["exit_plan", { approvedServiceIds: aws, to: { sovereignOption: true } }],
  ["compare_services", { ids: aws.slice(0, 10) }], ["exposure_scorecard", { ids: big.slice(0, 50) }],
  ["generate_policy", { format: "scp", approvedServiceIds: aws, explain: true }],
  ["generate_policy", { format: "azure", approvedServiceIds: catalogue.services.filter((s) => s.providerId === "azure").map((s) => s.slug), explain: true }],
  ["generate_policy", { format: "gcp", approvedServiceIds: catalogue.services.filter((s) => s.providerId === "gcp").map((s) => s.slug), explain: true }],
];
let maxSvc = ["", 0] as [string, number];
for (const s of catalogue.services) { const r = await client.callTool({ name: "get_service", arguments: { slug: s.slug } }); const n = JSON.stringify(r).length; if (n > maxSvc[1]) maxSvc = [s.slug, n]; }
console.log("get_service max", maxSvc[0], Math.round(maxSvc[1] / 4));
for (const [name, args] of cases) { const r = await client.callTool({ name, arguments: args }); console.log(name, JSON.stringify(args).slice(0, 60), Math.round(JSON.stringify(r).length / 4), r.isError ? JSON.stringify(r.structuredContent) : ""); }
const rl = await client.listResources(); console.log("resources/list", Math.round(JSON.stringify(rl).length / 4));
const eq = await client.readResource({ uri: "catalogue://equivalents" }); console.log("equivalents", Math.round(JSON.stringify(eq).length / 4));
console.log("tools/list", Math.round(JSON.stringify(await client.listTools()).length / 4));
console.log("aws count", aws.length);
process.exit(0);
