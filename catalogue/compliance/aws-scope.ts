/**
 * AWS's own compliance scope tables, read from the copies in catalogue/reference/aws-compliance/
 * ("Services in Scope by Compliance Program", the "HIPAA Eligible Services Reference" and "ISO and
 * CSA STAR Certifications and Services", saved 2022-07-15): which programme each table names which
 * AWS service for, and which catalogue
 * services those rows are. Pure functions over the pages' text; scripts/maintenance/aws-scope.ts writes the
 * result to catalogue/data/scope/aws.yaml and tests/catalogue/aws-scope.test.ts checks it.
 */

/** One row of a scope table: the service as AWS names it, its IAM prefix where the table gives one, the programmes ticked. */
export interface ScopeRow {
  readonly name: string;
  readonly prefix?: string;
  readonly programmes: readonly string[];
}

/**
 * Column headings of the services-in-scope tables → compliance.yaml ids. Columns not here (DoD CC
 * SRG, OSPAR, FINMA, GSMA, MTCS, "FedRAMP Not Required") have no id in the vocabulary, and the
 * page's HIPAA tab is left for the HIPAA reference page, which is the programme's own list.
 */
export const AWS_COLUMN_PROGRAMMES: Readonly<Record<string, readonly string[]>> = {
  "SOC 1,2,3": ["soc-1", "soc-2", "soc-3"],
  PCI: ["pci-dss"],
  ISMAP: ["ismap"],
  "FedRAMP Moderate (East/West)": ["fedramp-moderate"],
  "FedRAMP High (GovCloud)": ["fedramp-high"],
  "IRAP PROTECTED": ["irap"],
  C5: ["c5"],
  "K-ISMS": ["k-isms"],
  "ENS High": ["ens-high"],
  "HITRUST CSF": ["hitrust"],
};

/** Headings of the column that holds the IAM prefix ("SDKs" or "NAMESPACES*" on the page). */
const PREFIX_COLUMNS = new Set(["SDKs", "NAMESPACES*"]);
const TICK = "✓";

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** A cell's or item's text: tags dropped, entities decoded, white space collapsed. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, " ")
    .trim();
}

