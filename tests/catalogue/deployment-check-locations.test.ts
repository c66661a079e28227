/**
 * One approved list with locations, checked the same way on every provider (issue 97): the
 * deployment check's allowedLocations against each resource's stated region, location or zone,
 * for providers without an organisation-policy engine (their Terraform plans) and Azure's ARM
 * templates alike; the CI gate's exit code and its SARIF.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { isHttpError } from "../../catalogue/base/problem.ts";
import { TemplateCheck, TemplateCheckBody } from "../../catalogue/schema/index.ts";
import { checkOutcome } from "../../catalogue/templates/answer/findings.ts";
import { regionOf } from "../../catalogue/templates/rules/locations.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";
import { sarifLog } from "../../catalogue/templates/answer/sarif.ts";
import { TERRAFORM_PROVIDERS } from "../../catalogue/templates/tables/terraform-providers.ts";
import { realCatalogue } from "../helpers/catalogue.ts";
import { sarifAjv, validSarif } from "../helpers/sarif.ts";
import { terraformPlan, type PlannedResource } from "../helpers/terraform-plan.ts";

const catalogue = realCatalogue();
const window = { asOf: "2026-11-28", withinDays: 180 };

/** A plan as `terraform show -json` writes it: each resource created with the given attributes. */
const plan = (resources: readonly PlannedResource[]) => JSON.stringify(terraformPlan(resources));

/** The ids of the services a deployment uses: the list that approves all of it. */
const usedIds = (template: unknown) =>
  checkTemplate(catalogue, template, ["aws-s3"], window).services.map((service) => service.id);

const check = (template: unknown, allowedLocations?: string[], ids = usedIds(template)) =>
  checkTemplate(catalogue, template, ids, window, allowedLocations);

/** The answer's statement on locations, when it makes one. */
const locationsText = (answer: ReturnType<typeof check>) =>
  answer.statements.find((statement) => statement.kind === "locations")?.text;

