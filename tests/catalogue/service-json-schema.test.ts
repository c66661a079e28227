/**
 * The JSON Schema editors validate a service's data file with (catalogue/data/service.schema.json,
 * from catalogue/schema/service-json-schema.ts): the committed file is what the field table gives,
 * it accepts every service file the loader accepts, and it refuses what the loader refuses by shape.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { listServiceFiles } from "../../catalogue/load/load-services.ts";
import { serviceEntryJsonSchemaText } from "../../catalogue/schema/service-json-schema.ts";

const DATA = fileURLToPath(new URL("../../catalogue/data", import.meta.url));
const committed = readFileSync(`${DATA}/service.schema.json`, "utf8");

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  return ajv.compile(JSON.parse(committed) as object);
}

const S3 = {
  slug: "aws-s3",
  name: "Amazon Simple Storage Service",
  category: "storage",
  documentationUrl: "https://docs.aws.amazon.com/s3/",
};

describe("the service data file's JSON Schema", () => {
  it("is committed as the field table writes it (node scripts/write-service-schema.ts)", () => {
    expect(committed, "service.schema.json is stale: npm run docs:data-schema").toBe(serviceEntryJsonSchemaText());
  });

  it("accepts every service file of the catalogue", () => {
    const validate = validator();
    const problems: string[] = [];
    const files = listServiceFiles(DATA, problems, (path) => path);
    expect(problems).toEqual([]);
    expect(files.length).toBeGreaterThan(1000);
    const refused = files.flatMap(({ path }) =>
      validate(parse(readFileSync(path, "utf8"))) ? [] : [`${path}: ${JSON.stringify(validate.errors)}`],
    );
    expect(refused, "files the committed schema refuses (a new field? npm run docs:data-schema)").toEqual([]);
  });

  it("refuses an unknown key, a missing name, a pricing model outside the vocabulary and lastVerified", () => {
    const validate = validator();
    expect(validate(S3)).toBe(true);
    expect(validate({ ...S3, pricingUrls: "https://aws.amazon.com/s3/pricing/" })).toBe(false);
    expect(validate({ slug: S3.slug, category: S3.category })).toBe(false);
    expect(validate({ ...S3, pricingModel: "per-request" })).toBe(false);
    expect(validate({ ...S3, lastVerified: "2026-11-28" })).toBe(false);
  });
});
