/**
 * `npm run docs:data-schema`: writes catalogue/data/service.schema.json, the JSON Schema of a
 * service's data file, from the field table (catalogue/schema/service-json-schema.ts). Editors
 * point their YAML language server at it (catalogue/data/README.md).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serviceEntryJsonSchemaText } from "../catalogue/schema/service-json-schema.ts";

const path = fileURLToPath(new URL("../catalogue/data/service.schema.json", import.meta.url));
const started = performance.now();
writeFileSync(path, serviceEntryJsonSchemaText());
console.log(`wrote catalogue/data/service.schema.json in ${Math.round(performance.now() - started)} ms`);
