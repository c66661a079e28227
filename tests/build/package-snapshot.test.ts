/**
 * The catalogue the package holds (scripts/package/build.ts's leanSource(): the build's source less
 * each service's sources, which no check reads) gives every vendor sample the answer the whole
 * catalogue gives: should a check start reading what the snapshot leaves out, this fails.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { gunzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { assembleCatalogue, readCatalogueSource, type CatalogueSource } from "../../catalogue/load/load.ts";
import { TerraformFiles } from "../../catalogue/templates/read.ts";
import { leanSource } from "../../scripts/package/build.ts";
import { GOOGLE_PLAN_FIXTURES, TEMPLATE_FIXTURES } from "../fixtures/templates/templates.ts";

const sourcePath = inject("realCatalogueSource") as string | undefined;
const source = sourcePath ? (deserialize(readFileSync(sourcePath)) as CatalogueSource) : readCatalogueSource();
const whole = assembleCatalogue(source);
const lean = assembleCatalogue(leanSource(source));
const ASKED = { asOf: "2026-11-28", withinDays: 180 };

const fixtureText = (file: string) => {
  const bytes = readFileSync(new URL(`../fixtures/templates/${file}`, import.meta.url));
  return (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
};
const TERRAFORM = new URL("../fixtures/deployments/terraform/", import.meta.url).pathname;
const folders = readdirSync(TERRAFORM).filter((name) => name !== "example-syntax-error");

describe("the package's catalogue snapshot", () => {
  it("leaves out the services' sources and nothing else", () => {
    const leaned = leanSource(source);
    expect(leaned.services.some(({ entry }) => "sources" in entry)).toBe(false);
    expect({ ...leaned, services: [] }).toEqual({ ...source, services: [] });
    expect(leaned.services.map(({ entry }) => ({ ...entry, sources: undefined }))).toEqual(
      source.services.map(({ entry }) => ({ ...entry, sources: undefined })),
    );
  });

  it.each([...TEMPLATE_FIXTURES, ...GOOGLE_PLAN_FIXTURES])("answers $id as the whole catalogue does", (fixture) => {
    const text = fixtureText(fixture.file);
    const ids = [...fixture.approved];
    expect(checkTemplate(lean, text, ids, ASKED)).toEqual(checkTemplate(whole, text, ids, ASKED));
  });

  it.each(folders)("answers the .tf folder %s as the whole catalogue does", (folder) => {
    const files = Object.fromEntries(
      readdirSync(join(TERRAFORM, folder))
        .filter((name) => name.endsWith(".tf"))
        .map((name) => [name, readFileSync(join(TERRAFORM, folder, name), "utf8")]),
    );
    const ids = ["aws-s3", "azure-blob-storage", "gcp-cloud-storage"];
    expect(checkTemplate(lean, new TerraformFiles(files), ids, ASKED, ["EU"])).toEqual(
      checkTemplate(whole, new TerraformFiles(files), ids, ASKED, ["EU"]),
    );
  });
});
