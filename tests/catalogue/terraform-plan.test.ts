/**
 * Terraform resource types on services: one real configuration per provider, vendored from the
 * provider's own repository (tests/fixtures/terraform/, origin in each file's header), has every
 * resource of that provider named by a service — its owner on GET /v1/services/{slug}, or, for a
 * networking primitive or feature the inventory excludes, the service its exclusion names.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readInventory } from "../../catalogue/inventory/load.node.ts";
import { terraformResourceProblems } from "../../catalogue/load/terraform-resources.ts";
import { ServiceEntry } from "../../catalogue/schema/data-files.ts";
import { renderAnsi } from "../../catalogue/format/ansi.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { servicePage } from "../../catalogue/render/service-page.ts";
import { build, realCatalogue } from "../helpers/app.ts";

const FIXTURES = new URL("../fixtures/terraform/", import.meta.url);
const PROVIDERS = [
  "ovhcloud",
  "scaleway",
  "stackit",
  "ionos",
  "hetzner",
  "exoscale",
  "upcloud",
  "otc",
  "digitalocean",
  "vultr",
  "heroku",
  "outscale",
  "nhn",
  "clevercloud",
  "akamai",
  "gcore",
  "huawei",
  "tencent",
  "alibaba",
  "sakura",
  "naver",
  "infomaniak",
  "aruba",
  "cloudflare",
  "ibm",
  "oci",
  "bunny",
] as const;

/** The resource types a configuration declares, in order, once each. */
function resourceTypes(config: string): string[] {
  return [...new Set([...config.matchAll(/^resource\s+"([a-z0-9_]+)"\s+"[^"]+"/gm)].map((match) => match[1]!))];
}

function inventoryOf(provider: string) {
  const problems: string[] = [];
  const inventory = readInventory(
    new URL("../../catalogue/inventory/data/", import.meta.url).pathname,
    `${provider}/terraform`,
    problems,
  );
  expect(problems).toEqual([]);
  return inventory!;
}

describe("a real Terraform configuration per provider maps to services", () => {
  const catalogue = realCatalogue();
  const owner = new Map<string, string>();
  for (const record of catalogue.services)
    for (const type of catalogue.bySlug.get(record.slug)!.terraformResources) owner.set(type, record.slug);

  for (const provider of PROVIDERS) {
    it(`${provider}: every resource of the provider names its service`, async () => {
      const config = readFileSync(new URL(`${provider}.tf`, FIXTURES), "utf8");
      expect(config.split("\n")[0]).toMatch(
        /^# Origin: https:\/\/github\.com\/[^/]+\/terraform-provider-[^/]+\/blob\/[0-9a-f]{40}\//,
      );
      const inventory = inventoryOf(provider);
      const items = new Set(inventory.items);
      const prefix = `${inventory.items[0]!.split("_")[0]}_`;
      // Types of other providers (random_password, tls_private_key) are not this provider's.
      const types = resourceTypes(config).filter((type) => type.startsWith(prefix));
      expect(types.length).toBeGreaterThan(0);

      const app = await build({ catalogue });
      let owned = 0;
      for (const type of types) {
        expect(items.has(type), `${type} is in ${provider}/terraform/items.txt`).toBe(true);
        const slug = owner.get(type);
        if (slug) {
          owned++;
          const response = await app.inject(`/v1/services/${slug}`);
          expect(response.statusCode).toBe(200);
          const body = response.json();
          expect(body.providerId).toBe(provider);
          expect(body.terraformResources).toContain(type);
          continue;
        }
        const exclusion = inventory.exclusions.find(
          (entry) => entry.item === type || (entry.item.endsWith("*") && type.startsWith(entry.item.slice(0, -1))),
        );
        expect(exclusion, `${type} is owned by a service or excluded as part of one`).toBeDefined();
        expect(["networking", "feature"]).toContain(exclusion!.reason);
        expect(catalogue.bySlug.get(exclusion!.of!)?.service.providerId).toBe(provider);
      }
      expect(owned, "most resources are owned outright").toBeGreaterThanOrEqual(Math.ceil(types.length / 2));
    });
  }
});

describe("terraformResources on a service entry", () => {
  it("takes lowercase provider_resource names only", () => {
    const entry = { slug: "x-y", name: "Y", category: "compute" };
    expect(ServiceEntry.safeParse({ ...entry, terraformResources: ["scaleway_instance_server"] }).success).toBe(true);
    for (const bad of ["Scaleway_Instance", "instance", "scaleway-instance-server", "_x"])
      expect(ServiceEntry.safeParse({ ...entry, terraformResources: [bad] }).success, bad).toBe(false);
  });

  it("gives each type one owning service, listed once", () => {
    const problems = terraformResourceProblems([
      { where: "a", slug: "p-a", types: ["p_one", "p_two", "p_one"] },
      { where: "b", slug: "p-b", types: ["p_two", "p_three"] },
      { where: "c", slug: "p-c", types: undefined },
    ]);
    expect(problems).toEqual([
      "a: field terraformResources: p_one is listed twice",
      "b: field terraformResources: p_two is already claimed by p-a; a type has one owning service",
    ]);
  });

  it("is shown on the text host's page (Markdown and ANSI) after the policy identifiers", () => {
    const doc = servicePage(realCatalogue(), "ovhcloud-managed-kubernetes");
    const markdown = renderMarkdown(doc).replaceAll("\\_", "_");
    expect(markdown).toMatch(
      /## Policy identifiers[\s\S]*## Terraform resource types[\s\S]*ovh_cloud_project_kube_nodepool/,
    );
    expect(renderAnsi(doc, false)).toContain("ovh_cloud_project_kube_nodepool");
    expect(renderMarkdown(servicePage(realCatalogue(), "aws-s3"))).not.toContain("Terraform resource types");
  });
});
