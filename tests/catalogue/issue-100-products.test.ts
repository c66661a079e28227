/**
 * Issues 100 and 115: the products the catalogue lacked, each found by search in English and in a second
 * language (the second through catalogue/data/search-words.yaml where its own words are English),
 * and each in the groups whose job it does.
 */
import { describe, expect, it } from "vitest";
import { reconcileAll } from "../../catalogue/inventory/load.node.ts";
import { listServices } from "../../catalogue/search/query.ts";
import { realCatalogue } from "../helpers/app.ts";

const top = (query: string, n = 10) =>
  listServices(realCatalogue(), { q: query, page: 1, limit: n }).data.map((s) => s.slug);

/** slug → [an English query, a query in another language], each expected in the first ten. */
const FOUND_BY: Record<string, readonly [string, string]> = {
  "azure-horizondb": ["azure postgresql preview", "base de données postgresql azure"],
  "azure-sre-agent": ["incident investigation agent", "ki agent für vorfälle"],
  "gcp-firebase-app-hosting": ["next.js hosting", "hébergement next.js"],
  "gcp-firebase-sql-connect": ["firebase data connect", "base de datos graphql postgresql"],
  "gcp-firebase-studio": ["cloud ide", "entorno de desarrollo en la nube"],
  "cloudflare-r2-sql": ["sql iceberg", "sql abfragen iceberg"],
  "cloudflare-r2-data-catalog": ["iceberg catalog", "catalogue iceberg"],
  "hetzner-storage-share": ["nextcloud", "dateien teilen"],
  "ovhcloud-bare-metal-pod": ["secnumcloud bare metal", "serveur dédié secnumcloud"],
  "otc-application-operations-management": [
    "application operations management",
    "anwendungsüberwachung open telekom cloud",
  ],
  "otc-cloud-secret-management-service": ["otc secrets manager", "geheimnisse open telekom cloud"],
  // The launch sweep (issue 100's "2025–26 launches"): their own words are enough in the second
  // language, so search-words.yaml gained nothing for them.
  "azure-durable-task-scheduler": ["durable execution", "orchestration de workflows azure"],
  "azure-storage-discovery": ["blob storage insights", "speicheranalyse blob"],
  "gcp-parameter-manager": ["google cloud parameter store", "paramètres de configuration google"],
  "exoscale-dedicated-inference": ["dedicated inference", "ki inferenz gpu exoscale"],
  "azure-content-understanding": ["content understanding", "analyse multimodale de contenu azure"],
  "tencent-codebuddy": ["ai coding assistant tencent", "assistant de programmation ia tencent"],
  "tencent-adp": ["agent development platform", "KI Agenten Plattform tencent"],
  "alibaba-lingma": ["alibaba ai coding assistant", "assistant de code ia alibaba"],
  "cloudflare-email-sending": ["send email from workers", "e-mails versenden cloudflare"],
  // The sweep of NAVER Cloud, NHN Cloud, SAKURA and S3NS: SAKURA's entries carry the vendor's
  // Japanese names as aliases, so Japanese finds them.
  "naver-ncloud-storage": ["ncloud storage", "stockage objet naver"],
  "naver-maps": ["naver maps", "mapas naver"],
  "naver-api-hub": ["naver search api", "api de recherche naver"],
  "sakura-monitoring-suite": ["sakura monitoring", "モニタリングスイート"],
  "sakura-workflows": ["sakura workflows", "ワークフロー"],
  "sakura-api-gateway": ["sakura api gateway", "APIゲートウェイ"],
  "sakura-eventbus": ["sakura eventbus", "イベントバス"],
  "sakura-nosql": ["sakura cassandra", "base de données cassandra sakura"],
  "sakura-security-control": ["sakura security posture", "セキュリティコントロール"],
  // Issue 115: the products a reviewer looked for and did not find.
  "aws-quick": ["amazon quick suite", "agents ia amazon quick"],
  "azure-playwright-workspaces": ["playwright", "pruebas playwright azure"],
  "azure-container-storage": ["azure container storage", "stockage conteneurs azure"],
  "gcp-firebase-ai-logic": ["firebase ai logic", "gemini sdk für mobile apps"],
  "cloudflare-workers-vpc": ["workers vpc", "accès réseau privé workers cloudflare"],
  "cloudflare-sandbox": ["cloudflare sandboxes", "code ausführen sandbox cloudflare"],
  "akamai-functions": ["akamai functions", "webassembly funktionen akamai"],
  "akamai-firewall-for-ai": ["prompt injection protection", "pare-feu ia akamai"],
};

