/**
 * Microsoft's FedRAMP and DoD scope table for Azure public (issue 124: scope tables read whole),
 * vendored in ../reference/azure-compliance/fedramp-azure-public.txt: each row's service, with the
 * forms the table writes beside a name — "(formerly X)", "(incl. A, B, and C)", "(part of X)",
 * "(replaced by X)", a product line before a colon ("Azure AI Foundry: Azure AI Speech") and the
 * footnote marks * — and which catalogue services each row names. Pure: the test reads the file.
 */

/** One row: the name as the table writes it, its former names, what it includes, its footnote marks. */
export interface AzureScopeRow {
  readonly cell: string;
  readonly name: string;
  readonly formerly: readonly string[];
  readonly includes: readonly string[];
  readonly footnotes: number;
}

/** The rows of the vendored table: every line that is no comment. */
export function azureScopeRows(text: string): AzureScopeRow[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((cell) => {
      const footnotes = /(\*+)\s*$/.exec(cell)?.[1]?.length ?? 0;
      let rest = cell.replace(/\s*\*+\s*$/, "");
      const formerly: string[] = [];
      const includes: string[] = [];
      for (const m of rest.matchAll(/\(([^()]*)\)/g)) {
        const inner = m[1]!.trim();
        const former = /^formerly\s+(.+)$/i.exec(inner)?.[1];
        const incl = /^incl\.\s+(.+)$/i.exec(inner)?.[1];
        if (former) formerly.push(former.trim());
        if (incl)
          includes.push(
            ...incl
              .split(/,\s*(?:and\s+)?|\s+and\s+/)
              .map((part) => part.trim())
              .filter(Boolean),
          );
      }
      // What the parentheses say is read above; a product line before a colon is no part of the name.
      rest = rest
        .replace(/\s*\((?:formerly|incl\.|part of|replaced by)[^()]*\)/gi, "")
        .replace(/^Azure AI (?:Foundry|services):\s*/, "")
        .trim();
      return { cell, name: rest, formerly, includes, footnotes };
    });
}

/** A name's key: lower case, "Azure " and "Microsoft " dropped, white space single. */
export const azureKey = (name: string): string =>
  name
    .toLowerCase()
    .replace(/^(?:microsoft azure|azure|microsoft)\s+/, "")
    .replace(/\s+/g, " ")
    .trim();

/**
 * Rows whose names the catalogue's names do not carry, by key → the catalogue services they are
 * (the table's own word for a product the catalogue names otherwise).
 */
export const AZURE_ROW_SLUGS: Readonly<Record<string, readonly string[]>> = {
  // Footnote *: "authorization for Microsoft Entra ID applies to Microsoft Entra External ID".
  "entra id (free)": ["azure-entra-id", "azure-entra-external-id"],
  "entra id (p1 + p2)": ["azure-entra-id"],
  "active directory b2c": ["azure-ad-b2c"],
  monitor: ["azure-monitor"],
  "cosmos db": ["azure-cosmos-db"],
  "kubernetes service (aks)": ["azure-kubernetes-service"],
  "ai search": ["azure-ai-search"],
  "storage: blobs": ["azure-blob-storage"],
  "storage: files": ["azure-files"],
  "storage: queues": ["azure-queue-storage"],
  "storage: tables": ["azure-table-storage"],
  "storage: disks": ["azure-disk-storage"],
  // The archive tier is Blob Storage's.
  "storage: archive": ["azure-blob-storage"],
  "data lake storage gen2": ["azure-data-lake-storage"],
  "bot service": ["azure-ai-bot-service"],
  "cloud services": ["azure-cloud-services-classic"],
  "cloud services extended support": ["azure-cloud-services-extended-support"],
  "ai computer vision": ["azure-ai-vision"],
  "ai language understanding (luis)": ["azure-ai-language-understanding"],
  "ai qna maker": ["azure-ai-qna-maker"],
  "ai speech": ["azure-ai-speech"],
  "ai translator": ["azure-ai-translator"],
  "ai document intelligence": ["azure-ai-document-intelligence"],
  // "(part of Azure AI Language)": Text Analytics is Language's.
  "text analytics": ["azure-ai-language"],
  "metrics advisor": ["azure-ai-metrics-advisor"],
  "video indexer": ["azure-ai-video-indexer"],
  "static webapps": ["azure-static-web-apps"],
  "arc-enabled servers": ["azure-arc"],
  "arc-enabled kubernetes": ["azure-arc"],
  "content delivery network (cdn)": ["azure-cdn"],
  "cost management and billing": ["azure-cost-management"],
  "sql database": ["azure-sql-database"],
  "virtual network nat": ["azure-nat-gateway"],
};

/** Rows no catalogue service is, by key, each with why (the list may only shrink as services are added). */
const SAAS =
  "a Microsoft SaaS product (Dynamics 365, Power Platform, Microsoft 365 or security), not an Azure cloud service the catalogue lists";
