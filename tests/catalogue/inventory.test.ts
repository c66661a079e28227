/**
 * Vendor inventories: reconciliation maps, excludes or reports every item; stale entries and
 * unknown slugs are problems; the refresh diff names added, removed and renamed items; the table
 * in docs/data.md is what npm run docs:coverage writes.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import {
  coverageTable,
  ExclusionsFile,
  InventorySource,
  reconcileInventory,
  reportProblems,
  withInventoryTable,
  type Inventory,
  type InventoryService,
} from "../../catalogue/inventory/inventory.ts";
import { azureResourceTypeIndex } from "../../catalogue/dependencies/dependencies.node.ts";
import { readInventory, reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { diffItems, diffLines } from "../../catalogue/inventory/refresh.ts";
import { realCatalogue } from "../helpers/app.ts";

const source = InventorySource.parse({
  provider: "aws",
  title: "Test",
  itemKind: "IAM service prefix",
  repository: "https://github.com/example/inventory",
  version: "1.0.0",
  asOf: "2026-01-01",
  retrieved: "2026-11-26",
  licence: "MIT",
  mapping: "iam-prefix",
});
const services: InventoryService[] = [
  { slug: "aws-s3", providerId: "aws", policyIdentifiers: { iamPrefixes: ["s3", "s3express"] } },
  { slug: "aws-ec2", providerId: "aws", policyIdentifiers: { iamPrefixes: ["ec2"] } },
  {
    slug: "azure-vms",
    providerId: "azure",
    policyIdentifiers: { resourceTypes: ["Microsoft.Compute/virtualMachines"] },
  },
];
const inventory = (over: Partial<Inventory>): Inventory => ({
  id: "aws/test",
  source,
  items: ["ec2", "s3", "s3express", "support"],
  exclusions: [],
  map: {},
  ...over,
});

describe("reconcileInventory", () => {
  it("maps items the services name, excludes the rest and reports what is left", () => {
    const report = reconcileInventory(
      inventory({
        items: ["ec2", "iot", "s3", "support", "sso"],
        exclusions: [{ item: "support", reason: "support" }],
      }),
      services,
    );
    expect(report.mapped).toBe(2);
    expect(report.owners.get("s3")).toEqual(["aws-s3"]);
    expect(report.excluded).toBe(1);
    expect(report.unreconciled).toEqual(["iot", "sso"]);
    expect(reportProblems(report)).toEqual([
      'aws/test: "iot" is neither mapped to a service nor excluded (add it to a service\'s identifiers, map.yaml or exclusions.yaml)',
      'aws/test: "sso" is neither mapped to a service nor excluded (add it to a service\'s identifiers, map.yaml or exclusions.yaml)',
    ]);
  });

  it("ignores other providers' services and maps map.yaml patterns", () => {
    const report = reconcileInventory(
      inventory({
        source: { ...source, mapping: "map-only" },
        items: ["AWS::EC2::Instance", "AWS::S3::Bucket", "AWS::S3::BucketPolicy"],
        map: { "AWS::S3::*": "aws-s3", "AWS::EC2::Instance": "aws-ec2" },
      }),
      services,
    );
    expect(report.unreconciled).toEqual([]);
    expect(report.owners.get("AWS::S3::BucketPolicy")).toEqual(["aws-s3"]);
    expect(report.problems).toEqual([]);
  });

  it("reports stale exclusions and map entries, unknown slugs and excluded items that are mapped", () => {
    const report = reconcileInventory(
      inventory({
        exclusions: [
          { item: "gone", reason: "internal" },
          { item: "ec2", reason: "account" },
          { item: "support", reason: "feature", of: "aws-nothing" },
        ],
        map: { "old*": "aws-s3", s3: "aws-missing" },
      }),
      services,
    );
    expect(report.problems).toEqual([
      "aws/test/map.yaml: old*: names no item of items.txt (stale)",
      'aws/test/map.yaml: s3: unknown service slug "aws-missing"',
      "aws/test/exclusions.yaml: gone: names no item of items.txt (stale)",
      "aws/test/exclusions.yaml: ec2: is mapped to aws-ec2; remove the exclusion or the mapping",
      'aws/test/exclusions.yaml: support: unknown service slug "aws-nothing"',
    ]);
  });

  it("compares Azure types case-insensitively and maps a namespace a service names a type in", () => {
    const report = reconcileInventory(
      inventory({
        source: { ...source, provider: "azure", mapping: "azure-type" },
        items: ["Microsoft.Compute", "microsoft.compute/VIRTUALMACHINES", "Microsoft.Web"],
      }),
      services,
    );
    expect([...report.owners.keys()].sort()).toEqual(["Microsoft.Compute", "microsoft.compute/VIRTUALMACHINES"]);
    expect(report.unreconciled).toEqual(["Microsoft.Web"]);
  });

  it("refuses exclusions without the fields their reason needs", () => {
    expect(ExclusionsFile.safeParse([{ item: "x", reason: "feature" }]).success).toBe(false);
    expect(ExclusionsFile.safeParse([{ item: "x", reason: "retired" }]).success).toBe(false);
    expect(ExclusionsFile.safeParse([{ item: "x*y", reason: "internal" }]).success).toBe(false);
    expect(ExclusionsFile.safeParse([{ item: "x", reason: "unwanted" }]).success).toBe(false);
  });
});

describe("the refresh diff", () => {
  it("reports an added and a removed item, and a rename", () => {
    const diff = diffItems(["ec2", "s3", "elastictranscoder", "qldb"], ["ec2", "s3", "s3files", "elastic-transcoder"]);
    expect(diff.added).toEqual(["elastic-transcoder", "s3files"]);
    expect(diff.removed).toEqual(["elastictranscoder", "qldb"]);
    expect(diff.renames).toEqual([{ from: "elastictranscoder", to: "elastic-transcoder" }]);
    expect(diffLines("aws/iam", diff)[0]).toBe("aws/iam: 2 added, 2 removed, 1 likely renames");
  });

  it("npm run inventory:refresh prints the diff of aws/iam against a new items list", () => {
    const current = readInventory(
      fileURLToPath(new URL("../../catalogue/inventory/data/", import.meta.url)),
      "aws/iam",
      [],
    )!;
    const dir = mkdtempSync(join(tmpdir(), "inventory-"));
    const next = join(dir, "items.txt");
    writeFileSync(next, ["# a release", ...current.items.filter((item) => item !== "s3"), "zz-new-service"].join("\n"));
    const output = execFileSync(process.execPath, ["scripts/maintenance/inventory-refresh.ts", "aws/iam", next], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      encoding: "utf8",
    });
    expect(output.split("\n")).toEqual([
      "aws/iam: 1 added, 1 removed, 0 likely renames",
      "  + zz-new-service",
      "  - s3",
      "",
    ]);
  });
});

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** A provider clone in miniature: these files, committed to a git repository in a new folder. */
function miniatureClone(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "clone");
  return dir;
}