/** The groups each does the job of (its sources' descriptions say so). */
const GROUPS: Record<string, readonly string[]> = {
  "azure-horizondb": ["cloud-native-postgresql"],
  "azure-sre-agent": ["ai-operations-agent"],
  "gcp-firebase-app-hosting": ["paas-web-apps"],
  "gcp-firebase-studio": ["cloud-ide"],
  "cloudflare-r2-sql": ["serverless-query"],
  "cloudflare-r2-data-catalog": ["data-catalog-governance"],
  "ovhcloud-bare-metal-pod": ["bare-metal"],
  "otc-application-operations-management": ["monitoring-metrics"],
  "otc-cloud-secret-management-service": ["secrets-management"],
  "azure-durable-task-scheduler": ["workflow-orchestration"],
  "gcp-parameter-manager": ["app-configuration"],
  "azure-content-understanding": ["document-ai"],
  "tencent-codebuddy": ["ai-coding-assistant"],
  "tencent-adp": ["ai-agent-platform"],
  "alibaba-lingma": ["ai-coding-assistant"],
  "cloudflare-email-sending": ["email-sending"],
  "naver-ncloud-storage": ["object-storage"],
  "naver-maps": ["maps-location"],
  "sakura-monitoring-suite": ["monitoring-metrics", "logging"],
  "sakura-workflows": ["workflow-orchestration"],
  "sakura-api-gateway": ["api-management"],
  "sakura-nosql": ["wide-column-database"],
  "sakura-security-control": ["security-posture"],
  "akamai-functions": ["serverless-functions"],
  "akamai-firewall-for-ai": ["ai-guardrails"],
};

describe("issues 100 and 115: the products added", () => {
  for (const [slug, [english, other]] of Object.entries(FOUND_BY))
    it(`finds ${slug} in English ("${english}") and in another language ("${other}")`, () => {
      expect(realCatalogue().bySlug.has(slug)).toBe(true);
      expect(top(english), english).toContain(slug);
      expect(top(other), other).toContain(slug);
    });

  it("puts each in the groups whose job it does", () => {
    const groups = realCatalogue().groups;
    for (const [slug, ids] of Object.entries(GROUPS))
      for (const id of ids)
        expect(groups.find((group) => group.id === id)?.services, `${slug} in ${id}`).toContain(slug);
  });

  it("marks preview only where the vendor says so, and names the vendor's page", () => {
    const catalogue = realCatalogue();
    for (const slug of [
      "azure-horizondb",
      "cloudflare-r2-sql",
      "cloudflare-r2-data-catalog",
      "cloudflare-email-sending",
      "naver-ncloud-storage",
      "sakura-nosql",
      // Issue 115: beta on the vendor's page.
      "cloudflare-workers-vpc",
      "clevercloud-materia-kv",
    ]) {
      const service = catalogue.bySlug.get(slug)!.service;
      expect(service.lifecycle?.status, slug).toBe("preview");
      expect(
        catalogue.bySlug.get(slug)!.sources.some((source) => source.backs.includes("lifecycle")),
        slug,
      ).toBe(true);
    }
    for (const slug of [
      "azure-sre-agent",
      "gcp-firebase-app-hosting",
      "gcp-firebase-sql-connect",
      "azure-durable-task-scheduler",
      "azure-storage-discovery",
      "gcp-parameter-manager",
      "exoscale-dedicated-inference",
      "azure-content-understanding",
      "tencent-codebuddy",
      "tencent-adp",
      "alibaba-lingma",
      "naver-maps",
      "naver-api-hub",
      "sakura-monitoring-suite",
      "sakura-workflows",
      "sakura-api-gateway",
      "sakura-eventbus",
      "sakura-security-control",
    ])
      expect(catalogue.bySlug.get(slug)!.service.lifecycle, slug).toBeUndefined();
  });

  it("reads OTC's AOM 2.0, which hosts Prometheus instances, as Huawei Cloud's AOM does", () => {
    const catalogue = realCatalogue();
    const claims = (slug: string) => catalogue.bySlug.get(slug)!.compatibility.map((claim) => claim.id);
    expect(claims("otc-application-operations-management")).toContain("prometheus");
    expect(claims("huawei-aom")).toContain("prometheus");
  });

  it("reads Ncloud Storage as S3-, Monitoring Suite as Prometheus- and NoSQL as Cassandra-compatible, as their pages say", () => {
    const catalogue = realCatalogue();
    const claims = (slug: string) => catalogue.bySlug.get(slug)!.compatibility.map((claim) => claim.id);
    expect(claims("naver-ncloud-storage")).toContain("s3-api");
    expect(claims("sakura-monitoring-suite")).toContain("prometheus");
    expect(claims("sakura-nosql")).toContain("cassandra-cql");
  });

  it("moves R2's data catalog Terraform type to the catalog's own entry", () => {
    const catalogue = realCatalogue();
    expect(catalogue.bySlug.get("cloudflare-r2-data-catalog")!.terraformResources).toContain(
      "cloudflare_r2_data_catalog",
    );
    expect(catalogue.bySlug.get("cloudflare-r2")!.terraformResources).not.toContain("cloudflare_r2_data_catalog");
  });
});

