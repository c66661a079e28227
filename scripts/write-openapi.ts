/** Writes the OpenAPI document to a file (for `npm run check:openapi`, which lints it). */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ENDPOINTS } from "../catalogue/contract/index.ts";
import { openApiDocument } from "../catalogue/openapi.ts";
import { loadConfig, publicUrls } from "../sidecar/config.ts";

const target = process.argv[2] ?? ".cache/openapi.json";
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, JSON.stringify(openApiDocument(publicUrls(loadConfig(process.env)), ENDPOINTS), null, 2));
console.log(`openapi: wrote ${target}`);