/** Runs a map script on the clone into its out/ (holding `given` files first), and reads a YAML file it wrote there. */
function mapClone(script: string, clone: string, given: Record<string, string> = {}) {
  const out = join(clone, "out");
  mkdirSync(out);
  for (const [name, text] of Object.entries(given)) writeFileSync(join(out, name), text);
  execFileSync(process.execPath, [script, join(clone, ".git"), out], { cwd: REPO, stdio: "pipe" });
  return { out, read: (file: string) => parseYaml(readFileSync(join(out, file), "utf8")) as unknown };
}

describe("the catalogue's inventories", () => {
  const catalogue = realCatalogue();
  const problems: string[] = [];
  const { inventories, reports } = reconcileAll(catalogue, undefined, problems);

  it("read without problems, and aws/iam maps at least 85 % of AWS's service prefixes", () => {
    expect(problems).toEqual([]);
    const iam = reports.find((report) => report.id === "aws/iam")!;
    expect(iam.items).toBe(456);
    expect(iam.mapped / iam.items).toBeGreaterThanOrEqual(0.85);
  });

  it("leave no item unreconciled and no stale entry", () => {
    expect(reports.flatMap(reportProblems)).toEqual([]);
  });

  it("gcp/terraform's apis.yaml gives every held google_* type the API its map and exclusions were drawn from", () => {
    const terraform = inventories.find((entry) => entry.id === "gcp/terraform")!;
    const apis = parseYaml(
      readFileSync(new URL("../../catalogue/inventory/data/gcp/terraform/apis.yaml", import.meta.url), "utf8"),
    ) as Record<string, string>;
    const gcpApis = reports.find((report) => report.id === "gcp/apis")!;
    const namedBy = (api: string) =>
      catalogue.services
        .filter((service) => service.providerId === "gcp")
        .filter((service) =>
          catalogue.bySlug.get(service.slug)!.policyIdentifiers.apiServices?.some((entry) => entry.name === api),
        )
        .map((service) => service.slug);
    for (const type of terraform.items) expect(apis[type], type).toMatch(/^[a-z0-9.-]+\.googleapis\.com$/);
    for (const [type, owners] of Object.entries(terraform.map)) {
      const api = apis[type]!;
      const expected = namedBy(api).length > 0 ? namedBy(api) : [...(gcpApis.owners.get(api) ?? [])];
      expect([owners].flat().sort(), type).toEqual(expected.sort());
    }
    for (const exclusion of terraform.exclusions)
      expect(exclusion.note, exclusion.item).toContain(`calls ${apis[exclusion.item]}`);
  });

  it("aws/terraform's iam.yaml gives every type an IAM prefix of aws/iam, and its owners own that prefix", () => {
    const terraform = inventories.find((entry) => entry.id === "aws/terraform")!;
    const iam = inventories.find((entry) => entry.id === "aws/iam")!;
    const prefixes = parseYaml(
      readFileSync(new URL("../../catalogue/inventory/data/aws/terraform/iam.yaml", import.meta.url), "utf8"),
    ) as Record<string, string>;
    for (const type of terraform.items) expect(iam.items, type).toContain(prefixes[type]);
    // packages.yaml narrows a shared prefix, never hands a type to a service of another prefix.
    for (const [type, owners] of Object.entries(terraform.map))
      for (const slug of [owners].flat())
        expect(catalogue.bySlug.get(slug)!.policyIdentifiers.iamPrefixes, `${type} → ${slug}`).toContain(
          prefixes[type],
        );
  });

  it("azure/terraform's arm.yaml gives types only deployable ARM types of the Bicep index", () => {
    const terraform = inventories.find((entry) => entry.id === "azure/terraform")!;
    const types = parseYaml(
      readFileSync(new URL("../../catalogue/inventory/data/azure/terraform/arm.yaml", import.meta.url), "utf8"),
    ) as Record<string, string>;
    const bicep = azureResourceTypeIndex();
    for (const [type, armType] of Object.entries(types)) {
      expect(terraform.items, type).toContain(type);
      expect(bicep.get(armType.toLowerCase())?.type, type).toBe(armType);
    }
    expect(Object.keys(types).length / terraform.items.length).toBeGreaterThan(0.9);
  });

  it("scripts/maintenance/terraform-aws-map.ts reads a provider clone: its packages' resources, their IAM prefix by name or names_data.hcl", () => {
    // A clone in miniature, its files shaped as the provider's generator and names data write them.
    const method = (name: string, types: string[]) =>
      `\nfunc (p *servicePackage) ${name}(ctx context.Context) []*inttypes.ServicePackage${name} {\n\treturn []*inttypes.ServicePackage${name}{\n${types.map((type) => `\t\t{\n\t\t\tFactory:  f,\n\t\t\tTypeName: "${type}",\n\t\t},\n`).join("")}\t}\n}\n`;
    const clone = miniatureClone("terraform-aws-", {
      "internal/service/sqs/service_package_gen.go": `package sqs\n${method("SDKDataSources", ["aws_sqs_queues"])}${method("SDKResources", ["aws_sqs_queue"])}`,
      "internal/service/appautoscaling/service_package_gen.go": `package appautoscaling\n${method("FrameworkResources", ["aws_appautoscaling_target"])}`,
      "names/data/names_data.hcl":
        'service "appautoscaling" {\n  cli_v2_command {\n    aws_cli_v2_command = "application-autoscaling"\n  }\n}\n',
    });
    const { out, read } = mapClone("scripts/maintenance/terraform-aws-map.ts", clone);
    expect(
      readFileSync(join(out, "items.txt"), "utf8")
        .split("\n")
        .filter((line) => line && !line.startsWith("#")),
    ).toEqual(["aws_appautoscaling_target", "aws_sqs_queue"]);
    expect(read("iam.yaml")).toEqual({ aws_appautoscaling_target: "application-autoscaling", aws_sqs_queue: "sqs" });
    expect(read("map.yaml")).toMatchObject({ aws_sqs_queue: "aws-sqs" });
  });

  it("scripts/maintenance/terraform-azurerm-map.ts reads a provider clone: registrations, typed resources, each page's import ID", () => {
    // Framework resources listed first, as some registrations do, must not hide the typed ones.
    const clone = miniatureClone("terraform-azurerm-", {
      "internal/services/keyvault/registration.go": [
        "package keyvault\n",
        "func (r Registration) FrameworkResources() []sdk.FrameworkWrappedResource {\n\treturn []sdk.FrameworkWrappedResource{}\n}\n",
        "func (r Registration) SupportedResources() map[string]*pluginsdk.Resource {",
        '\treturn map[string]*pluginsdk.Resource{\n\t\t"azurerm_key_vault": resourceKeyVault(),\n\t}\n}\n',
        "func (r Registration) Resources() []sdk.Resource {\n\treturn []sdk.Resource{\n\t\tKeyVaultKeyResource{},\n\t}\n}\n",
      ].join("\n"),
      "internal/services/keyvault/key_resource.go":
        'package keyvault\n\nfunc (KeyVaultKeyResource) ResourceType() string {\n\treturn "azurerm_key_vault_key"\n}\n',
      "website/docs/r/key_vault.html.markdown":
        "```shell\nterraform import azurerm_key_vault.example /subscriptions/0/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/vault1\n```\n",
      "website/docs/r/key_vault_key.html.markdown":
        "```shell\nterraform import azurerm_key_vault_key.example https://vault1.vault.azure.net/keys/k/0\n```\n",
    });
    // A key's ID is its URL: no ARM type, so packages.yaml places it.
    const { read } = mapClone("scripts/maintenance/terraform-azurerm-map.ts", clone, {
      "packages.yaml": "keyvault: { services: [azure-key-vault] }\n",
    });
    expect(read("arm.yaml")).toEqual({ azurerm_key_vault: "Microsoft.KeyVault/vaults" });
    expect(read("map.yaml")).toEqual({
      azurerm_key_vault: "azure-key-vault",
      azurerm_key_vault_key: "azure-key-vault",
    });
  });

  it("in docs/data.md are what npm run docs:coverage writes", async () => {
    const path = fileURLToPath(new URL("../../docs/data.md", import.meta.url));
    const docs = readFileSync(path, "utf8");
    const written = withInventoryTable(docs, coverageTable(reports, inventories));
    expect(await format(written, { ...(await resolveConfig(path)), filepath: path })).toBe(docs);
  });
});