describe("issue 100: the launch sweep's re-placed inventory items", () => {
  it("gives Azure's DurableTask and StorageDiscovery namespaces to their own products", () => {
    const catalogue = realCatalogue();
    const { reports } = reconcileAll(catalogue, undefined, []);
    const owners = reports.find((report) => report.id === "azure/resource-providers")!.owners;
    // Both were mapped by hand to the service they extend (Functions, Blob Storage) before.
    expect(owners.get("Microsoft.DurableTask")).toEqual(["azure-durable-task-scheduler"]);
    expect(owners.get("Microsoft.StorageDiscovery")).toEqual(["azure-storage-discovery"]);
  });
});

describe("issue 100: smaller fixes", () => {
  it("gives Tencent's Gateway Load Balancer its equivalents on other providers", () => {
    const record = realCatalogue().bySlug.get("tencent-gwlb")!;
    expect(record.groupIds).toContain("gateway-load-balancer");
    expect(record.equivalentSlugs).toEqual(expect.arrayContaining(["aws-elb", "azure-load-balancer", "alibaba-slb"]));
  });

  it("cites App & API Protector's own page for its identity, not another product's", () => {
    const sources = realCatalogue().bySlug.get("akamai-app-api-protector")!.sources;
    const identity = sources.filter((source) => source.backs.includes("identity"));
    expect(identity.map((source) => source.url)).toEqual([
      "https://techdocs.akamai.com/cloud-security/docs/apply-protections-to-your-api",
    ]);
  });

  it("says of CodeCommit, Snowball Edge, SimpleDB and Vertex AI only what their sources state", () => {
    const catalogue = realCatalogue();
    const description = (slug: string) => catalogue.bySlug.get(slug)!.service.description ?? "";
    const backing = (slug: string) =>
      catalogue.bySlug.get(slug)!.sources.filter((source) => source.backs.includes("description"));
    // No vendor page read says CodeCommit is back in general availability.
    expect(description("aws-codecommit")).not.toMatch(/general availability/i);
    expect(backing("aws-codecommit").length).toBeGreaterThan(0);
    // The API references say neither "rugged" nor "edge computing", nor "early" or "key-value".
    expect(description("aws-snowball")).not.toMatch(/rugged|edge computing/i);
    expect(description("aws-simpledb")).not.toMatch(/early|key-value/i);
    // Vertex AI's description no longer rests on Agent Builder's page, another product's.
    expect(backing("gcp-vertex-ai").map((source) => source.url)).not.toContain(
      "https://docs.cloud.google.com/agent-builder/overview",
    );
  });
});