const FEATURE = "a feature or tool of Azure the catalogue does not list as a service";
export const AZURE_UNMATCHED_ROWS: Readonly<Record<string, string>> = {
  "ai builder": SAAS,
  "entra provisioning service": "a feature of Microsoft Entra ID (azure-entra-id)",
  "entra multifactor authentication": "a feature of Microsoft Entra ID (azure-entra-id)",
  "entra id governance": SAAS,
  "for education": "an offer for students and schools, not a service",
  "information protection": SAAS,
  "marketplace portal": FEATURE,
  "policy's guest configuration": "a feature of Azure Policy (azure-policy)",
  "service manager (rdfe)": "the classic deployment model's API, not a service the catalogue lists",
  "sign-up portal": FEATURE,
  sphere: "Azure Sphere, an IoT device platform the catalogue does not list",
  "stack edge":
    "Azure Stack Edge, an edge appliance the catalogue does not list (footnote ***: the Azure services supporting it)",
  "ai face": "Face, filed by Microsoft under Azure AI Vision's documentation; not a catalogue service of its own",
  containers: "Azure AI containers: container images of the Azure AI services, not a service of their own",
  "customer lockbox": FEATURE,
  dataverse: SAAS,
  "dedicated hsm": "Azure Dedicated HSM, not in the catalogue (Cloud HSM and Payment HSM are)",
  "omnichannel for customer service": SAAS,
  "dynamics 365 commerce": SAAS,
  "dynamics 365 contact center": SAAS,
  "dynamics 365 customer service": SAAS,
  "dynamics 365 field service": SAAS,
  "dynamics 365 finance": SAAS,
  "dynamics 365 fraud protection": SAAS,
  "dynamics 365 guides": SAAS,
  "dynamics 365 sales": SAAS,
  "dynamics 365 human resources": SAAS,
  "dynamics 365 intelligent order management": SAAS,
  "dynamics 365 project operations": SAAS,
  "dynamics 365 sales professional": SAAS,
  "dynamics 365 supply chain management": SAAS,
  "global secure access": SAAS,
  "immersive reader": "Immersive Reader, an Azure AI tool not in the catalogue",
  "internet analyzer": "Internet Analyzer, retired preview, not in the catalogue",
  portal: FEATURE,
  "defender for cloud apps": SAAS,
  "defender for endpoint": SAAS,
  "defender for identity": SAAS,
  "defender for iot": SAAS,
  "defender vulnerability management": SAAS,
  "defender threat intelligence": SAAS,
  graph: "Microsoft Graph, Microsoft 365's API, not an Azure service the catalogue lists",
  intune: SAAS,
  "managed desktop": SAAS,
  "pin reset service": SAAS,
  "secure score": SAAS,
  "security copilot": SAAS,
  stream: SAAS,
  "threat experts": SAAS,
  "open datasets": "Azure Open Datasets, public data sets, not a service the catalogue lists",
  "peering service": "Azure Peering Service, not in the catalogue",
  "planned maintenance for vms": "a feature of Azure Virtual Machines",
  "power apps": SAAS,
  "power pages": SAAS,
  "power automate": SAAS,
  "power bi": SAAS,
  "power data integrator for dataverse": SAAS,
  "copilot studio": SAAS,
  "public ip": "a feature of Azure Virtual Network",
  "resource mover": "Azure Resource Mover, not in the catalogue",
  scheduler: "Azure Scheduler, retired and replaced by Logic Apps (the row says so)",
  "sql server stretch database": "SQL Server Stretch Database, a SQL Server feature, retired",
  storsimple: "StorSimple, retired",
  "windows 10 iot core services": "Windows 10 IoT Core Services, not in the catalogue",
};

/** The unmatched rows no AZURE_UNMATCHED_ROWS entry explains, and the entries no unmatched row needs. */
export function unexplainedAzureRows(unmatched: readonly AzureScopeRow[]): { rows: string[]; stale: string[] } {
  const keys = new Set(unmatched.map((row) => azureKey(row.name)));
  return {
    rows: [...keys].filter((key) => !Object.hasOwn(AZURE_UNMATCHED_ROWS, key)),
    stale: Object.keys(AZURE_UNMATCHED_ROWS).filter((key) => !keys.has(key)),
  };
}

/** The catalogue services one name stands for: a row of AZURE_ROW_SLUGS, else by name, short name or alias. */
export function azureServicesForName(
  name: string,
  candidates: readonly { readonly slug: string; readonly names: readonly string[] }[],
): string[] {
  const key = azureKey(name);
  if (AZURE_ROW_SLUGS[key]) return [...AZURE_ROW_SLUGS[key]];
  return candidates.filter((c) => c.names.some((each) => azureKey(each) === key)).map((c) => c.slug);
}

/** The catalogue services a row lands on: its name, its former names and what it includes. */
export function azureServicesForRow(
  row: AzureScopeRow,
  candidates: readonly { readonly slug: string; readonly names: readonly string[] }[],
): string[] {
  return [
    ...new Set([row.name, ...row.formerly, ...row.includes].flatMap((name) => azureServicesForName(name, candidates))),
  ];
}
