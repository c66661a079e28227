/**
 * Azure's and Google Cloud's per-service regions (issue 97): how the vendored availability data
 * (inventory/data/<provider>/locations) becomes each service's regions (service-regions.node.ts),
 * and the real catalogue's regions against the vendored files, read here independently.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  claimRegions,
  itemRegions,
  readServiceRegions,
  reconcileRegionItems,
  uncoveredProblems,
  type RegionsFileT,
} from "../../catalogue/inventory/service-regions.node.ts";
import { DEFAULT_INVENTORY_DIR } from "../../catalogue/inventory/load.node.ts";
import { locationLines, locationProblems } from "../../catalogue/quality/locations.ts";
import { regionsSection } from "../../catalogue/render/regions.ts";
import { realCatalogue } from "../helpers/catalogue.ts";

const AZURE_FILE: RegionsFileT = {
  origin: "test",
  locationSets: [["eastus", "westeurope"], ["global", "europe"], ["europe"]],
  items: {
    "microsoft.containerservice/managedclusters": 0,
    "microsoft.web/sites": ["westeurope", "eastus2euap"],
    "microsoft.communication/communicationservices": 1,
    "microsoft.insights/geographic": 2,
  },
};
const LISTED = new Set(["eastus", "westeurope"]);

describe("claimRegions", () => {
  it("gives an Azure service the listed locations of the resource types it names, case-insensitively", () => {
    const claimed = claimRegions(
      "azure",
      AZURE_FILE,
      {},
      [
        {
          slug: "azure-aks",
          providerId: "azure",
          policyIdentifiers: { resourceTypes: ["Microsoft.ContainerService/managedClusters"] },
        },
        {
          slug: "azure-web",
          providerId: "azure",
          policyIdentifiers: { resourceTypes: ["Microsoft.Web/sites", "Microsoft.Web/unknown"] },
        },
        {
          slug: "azure-acs",
          providerId: "azure",
          policyIdentifiers: { resourceTypes: ["Microsoft.Communication/CommunicationServices"] },
        },
        {
          slug: "azure-geo",
          providerId: "azure",
          policyIdentifiers: { resourceTypes: ["Microsoft.Insights/geographic"] },
        },
        {
          slug: "azure-none",
          providerId: "azure",
          policyIdentifiers: { resourceTypes: ["Microsoft.Network/virtualNetworks"] },
        },
        { slug: "gcp-gke", providerId: "gcp", policyIdentifiers: { resourceTypes: ["Microsoft.Web/sites"] } },
      ],
      LISTED,
    );
    expect(claimed.services).toEqual({
      "azure-aks": {
        prefixes: ["microsoft.containerservice/managedclusters"],
        regions: ["eastus", "westeurope"],
        globalIn: [],
      },
      // A canary location the provider does not list (eastus2euap) is dropped.
      "azure-web": { prefixes: ["microsoft.web/sites"], regions: ["westeurope"], globalIn: [] },
      // "global" and no listed region: answered from Azure's global location (kind global).
      "azure-acs": { prefixes: ["microsoft.communication/communicationservices"], regions: [], globalIn: ["global"] },
    });
    // Only a geography: no region to place it in, so the provider's list applies.
    expect(claimed.unplaced).toEqual(["azure-geo"]);
    expect(claimed.unclaimed).toBe(0);
  });

  it("claims Google products only through map.yaml, several slugs per product allowed", () => {
    const file: RegionsFileT = {
      origin: "test",
      items: { "Cloud SQL": ["europe-west1", "us-central1"], "Cloud Run": ["europe-west1"], E: ["africa-south1"] },
    };
    const services = ["gcp-cloud-sql-mysql", "gcp-cloud-sql-postgresql", "gcp-cloud-run"].map((slug) => ({
      slug,
      providerId: "gcp",
      policyIdentifiers: { resourceTypes: ["Cloud Run"] },
    }));
    const claimed = claimRegions(
      "gcp",
      file,
      { "Cloud SQL": ["gcp-cloud-sql-mysql", "gcp-cloud-sql-postgresql"] },
      services,
      new Set(["europe-west1", "us-central1", "africa-south1"]),
    );
    expect(Object.keys(claimed.services)).toEqual(["gcp-cloud-sql-mysql", "gcp-cloud-sql-postgresql"]);
    expect(claimed.services["gcp-cloud-sql-mysql"]!.regions).toEqual(["europe-west1", "us-central1"]);
    expect(claimed.unclaimed).toBe(2);
  });

  it("refuses a mapping whose rows leave a region unknown, unless another row of the service covers it", () => {
    const file: RegionsFileT = {
      origin: "test",
      notInTable: {
        "Virtual Private Cloud (VPC)": ["europe-west1"],
        "Virtual Private Cloud": ["us-central1"],
        "NetApp Volumes": ["europe-west1"],
      },
      items: {
        "Virtual Private Cloud (VPC)": ["us-central1"],
        "Virtual Private Cloud": ["europe-west1"],
        "NetApp Volumes": ["us-central1"],
      },
    };
    const map = {
      "Virtual Private Cloud (VPC)": "gcp-vpc",
      "Virtual Private Cloud": "gcp-vpc",
      "NetApp Volumes": "gcp-netapp-volumes",
    };
    expect(uncoveredProblems("at", file, map)).toEqual([
      "at/map.yaml: gcp-netapp-volumes: no row of NetApp Volumes has a cell for europe-west1, so its regions there are not known; leave it unmapped (provider level)",
    ]);
  });

  it("refuses a location-set index that is not there", () => {
    expect(() => itemRegions({ origin: "t", locationSets: [], items: { a: 3 } }, "a")).toThrow(/location set 3/);
  });
});

describe("reconcileRegionItems", () => {
  const origin = (provider: "azure" | "gcp") => ({
    provider,
    title: "t",
    repository: "https://github.com/example/data",
    path: "p",
    commit: "a".repeat(40),
    asOf: "2025-10-04",
    retrieved: "2026-11-28",
    licence: "MIT",
    note: "n",
  });
  const file: RegionsFileT = {
    origin: "test",
    items: {
      "microsoft.web/sites": ["westeurope"],
      "microsoft.web/sites/slots": ["westeurope"],
      "microsoft.web/operations": ["global"],
      "microsoft.foo/bars": ["eastus"],
    },
  };
  const services = [
    { slug: "azure-app-service", providerId: "azure", policyIdentifiers: { resourceTypes: ["Microsoft.Web/sites"] } },
  ];

  it("counts an Azure item claimed, excluded (case-insensitively, by pattern) or unreconciled", () => {
    const report = reconcileRegionItems(
      origin("azure"),
      file,
      {},
      [
        { item: "Microsoft.Web/sites/*", reason: "feature", of: "azure-app-service", note: "child types" },
        { item: "microsoft.web/operations", reason: "internal", note: "an endpoint" },
      ],
      services,
    );
    expect({ mapped: report.mapped, excluded: report.excluded, unreconciled: report.unreconciled }).toEqual({
      mapped: 1,
      excluded: 2,
      unreconciled: ["microsoft.foo/bars"],
    });
    expect(report.problems).toEqual([]);
  });

  it("reports an exclusion naming no item, one contradicting a claim, and an unknown slug", () => {
    const report = reconcileRegionItems(
      origin("azure"),
      file,
      {},
      [
        { item: "microsoft.gone/*", reason: "internal", note: "stale" },
        { item: "microsoft.web/sites", reason: "internal", note: "claimed" },
        { item: "microsoft.foo/bars", reason: "feature", of: "azure-nothing" },
      ],
      services,
    );
    expect(report.problems).toEqual([
      "azure/locations/exclusions.yaml: microsoft.gone/*: names no item of regions.json (stale)",
      "azure/locations/exclusions.yaml: microsoft.web/sites: is mapped to azure-app-service; remove the exclusion or the mapping",
      'azure/locations/exclusions.yaml: microsoft.foo/bars: unknown service slug "azure-nothing"',
    ]);
  });

  it("claims Google rows through map.yaml only, and compares its exclusions exactly", () => {
    const gcp: RegionsFileT = { origin: "t", items: { "Cloud Run": ["europe-west1"], E: ["africa-south1"] } };
    const report = reconcileRegionItems(
      origin("gcp"),
      gcp,
      { "Cloud Run": "gcp-cloud-run" },
      [{ item: "e", reason: "not-placeable", note: "a footnote" }],
      [{ slug: "gcp-cloud-run", providerId: "gcp" }],
    );
    expect(report.mapped).toBe(1);
    expect(report.unreconciled).toEqual(["E"]);
  });
});

describe("readServiceRegions", () => {
  const ORIGIN = [
    "provider: gcp",
    "title: t",
    "repository: https://github.com/GoogleCloudPlatform/region-picker",
    "path: data/products.json",
    `commit: ${"a".repeat(40)}`,
    "asOf: 2025-04-27",
    "retrieved: 2026-11-28",
    "licence: Apache-2.0",
    "note: n",
  ].join("\n");

  function folder(map: string, origin = ORIGIN): string {
    const dir = mkdtempSync(join(tmpdir(), "service-regions-"));
    mkdirSync(join(dir, "gcp", "locations"), { recursive: true });
    writeFileSync(join(dir, "gcp", "locations", "origin.yaml"), origin);
    writeFileSync(join(dir, "gcp", "locations", "map.yaml"), map);
    writeFileSync(
      join(dir, "gcp", "locations", "regions.json"),
      JSON.stringify({ origin: "t", items: { "Cloud Run": ["europe-west1"] } }),
    );
    return dir;
  }
  const services = [{ slug: "gcp-cloud-run", providerId: "gcp" }];

  it("reports a map entry naming no item or an unknown service, and an origin.yaml that does not validate", () => {
    const problems: string[] = [];
    readServiceRegions(
      folder("Cloud Runn: gcp-cloud-run\nCloud Run: gcp-nothing\n"),
      "gcp",
      services,
      new Set(["europe-west1"]),
      problems,
    );
    expect(problems).toEqual([
      "inventory gcp/locations/map.yaml: Cloud Runn is no item of regions.json",
      "inventory gcp/locations/map.yaml: Cloud Run maps to unknown service gcp-nothing",
    ]);
    const bad: string[] = [];
    expect(
      readServiceRegions(folder("", ORIGIN.replace("licence: Apache-2.0\n", "")), "gcp", services, new Set(), bad),
    ).toBeUndefined();
    expect(bad.join("\n")).toMatch(/origin\.yaml: licence/);
  });

  it("reads exclusions.yaml: its items excluded, what is left unreconciled, a bad entry a problem", () => {
    const dir = folder("");
    writeFileSync(
      join(dir, "gcp", "locations", "regions.json"),
      JSON.stringify({
        origin: "t",
        items: { "Cloud Run": ["europe-west1"], E: ["europe-west1"], N: ["europe-west1"] },
      }),
    );
    writeFileSync(
      join(dir, "gcp", "locations", "exclusions.yaml"),
      "- {item: E, reason: not-placeable, note: a footnote}\n",
    );
    const problems: string[] = [];
    const data = readServiceRegions(dir, "gcp", services, new Set(["europe-west1"]), problems)!;
    expect({ excluded: data.excluded, unreconciled: data.unreconciled, problems }).toEqual({
      excluded: 1,
      unreconciled: ["Cloud Run", "N"],
      problems: [],
    });
    writeFileSync(join(dir, "gcp", "locations", "exclusions.yaml"), "- {item: E, reason: feature}\n");
    const bad: string[] = [];
    expect(readServiceRegions(dir, "gcp", services, new Set(), bad)).toBeUndefined();
    expect(bad.join("\n")).toMatch(/exclusions\.yaml: 0: reason feature needs of: <slug>/);
  });

  it("is undefined for a data folder without the provider's file", () => {
    const problems: string[] = [];
    expect(readServiceRegions(mkdtempSync(join(tmpdir(), "none-")), "azure", [], new Set(), problems)).toBeUndefined();
    expect(problems).toEqual([]);
  });
});

describe("the real catalogue against the vendored files", () => {
  const catalogue = realCatalogue();
  const vendored = (provider: string) =>
    JSON.parse(
      readFileSync(join(DEFAULT_INVENTORY_DIR, provider, "locations", "regions.json"), "utf8"),
    ) as RegionsFileT;
  const regionsOf = (slug: string) => catalogue.bySlug.get(slug)!.regions;
  const listedIn = (provider: string, ids: readonly string[]) => {
    const listed = new Set(catalogue.providerById.get(provider)!.regions.map(({ id }) => id));
    return ids.filter((id) => listed.has(id)).sort();
  };

  it("places AKS and SQL Database where ARM lists their resource types", () => {
    const azure = vendored("azure");
    const aks = itemRegions(azure, "microsoft.containerservice/managedclusters");
    expect(aks).toContain("germanywestcentral");
    expect(
      regionsOf("azure-kubernetes-service")
        .map(({ id }) => id)
        .sort(),
    ).toEqual(listedIn("azure", aks));
    expect(regionsOf("azure-kubernetes-service").every(({ level }) => level === "service")).toBe(true);
    const sql = ["microsoft.sql/servers", "microsoft.sql/servers/databases"].flatMap((item) =>
      itemRegions(azure, item),
    );
    expect(
      regionsOf("azure-sql-database")
        .map(({ id }) => id)
        .sort(),
    ).toEqual(listedIn("azure", [...new Set(sql)]));
  });

  it("places Cloud Run and VMware Engine where the locations page marks them, and no further", () => {
    const gcp = vendored("gcp");
    expect(
      regionsOf("gcp-cloud-run")
        .map(({ id }) => id)
        .sort(),
    ).toEqual(listedIn("gcp", itemRegions(gcp, "Cloud Run")));
    const vmware = regionsOf("gcp-vmware-engine").map(({ id }) => id);
    expect(vmware.sort()).toEqual(listedIn("gcp", itemRegions(gcp, "Google Cloud VMware Engine")));
    expect(vmware.length).toBeLessThan(catalogue.providerById.get("gcp")!.regions.length);
    expect(vmware).not.toContain("europe-west1");
  });

  it("leaves at provider level what the data cannot place (Microsoft.Network, absent from the mirror), and answers global-only types as global", () => {
    expect(regionsOf("azure-virtual-network").every(({ level }) => level === "provider")).toBe(true);
    expect(catalogue.bySlug.get("azure-communication-services")!.placement?.kind).toBe("global");
    expect(regionsOf("azure-communication-services")).toEqual([]);
  });

  it("reports per provider what the data places, and finds no service it places in no listed region", () => {
    const lines = locationLines(catalogue).join("\n");
    expect(lines).toMatch(
      /azure availability data \(https:\/\/github\.com\/Azure\/PSRule\.Rules\.Azure .*\): \d+ items, \d+ claimed, \d+ excluded, 0 unreconciled/,
    );
    expect(lines).toMatch(/gcp availability data \(.*\): \d+ items, \d+ claimed, \d+ excluded, 0 unreconciled/);
    expect(lines).toMatch(/gcp locations the data names that providers\/gcp\.yaml does not list .*: none/);
    expect(locationProblems(catalogue).filter((line) => line.includes("availability data"))).toEqual([]);
  });

  it("claims or excludes every item of each dataset, and fails check:data on one that is neither", () => {
    const data = catalogue.source.vendorRegions ?? [];
    expect(data.map(({ provider }) => provider).sort()).toEqual(["azure", "gcp", "otc", "scaleway"]);
    for (const provider of data) {
      expect({ provider: provider.provider, unreconciled: provider.unreconciled }).toEqual({
        provider: provider.provider,
        unreconciled: [],
      });
      expect(provider.itemCount - provider.unclaimed + provider.excluded).toBe(provider.itemCount);
    }
    const withGap = {
      ...catalogue,
      source: {
        ...catalogue.source,
        vendorRegions: data.map((entry) =>
          entry.provider === "gcp" ? { ...entry, unreconciled: ["Some Product"] } : entry,
        ),
      },
    };
    expect(locationProblems(withGap)).toContain(
      'LOCATIONS: gcp/locations: "Some Product" is neither claimed by a service nor excluded (name it in a service\'s policyIdentifiers or map.yaml, or in exclusions.yaml with a reason)',
    );
    expect(locationProblems(catalogue).filter((line) => line.includes("/locations:"))).toEqual([]);
  });

  it("says on the service page which kind of place it is, where the list comes from and its date", () => {
    expect(regionsSection(catalogue, "azure-kubernetes-service").level).toMatch(
      /^\d+ regions, per service from Azure Resource Manager's locations of the resource types it names \(https:\/\/github\.com\/Azure\/PSRule\.Rules\.Azure .*as of 2025-10-04.*\), as of 2025-10-04; a region opened since is not named\.$/,
    );
    expect(regionsSection(catalogue, "gcp-cloud-run").level).toMatch(
      /per service from Google Cloud's locations page, by product .*, as of 2025-04-27/,
    );
    expect(regionsSection(catalogue, "azure-virtual-network").level).toMatch(
      /^Provider level: Azure's per-service data the catalogue reads \(.*\) does not place this service in a region.*no filter counts it as running there\.$/,
    );
    expect(regionsSection(catalogue, "aws-s3").level).toMatch(
      /per service from AWS's SDK endpoint metadata .*, as of 2026-08-07/,
    );
    expect(regionsSection(catalogue, "hetzner-cloud-servers").level).toMatch(
      /^Provider level: Hetzner publishes no per-service region list .* \(as of \d{4}-\d{2}-\d{2}\)/,
    );
    expect(regionsSection(catalogue, "aws-iam").level).toMatch(
      /^Global: answered from AWS's global endpoint, not chosen per region; AWS names us-east-1 for it/,
    );
    expect(regionsSection(catalogue, "aws-iam").rows).toEqual([["US", "us-east-1"]]);
  });
});
