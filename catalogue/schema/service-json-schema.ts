/**
 * The JSON Schema of a service's data file (data/services/<providerId>/<name>.yaml), generated from
 * ServiceEntry and so from the field table it spreads (service-fields.ts): an editor with a YAML
 * language server checks a file as it is typed, as endoflife.date's product-schema.json does.
 * `npm run docs:data-schema` writes it to data/service.schema.json;
 * tests/catalogue/service-json-schema.test.ts fails when the committed file is not what this gives.
 * The loader stays the judge: cross-checks (a known category, URLs on the provider's domains) are
 * not expressible here.
 */
import { z } from "zod";
import { ServiceEntry } from "./data-files.ts";
import { SERVICE_FIELD_ROWS } from "./service-fields.ts";

interface ObjectSchema {
  properties?: Record<string, Record<string, unknown>>;
  [keyword: string]: unknown;
}

/** ServiceEntry as a draft 2020-12 JSON Schema, the table's fields described as OpenAPI describes them. */
export function serviceEntryJsonSchema(): Record<string, unknown> {
  // "input": what a file may say (defaults not yet applied); a refinement zod cannot express is left
  // to the loader rather than refused here.
  const schema = z.toJSONSchema(ServiceEntry, {
    io: "input",
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as ObjectSchema;
  const properties = schema.properties ?? {};
  for (const row of SERVICE_FIELD_ROWS) {
    const description = z.globalRegistry.get(row.api)?.description;
    const property = properties[row.key];
    if (description !== undefined && property !== undefined && property.description === undefined)
      property.description = description;
  }
  if (properties.lastVerified)
    properties.lastVerified.description = "Removed in 1.7.0: list the vendor pages you checked under sources instead";
  return {
    $schema: schema.$schema,
    title: "A service of the cloud services catalogue (catalogue/data/services/<providerId>/<name>.yaml)",
    ...Object.fromEntries(Object.entries(schema).filter(([keyword]) => keyword !== "$schema")),
  };
}

/** The schema as the committed file holds it. */
export const serviceEntryJsonSchemaText = () => `${JSON.stringify(serviceEntryJsonSchema(), null, 2)}\n`;