const cellsOf = (row: string) => [...row.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((m) => plainText(m[1]!));

/** The rows of one table whose first row is the "SERVICES / PROGRAMS" heading; [] for any other table. */
function tableRows(table: string): ScopeRow[] {
  const [heading, ...rows] = [...table.matchAll(/<tr[\s\S]*?<\/tr>/g)].map((m) => cellsOf(m[0]));
  if (!heading || heading[0]!.replace(/\s/g, "") !== "SERVICES/PROGRAMS") return [];
  const prefixColumn = heading.findIndex((cell) => PREFIX_COLUMNS.has(cell));
  const programmeColumns = heading.flatMap((cell, i) => (AWS_COLUMN_PROGRAMMES[cell] ? [i] : []));
  if (programmeColumns.length === 0) return [];
  return rows.flatMap((cells) => {
    const name = cells[0];
    if (!name) return [];
    const programmes = programmeColumns.flatMap((i) => (cells[i] === TICK ? AWS_COLUMN_PROGRAMMES[heading[i]!]! : []));
    const prefix = prefixColumn > 0 ? cells[prefixColumn] : undefined;
    return [{ name, ...(prefix ? { prefix } : {}), programmes }];
  });
}

/** Every row of every programme table on the services-in-scope page (one row per table a service is in). */
export function servicesInScopeRows(html: string): ScopeRow[] {
  return [...html.matchAll(/<table[\s\S]*?<\/table>/g)].flatMap((m) => tableRows(m[0]));
}

/** The ISO and CSA STAR certificates the ISO page names ("ISO/IEC 27001:2013, 27017:2015, …, and CSA STAR CCM") → compliance.yaml ids. */
const ISO_PAGE_CERTIFICATES: Readonly<Record<string, string>> = {
  "27001": "iso-27001",
  "27017": "iso-27017",
  "27018": "iso-27018",
  "27701": "iso-27701",
  "9001": "iso-9001",
  "22301": "iso-22301",
};

/**
 * The programmes the "ISO and CSA STAR Certifications and Services" page says its one table is in
 * scope of: the standards its opening sentence names ("certification for compliance with ISO/IEC
 * 27001:2013, 27017:2015, … and CSA STAR CCM v3.0.1"), read from the page so that a newer copy
 * naming another standard is read as it says.
 */
export function isoPageProgrammes(html: string): string[] {
  const text = plainText(html);
  const sentence = /certification for compliance with ([^.]*?\d)\s*\./.exec(text)?.[1] ?? "";
  const standards = [...sentence.matchAll(/\b(\d{4,5}):\d{4}\b/g)].flatMap((m) => ISO_PAGE_CERTIFICATES[m[1]!] ?? []);
  return [...new Set([...standards, ...(/CSA STAR/.test(sentence) ? ["csa-star"] : [])])];
}

/**
 * The services the ISO page lists (https://aws.amazon.com/compliance/iso-certified/): the rows of
 * its table headed "AWS Services | Namespaces*", each in scope of every programme the page names.
 */
export function isoCertifiedRows(html: string): ScopeRow[] {
  const programmes = isoPageProgrammes(html);
  const table = [...html.matchAll(/<table[\s\S]*?<\/table>/g)]
    .map((m) => [...m[0].matchAll(/<tr[\s\S]*?<\/tr>/g)].map((row) => cellsOf(row[0])))
    .find(([heading]) => heading?.[0] === "AWS Services");
  if (!table || programmes.length === 0) return [];
  return table.slice(1).flatMap((cells) => {
    const [name, prefix] = cells;
    return name ? [{ name, ...(prefix ? { prefix } : {}), programmes }] : [];
  });
}

/** The services the HIPAA reference page lists: the first list after its "Last Updated" line. */
export function hipaaEligibleRows(html: string): ScopeRow[] {
  const after = html.slice(html.indexOf("Last Updated"));
  const list = /<ul[^>]*>([\s\S]*?)<\/ul>/.exec(after)?.[1] ?? "";
  return [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => ({
    name: plainText(m[1]!),
    programmes: ["hipaa"],
  }));
}

/** The page's own date: "Last Updated: July 16, 2021" → 2021-07-16; undefined when it shows none. */
export function lastUpdatedOf(html: string): string | undefined {
  const found = /Last Updated:\s*([A-Z][a-z]+ \d{1,2}, \d{4})/.exec(plainText(html));
  if (!found) return undefined;
  const day = new Date(`${found[1]} 00:00:00 UTC`);
  return Number.isNaN(day.getTime()) ? undefined : day.toISOString().slice(0, 10);
}

/**
 * The keys a name is matched by: lowercased, "Amazon"/"AWS" and bracketed notes dropped, plus an
 * all-capitals abbreviation in parentheses ("Amazon Simple Queue Service (SQS)" → "simple queue
 * service", "sqs"). A mixed-case parenthesis ("Aurora (MySQL)") is a variant, never a key of its own.
 */
export function nameKeys(name: string): string[] {
  const keys = new Set<string>();
  for (const m of name.matchAll(/\(([A-Z][A-Z0-9 ]*[A-Z0-9])\)/g)) keys.add(m[1]!.toLowerCase());
  const base = name
    .replace(/\[[^\]]*\]|\([^)]*\)/g, " ")
    .replace(/^\s*(amazon|aws)\s+/i, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  if (base) keys.add(base);
  return [...keys];
}

/** What a catalogue AWS service is matched by: its names (name, short name, aliases). */
export interface ScopeCandidate {
  readonly slug: string;
  readonly names: readonly string[];
}

const RDS_ENGINES = ["aws-rds-postgresql", "aws-rds-mysql", "aws-rds-mariadb", "aws-rds-sql-server", "aws-rds-oracle"];

