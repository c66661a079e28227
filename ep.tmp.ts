import { loadCatalogue } from "./catalogue/load.ts";
import { ENDPOINTS } from "./catalogue/contract/index.ts";
import { runRow } from "./mcp/tools.ts";
const catalogue = loadCatalogue();
const ctx = { catalogue, store: {} as never, status: {} as never, urls: { apiUrl: "http://a", textUrl: "http://t" }, table: ENDPOINTS, now: () => new Date(), startedAt: 0, client: "x" };
const r = await runRow(ctx, { operationId: "planExit", query: {}, body: { approvedServiceIds: ["aws-s3", "aws-cognito", "aws-sqs"], to: { sovereignOption: true } }, headers: {} });
console.log(JSON.stringify(r, null, 1).slice(0, 6000));
const s = await runRow(ctx, { operationId: "getService", params: { slug: "elastx-dbaas" } });
const j = (s as any).json; for (const k of Object.keys(j)) console.log(k, JSON.stringify(j[k]).length);