const inventory = (provider: string) =>
  new Set(
    readFileSync(new URL(`../../catalogue/inventory/data/${provider}/terraform/items.txt`, import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#")),
  );

/** Per European provider: a resource type of its inventory, the attribute, an EU location and one elsewhere. */
const PROVIDERS = [
  {
    provider: "scaleway",
    type: "scaleway_rdb_instance",
    attribute: "region",
    // Scaleway's regions are all in the EU: the list allows France, Warsaw is elsewhere.
    allowed: ["FR"],
    inside: ["fr-par", "fr-par"],
    outside: ["pl-waw", "pl-waw"],
  },
  {
    provider: "scaleway",
    type: "scaleway_instance_server",
    attribute: "zone",
    allowed: ["fr-par"],
    inside: ["fr-par-2", "fr-par"],
    outside: ["nl-ams-1", "nl-ams"],
  },
  {
    provider: "ovhcloud",
    type: "ovh_cloud_project_kube",
    attribute: "region",
    allowed: ["EU"],
    inside: ["GRA7", "eu-west-gra"],
    outside: ["BHS5", "ca-east-bhs"],
  },
  {
    provider: "stackit",
    type: "stackit_ske_cluster",
    attribute: "region",
    allowed: ["EU"],
    inside: ["eu01", "eu01"],
    // STACKIT's one region is in Germany: a list of Austria alone leaves it out.
    outside: ["eu01", "eu01"],
    outsideAllowed: ["AT"],
  },
  {
    provider: "hetzner",
    type: "hcloud_server",
    attribute: "location",
    allowed: ["EU"],
    inside: ["fsn1", "fsn1"],
    outside: ["ash", "ash"],
  },
  {
    provider: "ionos",
    type: "ionoscloud_pg_cluster",
    attribute: "location",
    allowed: ["EU"],
    inside: ["de/fra", "de/fra"],
    outside: ["us/las", "us/las"],
  },
] as const;

describe("a Terraform plan per European provider checked against a list with locations: allowed in its EU region, denied in another", () => {
  for (const entry of PROVIDERS)
    it(`${entry.provider}: ${entry.type} ${entry.attribute}`, () => {
      expect(inventory(entry.provider).has(entry.type)).toBe(true);
      const inside = plan([[entry.type, "main", { [entry.attribute]: entry.inside[0], name: "main" }]]);
      const ids = usedIds(inside);
      expect(ids.length).toBeGreaterThan(0);
      const good = check(inside, [...entry.allowed], ids);
      expect(good.locations).toEqual([
        {
          from: `${entry.type}.main`,
          type: entry.type,
          providerId: entry.provider,
          attribute: entry.attribute,
          location: entry.inside[0],
          region: entry.inside[1],
          country: expect.stringMatching(/^[A-Z]{2}$/),
          allowed: true,
        },
      ]);
      expect(checkOutcome(good)).toMatchObject({ allowed: true, exitCode: 0 });
      expect(locationsText(good)).toMatch(
        /^No resource whose location the input says is outside the allowed locations/,
      );

      const outside = plan([[entry.type, "main", { [entry.attribute]: entry.outside[0], name: "main" }]]);
      const bad = check(outside, [...("outsideAllowed" in entry ? entry.outsideAllowed : entry.allowed)], ids);
      expect(bad.locations[0]).toMatchObject({ region: entry.outside[1], allowed: false });
      const outcome = checkOutcome(bad);
      expect(outcome).toMatchObject({ allowed: false, exitCode: 1 });
      expect(outcome.findings).toContainEqual(
        expect.objectContaining({ rule: "location-denied", level: "error", resource: `${entry.type}.main` }),
      );
      expect(locationsText(bad)).toContain(`1 resource outside the allowed locations`);
      expect(TemplateCheck.safeParse(bad).success).toBe(true);
    });
});

const arm = (location: string) => ({
  $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  contentVersion: "1.0.0.0",
  resources: [
    {
      type: "Microsoft.Storage/storageAccounts",
      apiVersion: "2023-01-01",
      name: "logs",
      location,
      kind: "StorageV2",
      sku: { name: "Standard_LRS" },
    },
    {
      type: "Microsoft.Network/virtualNetworks",
      apiVersion: "2023-04-01",
      name: "net",
      location: "[resourceGroup().location]",
    },
  ],
});

describe("an Azure ARM template", () => {
  it("is allowed in westeurope and denied in eastus for EU; an expression is no stated location", () => {
    const ids = usedIds(arm("westeurope"));
    const good = check(arm("westeurope"), ["EU"], ids);
    expect(good.locations).toEqual([
      {
        from: "logs",
        type: "Microsoft.Storage/storageAccounts",
        providerId: "azure",
        attribute: "location",
        location: "westeurope",
        region: "westeurope",
        country: "NL",
        allowed: true,
      },
    ]);
    // resourceGroup().location: the resource group's, which the input does not say without the request's region.
    expect(good.unknownLocations).toEqual([
      expect.objectContaining({ from: "net", why: expect.stringContaining("resourceGroup().location") }),
    ]);
    expect(locationsText(good)).toContain("1 resource goes where the input does not say");
    const bad = check(arm("eastus"), ["EU"], ids);
    expect(bad.locations[0]).toMatchObject({ region: "eastus", country: "US", allowed: false });
    expect(checkOutcome(bad).findings.filter((finding) => finding.rule === "location-denied")).toHaveLength(1);
    // Without allowedLocations, where each resource goes is said, nothing is judged.
    const plain = check(arm("eastus"), undefined, ids);
    expect(plain.locations[0]).not.toHaveProperty("allowed");
    expect(plain.statements.some((statement) => statement.kind === "locations")).toBe(false);
    expect(checkOutcome(plain).findings.some((finding) => finding.rule.startsWith("location-"))).toBe(false);
  });

  it("reads azurerm's display names, and Google zones, as their regions", () => {
    const template = plan([
      ["azurerm_storage_account", "logs", { location: "West Europe" }],
      ["google_compute_instance", "vm", { zone: "europe-west3-a" }],
    ]);
    const answer = check(template, ["DE", "NL"]);
    expect(answer.locations.map(({ region, allowed }) => ({ region, allowed }))).toEqual([
      { region: "westeurope", allowed: true },
      { region: "europe-west3", allowed: true },
    ]);
  });
});

describe("a location the catalogue does not know", () => {
  const template = plan([
    ["hcloud_server", "web", { location: "fsn1" }],
    ["hcloud_server", "far", { location: "mars1" }],
    ["hcloud_volume", "data", { size: 10 }],
  ]);
  it("is neither allowed nor denied: a warning, exit 0 unless strict", () => {
    const answer = check(template, ["EU"]);
    expect(answer.locations.map(({ from, allowed }) => ({ from, allowed }))).toEqual([
      { from: "hcloud_server.web", allowed: true },
      { from: "hcloud_server.far", allowed: null },
    ]);
    expect(answer.locations[1]).not.toHaveProperty("region");
    const outcome = checkOutcome(answer);
    expect(outcome).toMatchObject({ allowed: true, exitCode: 0 });
    expect(outcome.findings).toEqual([
      expect.objectContaining({ rule: "location-unknown", level: "warning", item: "mars1" }),
    ]);
    expect(checkOutcome(answer, { strict: true }).exitCode).toBe(1);
    const text = locationsText(answer)!;
    expect(text).toContain("hcloud_server.far (mars1)");
    // The volume states none: counted, not listed.
    expect(text).toContain("1 resource has no location of its own");
  });

  it("writes valid SARIF with the new rules", () => {
    const denied = plan([
      ["hcloud_server", "us", { location: "ash" }],
      ["hcloud_server", "far", { location: "mars1" }],
    ]);
    const outcome = checkOutcome(check(denied, ["EU"]));
    expect(outcome.exitCode).toBe(1);
    const log = sarifLog(outcome.findings, { path: "plan.json", text: denied, version: "0.1.0" });
    expect(validSarif(log), sarifAjv.errorsText(validSarif.errors)).toBe(true);
    const run = log.runs[0]!;
    const rules = run.tool.driver.rules!.map((rule) => rule.id);
    expect(run.results.map((result) => [rules[result.ruleIndex!], result.level])).toEqual([
      ["location-denied", "error"],
      ["location-unknown", "warning"],
    ]);
  });
});

describe("allowedLocations of the check", () => {
  it("takes what the policy endpoints take, and region codes of every provider", () => {
    const template = plan([["hcloud_server", "web", { location: "fsn1" }]]);
    expect(TemplateCheckBody.safeParse({ template, approvedServiceIds: ["x"], allowedLocations: [] }).success).toBe(
      false,
    );
    expect(check(template, ["fsn1"]).locations[0]!.allowed).toBe(true);
    expect(check(template, ["nbg1", "ash"]).locations[0]!.allowed).toBe(false);
  });

  it("answers an unknown location with a 400 naming the nearest", () => {
    const template = plan([["hcloud_server", "web", { location: "fsn1" }]]);
    let error: unknown;
    try {
      check(template, ["fsn2x", "EU"]);
    } catch (caught) {
      error = caught;
    }
    expect(isHttpError(error) && error.statusCode === 400 && error.title === "Unknown locations").toBe(true);
    expect((error as { details: string }).details).toContain('"fsn2x" (nearest:');
  });

  it("is a zone's region only when one region's id it extends", () => {
    const regions = [
      { id: "de/fra", country: "DE" },
      { id: "de/fra/2", country: "DE" },
      { id: "eu-west", country: "FR" },
      { id: "eu-west-2", country: "FR" },
    ];
    expect(regionOf(regions, "x", "de/fra/2")?.id).toBe("de/fra/2");
    expect(regionOf(regions, "x", "eu-west-2-a")?.id).toBeUndefined();
    expect(regionOf(regions, "x", "eu-west-9")?.id).toBe("eu-west");
  });
});

describe("the readers", () => {
  it("read .tf attributes as evaluated, say why one is not known, and cap the list at 500", () => {
    const files = new TerraformFiles({
      "main.tf": `resource "scaleway_rdb_instance" "db" {\n  region = "fr-par"\n}\nresource "scaleway_instance_server" "vm" {\n  zone = var.zone\n}\n`,
    });
    const deployment = readDeployment(files);
    expect(deployment.locations).toEqual([
      {
        type: "scaleway_rdb_instance",
        from: "scaleway_rdb_instance.db",
        providerId: "scaleway",
        attribute: "region",
        value: "fr-par",
      },
    ]);
    expect(deployment.unknownLocations).toEqual([
      expect.objectContaining({ from: "scaleway_instance_server.vm", why: expect.stringContaining("var.zone") }),
    ]);
    const many = plan(
      Array.from({ length: 600 }, (_, at) => ["hcloud_server", `s${at}`, { location: "fsn1" }] as const),
    );
    expect(readDeployment(many).locations).toHaveLength(500);
  });

  it("name each inventory's Terraform prefix with its provider", () => {
    const root = new URL("../../catalogue/inventory/data/", import.meta.url);
    let checked = 0;
    for (const provider of readdirSync(root)) {
      let head: string;
      try {
        head = readFileSync(new URL(`${provider}/terraform/items.txt`, root), "utf8").split("\n")[0]!;
      } catch {
        continue;
      }
      // AWS's and Azure's headers name their provider repository instead.
      const prefix = /resource types of ([a-z0-9]+)_/.exec(head)?.[1] ?? { aws: "aws", azure: "azurerm" }[provider];
      expect(prefix, provider).toBeDefined();
      expect(TERRAFORM_PROVIDERS.get(prefix!), provider).toBe(provider);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(25);
  });
});