/**
 * Rows whose name the catalogue's names do not carry, by name key → catalogue slugs. A family AWS
 * lists once: "Amazon Relational Database Service (RDS)" covers the RDS engines of 2022 (RDS for Db2
 * came in 2023, so it is not among them; Aurora has rows of its own). A service renamed since 2022,
 * under its former name: the catalogue entry is the same product (and IAM prefix) renamed.
 */
export const AWS_ROW_SLUGS: Readonly<Record<string, readonly string[]>> = {
  "relational database service": RDS_ENGINES,
  rds: RDS_ENGINES,
  "elastic container service for kubernetes": ["aws-eks"],
  "kinesis data firehose": ["aws-data-firehose"],
  "kinesis firehose": ["aws-data-firehose"],
  "kinesis data analytics": ["aws-managed-flink"],
  "kinesis analytics": ["aws-managed-flink"],
  sagemaker: ["aws-sagemaker-ai"],
  quicksight: ["aws-quicksight"],
  "appstream 2.0": ["aws-workspaces-applications"],
  "single sign-on": ["aws-iam-identity-center"],
  "web application firewall": ["aws-waf"],
  "elastic mapreduce": ["aws-emr"],
  "s3 glacier": ["aws-glacier"],
  "cloudwatch events": ["aws-eventbridge"],
  "directory services": ["aws-directory-service"],
  "simple workflow": ["aws-swf"],
  "transfer for sftp": ["aws-transfer-family"],
  greengrass: ["aws-iot-greengrass"],
  "personal health dashboard": ["aws-health"],
  snowball: ["aws-snowball"],
  // The FSx family AWS lists once, as it lists RDS: Windows File Server, Lustre, ONTAP and OpenZFS
  // were all generally available by the copy's date (OpenZFS since 2021-11-30).
  fsx: ["aws-fsx-windows", "aws-fsx-lustre", "aws-fsx-ontap", "aws-fsx-openzfs"],
  // Amplify Console is AWS Amplify's hosting (now Amplify Hosting), inside the one product.
  "amplify console": ["aws-amplify"],
  // OpsWorks' three offerings are the one catalogue entry, retired since (so it carries none).
  "opsworks stacks": ["aws-opsworks"],
  "opsworks cm": ["aws-opsworks"],
  "opsworks for cm": ["aws-opsworks"],
  "opsworks for chef automate": ["aws-opsworks"],
  "opsworks for puppet enterprise": ["aws-opsworks"],
  "opsworks stacks for chef automate or aws opsworks for puppet enterprise": ["aws-opsworks"],
  // The table's singular for Elastic Load Balancing.
  "elastic load balancer": ["aws-elb"],
};

/**
 * Rows no catalogue service is, by name key, each with why (issue 124: every row of every table
 * lands on a service or is listed here). A row naming a feature of a service that has rows of its
 * own stays here: the row speaks of the feature, not of the whole service.
 */
export const AWS_UNMATCHED_ROWS: Readonly<Record<string, string>> = {
  chatbot: "AWS Chatbot, since renamed Amazon Q Developer in chat applications: a feature of aws-q-developer",
  cloudendure: "CloudEndure Disaster Recovery and Migration, retired; Elastic Disaster Recovery is another product",
  diode: "AWS Diode, a GovCloud cross-domain transfer offering with no public documentation",
  "managed services":
    "AWS Managed Services is an operations service run by AWS staff, not a cloud service the catalogue lists",
  "resource groups": "AWS Resource Groups, a console feature of tagging, excluded with the console's prefixes",
  "server migration service":
    "AWS Server Migration Service, retired in 2022 and succeeded by Application Migration Service",
  sms: "AWS Server Migration Service, retired in 2022 and succeeded by Application Migration Service",
  snowmobile: "AWS Snowmobile, retired in 2024",
  wavelength: "AWS Wavelength Zones are a kind of EC2 location, not a catalogue service",
  "vm import/export": "VM Import/Export, a feature of Amazon EC2 (the row says so)",
  "augmented ai": "Amazon Augmented AI (A2I), a feature of SageMaker AI (prefix sagemaker)",
  "elasticache for redis": "an engine of Amazon ElastiCache (the row says so), which has rows of its own",
  freertos: "FreeRTOS, an open-source embedded operating system, not a cloud service",
  "macie classic": "the retired first version of Amazon Macie",
  "s3 transfer acceleration": "a feature of Amazon S3",
  worklink: "Amazon WorkLink, retired in 2023",
  "iot things graph": "AWS IoT Things Graph, retired in 2022",
  "cloudwatch sdk metrics": "a feature of Amazon CloudWatch for Enterprise Support customers",
  "cloudwatch sdk metrics for enterprise support": "a feature of Amazon CloudWatch for Enterprise Support customers",
  "route 53 resolver": "a feature of Amazon Route 53, which has rows of its own",
  "alexa for business": "Alexa for Business, retired in 2024",
  "lambda@edge": "a feature of Amazon CloudFront and AWS Lambda, which have rows of their own",
  "managed aws landing zone": "a feature of AWS Managed Services (the row says so), not a catalogue service",
  "inter-region vpc peering": "a feature of Amazon VPC (the row says so), which has rows of its own",
  "auto scaling":
    "AWS Auto Scaling (scaling plans across services), not the catalogue's EC2 Auto Scaling, which has rows of its own",
};

/** The unmatched rows no AWS_UNMATCHED_ROWS entry explains, and the entries no unmatched row needs. */
export function unexplainedRows(unmatched: readonly ScopeRow[]): { rows: ScopeRow[]; stale: string[] } {
  const explained = (row: ScopeRow) => nameKeys(row.name).some((key) => Object.hasOwn(AWS_UNMATCHED_ROWS, key));
  const used = new Set(unmatched.flatMap((row) => nameKeys(row.name)));
  return {
    rows: unmatched.filter((row) => !explained(row)),
    stale: Object.keys(AWS_UNMATCHED_ROWS).filter((key) => !used.has(key)),
  };
}

/**
 * The services a row says it includes besides itself, in any of the tables' forms: "[includes X]",
 * "[includes X, Y]", "[Includes X and Y]", "(includes X)", "[including X and Y]", "(including X)".
 * "[excludes …]", "[feature of …]", "[both … launch types]" and engine lists add nothing.
 */
export function includedNames(name: string): string[] {
  return [...name.matchAll(/[[(]\s*includ(?:es|ing)\s+([^\])]*)[\])]/gi)].flatMap((m) =>
    m[1]!
      .split(/,|\band\b/)
      .map((part) => part.replace(/\s+/g, " ").trim())
      .filter(Boolean),
  );
}

/**
 * The catalogue services a row names, by name only: a row of AWS_ROW_SLUGS, or the services whose
 * name, short name or alias has the row's key. Never by IAM prefix alone: a prefix is shared by a
 * product's features and editions ("Amazon Augmented AI" is sagemaker, "ElastiCache for Redis" is
 * elasticache), and a row about one of them says nothing of the rest. A row noting what it includes
 * ("AWS Glue [includes AWS Lake Formation]", "Amazon CloudWatch Events (includes Amazon EventBridge)")
 * covers each service it names too (issue 124: only "[includes Amazon Aurora]" was read).
 */
export function servicesForRow(row: ScopeRow, candidates: readonly ScopeCandidate[]): string[] {
  const slugs = [row.name, ...includedNames(row.name)].flatMap((name) => servicesForName(name, candidates));
  return [...new Set(slugs)];
}

/** The catalogue services one name stands for: a row of AWS_ROW_SLUGS, else by name, short name or alias. */
function servicesForName(name: string, candidates: readonly ScopeCandidate[]): string[] {
  const keys = nameKeys(name);
  const listed = keys.flatMap((key) => AWS_ROW_SLUGS[key] ?? []);
  if (listed.length > 0) return listed;
  return candidates
    .filter((c) => c.names.some((each) => nameKeys(each).some((key) => keys.includes(key))))
    .map((c) => c.slug);
}

/** Programmes per catalogue slug from a set of rows, and the rows no catalogue service matched. */
export function programmesBySlug(
  rows: readonly ScopeRow[],
  candidates: readonly ScopeCandidate[],
): { bySlug: Map<string, Set<string>>; unmatched: ScopeRow[] } {
  const bySlug = new Map<string, Set<string>>();
  const unmatched: ScopeRow[] = [];
  for (const row of rows) {
    if (row.programmes.length === 0) continue;
    const slugs = servicesForRow(row, candidates);
    if (slugs.length === 0) unmatched.push(row);
    for (const slug of slugs) {
      const set = bySlug.get(slug) ?? new Set<string>();
      for (const programme of row.programmes) set.add(programme);
      bySlug.set(slug, set);
    }
  }
  return { bySlug, unmatched };
}

/** A catalogue AWS entry as the generator reads it. */
export interface ScopeEntry {
  readonly slug: string;
  readonly name: string;
  readonly shortName?: string | undefined;
  readonly aliases?: readonly string[] | undefined;
  readonly lifecycle?: { readonly status: string } | undefined;
}

/** A scope page: its id in the generated file, its address, the copy read and how to read its rows. */
export interface ScopePage {
  readonly id: string;
  readonly url: string;
  readonly html: string;
  readonly retrieved: string;
  /** The date of the copy when the page shows none of its own. */
  readonly copyDate: string;
  readonly via: string;
  readonly rowsOf: (html: string) => ScopeRow[];
}

/**
 * The text of data/scope/aws.yaml: the pages as sources, then one line per service with the
 * programmes each page names it for, and the rows no catalogue service matched (for the log).
 * Retired and preview services carry none (catalogue/data/README.md), whatever a 2022 table said.
 */
export function awsScopeFile(pages: readonly ScopePage[], entries: readonly ScopeEntry[]) {
  const candidates = entries.map((entry) => ({
    slug: entry.slug,
    names: [entry.name, ...(entry.shortName ? [entry.shortName] : []), ...(entry.aliases ?? [])],
  }));
  const barred = new Set(
    entries.filter((e) => e.lifecycle?.status === "retired" || e.lifecycle?.status === "preview").map((e) => e.slug),
  );
  const read = pages.map((page) => {
    const { bySlug, unmatched } = programmesBySlug(page.rowsOf(page.html), candidates);
    for (const slug of barred) bySlug.delete(slug);
    return { page, bySlug, unmatched, asOf: lastUpdatedOf(page.html) ?? page.copyDate };
  });
  const slugs = [...new Set(read.flatMap(({ bySlug }) => [...bySlug.keys()]))].sort();
  const lines = [
    "# Generated by scripts/maintenance/aws-scope.ts (npm run scope:aws) from catalogue/reference/aws-compliance/: do not edit.",
    "# Per AWS service, the programmes each scope page's tables name it for. A service or programme",
    "# missing here is not known (the copies are of mid-2022), never out of scope.",
    "sources:",
    ...read.flatMap(({ page, asOf }) => [
      `  - id: ${page.id}`,
      `    url: ${page.url}`,
      `    retrieved: ${page.retrieved}`,
      `    asOf: ${asOf}`,
      `    via: ${page.via}`,
    ]),
    "services:",
    ...slugs.map((slug) => {
      const byPage = read.flatMap(({ page, bySlug }) =>
        bySlug.has(slug) ? [`${page.id}: [${[...bySlug.get(slug)!].sort().join(", ")}]`] : [],
      );
      return `  ${slug}: { ${byPage.join(", ")} }`;
    }),
  ];
  return {
    text: `${lines.join("\n")}\n`,
    services: slugs.length,
    unmatched: read.flatMap(({ page, unmatched }) => unmatched.map((row) => ({ page: page.id, row }))),
  };
}
