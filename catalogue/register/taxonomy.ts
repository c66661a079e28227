/**
 * The register's templates as the ITS and the ESAs' taxonomy define them: template and column codes
 * and names (Commission Implementing Regulation (EU) 2024/2956, Annex I), the taxonomy's members
 * of each closed list with the ITS's words for them (Annex I and III), each table's CSV file, keys
 * and references (EBA DORA taxonomy 4.0). The vendored copies these are checked against, with their
 * origin: ../reference/dora/ (tests/register/taxonomy.test.ts compares them).
 */
import type { RegisterTemplateId } from "../schema/register.ts";

/** The module the report package's report.json extends (dora.json of the EBA's DORA taxonomy 4.0). */
export const TAXONOMY_ENTRY_POINT = "http://www.eba.europa.eu/eu/fr/xbrl/crr/fws/dora/4.0/mod/dora.json";
export const REGULATION = "Commission Implementing Regulation (EU) 2024/2956 (CELEX 32024R2956)";
export const REPORT_PACKAGE_TYPE = "https://xbrl.org/report-package/2023";
export const XBRL_CSV_TYPE = "https://xbrl.org/2021/xbrl-csv";

/** A column: its ITS name, the taxonomy's data type, and the members it allows (enumerations). */
export interface ColumnSpec {
  readonly code: string;
  readonly name: string;
  /** s string, e enumeration, d date, i integer, m monetary (the taxonomy's "type"). */
  readonly type: "s" | "e" | "d" | "i" | "m";
  /** The allowed members; "GA" for the country list (GA_COUNTRIES), "CU" for currencies. */
  readonly allowed?: readonly string[] | "GA" | "CU";
  /** Columns whose value is an identification code whose type another column gives. */
  readonly codeTypeIn?: string;
}

export interface TemplateSpec {
  readonly id: RegisterTemplateId;
  /** The taxonomy's template code (B_05-01) and the table's CSV file in the package. */
  readonly tableTemplate: string;
  readonly file: string;
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly primary: readonly string[];
  /** References between templates (tc:keys), with the taxonomy's names for them. */
  readonly references: readonly {
    columns: readonly string[];
    to: string;
    toColumns: readonly string[];
    name: string;
  }[];
}

const TYPE_OF_CODE = [
  "eba_qCO:qx2000",
  "eba_qCO:qx2001",
  "eba_qCO:qx2002",
  "eba_qCO:qx2003",
  "eba_qCO:qx2004",
  "eba_qCO:qx2005",
];
/** eba_qCO:qx2000 is the LEI (the domain's label: "LEI code type"). */
export const LEI_CODE_TYPE = "eba_qCO:qx2000";
export const SERVICE_TYPE_MEMBERS = Array.from({ length: 19 }, (_, i) => `eba_TA:S${String(i + 1).padStart(2, "0")}`);
export const YES = "eba_BT:x28";
export const NO = "eba_BT:x29";
export const LEGAL_PERSON = "eba_CT:x212";
/** B_07.01 c0050, in the ITS's order; c0060's reasons likewise. */
export const SUBSTITUTABILITY = {
  not: "eba_ZZ:x959",
  highlyComplex: "eba_ZZ:x960",
  medium: "eba_ZZ:x961",
  easy: "eba_ZZ:x962",
} as const;
export const SUBSTITUTABILITY_REASON = {
  noAlternatives: "eba_ZZ:x963",
  migration: "eba_ZZ:x964",
  both: "eba_ZZ:x965",
} as const;

/** The ITS's words for the members the register writes (its-2024-2956.yaml). */
export const MEMBER_LABELS: ReadonlyMap<string, string> = new Map([
  [LEI_CODE_TYPE, "LEI"],
  [LEGAL_PERSON, "Legal person"],
  ["eba_CT:x213", "Individual"],
  [YES, "Yes"],
  [NO, "No"],
  [SUBSTITUTABILITY.not, "Not substitutable"],
  [SUBSTITUTABILITY.highlyComplex, "Highly complex substitutability"],
  [SUBSTITUTABILITY.medium, "Medium complexity in terms of substitutability"],
  [SUBSTITUTABILITY.easy, "Easily substitutable"],
  [SUBSTITUTABILITY_REASON.noAlternatives, "The lack of real alternatives"],
  [
    SUBSTITUTABILITY_REASON.migration,
    "Difficulties in relation to partial or full migration of the data and workloads",
  ],
  [SUBSTITUTABILITY_REASON.both, "Both reasons"],
]);

/** Annex III: the types of ICT services, S01 to S19. */
export const SERVICE_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ["S01", "ICT project management"],
  ["S02", "ICT Development"],
  ["S03", "ICT help desk and first level support"],
  ["S04", "ICT security management services"],
  ["S05", "Provision of data"],
  ["S06", "Data analysis"],
  ["S07", "ICT, facilities and hosting services (excluding Cloud services)"],
  ["S08", "Computation"],
  ["S09", "Non-Cloud Data storage"],
  ["S10", "Telecom carrier"],
  ["S11", "Network infrastructure"],
  ["S12", "Hardware and physical devices"],
  ["S13", "Software licencing (excluding SaaS)"],
  ["S14", "ICT operation management (including maintenance)"],
  ["S15", "ICT Consulting"],
  ["S16", "ICT Risk management"],
  ["S17", "Cloud services: IaaS"],
  ["S18", "Cloud services: PaaS"],
  ["S19", "Cloud services: SaaS"],
]);

/** The ISO 3166-1 codes of the taxonomy's GA domain (eba-ga-members.txt, less its x28). */
export const GA_COUNTRIES: ReadonlySet<string> = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ " +
    "BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR " +
    "CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU " +
    "ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ " +
    "LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ " +
    "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF " +
    "PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI " +
    "SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR " +
    "TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW "
  )
    .trim()
    .split(" "),
);

/** The four templates, as the ITS lists their columns and the taxonomy types and keys them. */
export const TEMPLATES: readonly TemplateSpec[] = [
  {
    id: "B_05.01",
    tableTemplate: "B_05-01",
    file: "b_05.01.csv",
    name: "ICT third-party service providers",
    columns: [
      {
        code: "c0010",
        name: "Identification code of ICT third-party service provider",
        type: "s",
        codeTypeIn: "c0020",
      },
      {
        code: "c0020",
        name: "Type of code to identify the ICT third-party service provider",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
      {
        code: "c0030",
        name: "Additional identification code of ICT third-party service provider",
        type: "s",
        codeTypeIn: "c0040",
      },
      {
        code: "c0040",
        name: "Type of additional identification code of the ICT third-party service provider",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
      { code: "c0050", name: "Legal name of the ICT third-party service provider", type: "s" },
      { code: "c0060", name: "Name of the ICT third-party service provider in Latin alphabet", type: "s" },
      {
        code: "c0070",
        name: "Type of person of the ICT third-party service provider",
        type: "e",
        allowed: [LEGAL_PERSON, "eba_CT:x213"],
      },
      {
        code: "c0080",
        name: "Country of the ICT third-party service provider's headquarters",
        type: "e",
        allowed: "GA",
      },
      { code: "c0090", name: "Currency of the amount reported in RT.05.01.0100", type: "e", allowed: "CU" },
      {
        code: "c0100",
        name: "Total annual expense or estimated cost of the ICT third-party service provider",
        type: "m",
      },
      {
        code: "c0110",
        name: "Identification code of the ICT third-party service provider's ultimate parent undertaking",
        type: "s",
        codeTypeIn: "c0120",
      },
      {
        code: "c0120",
        name: "Type of code to identify the ICT third-party service provider's ultimate parent undertaking",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
    ],
    primary: ["c0010"],
    references: [
      { columns: ["c0110"], to: "B_05.01", toColumns: ["c0010"], name: "R18 - Identification code must match_B_05.01" },
    ],
  },
  {
    id: "B_02.02",
    tableTemplate: "B_02-02",
    file: "b_02.02.csv",
    name: "Contractual arrangements – specific information",
    columns: [
      { code: "c0010", name: "Contractual arrangement reference number", type: "s" },
      { code: "c0020", name: "LEI of the entity making use of the ICT service(s)", type: "s" },
      {
        code: "c0030",
        name: "Identification code of the ICT third-party service provider",
        type: "s",
        codeTypeIn: "c0040",
      },
      {
        code: "c0040",
        name: "Type of code to identify the ICT third-party service provider",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
      { code: "c0050", name: "Function identifier", type: "s" },
      { code: "c0060", name: "Type of ICT services", type: "e", allowed: SERVICE_TYPE_MEMBERS },
      { code: "c0070", name: "Start date of the contractual arrangement", type: "d" },
      { code: "c0080", name: "End date of the contractual arrangement", type: "d" },
      {
        code: "c0090",
        name: "Reason of the termination or ending of the contractual arrangement",
        type: "e",
        allowed: ["eba_CO:x4", "eba_CO:x5", "eba_CO:x6", "eba_CO:x7", "eba_CO:x8", "eba_CO:x9"],
      },
      { code: "c0100", name: "Notice period for the financial entity making use of the ICT service(s)", type: "i" },
      { code: "c0110", name: "Notice period for the ICT third-party service provider", type: "i" },
      { code: "c0120", name: "Country of the governing law of the contractual arrangement", type: "e", allowed: "GA" },
      { code: "c0130", name: "Country of provision of the ICT services", type: "e", allowed: "GA" },
      { code: "c0140", name: "Storage of data", type: "e", allowed: [YES, NO] },
      { code: "c0150", name: "Location of the data at rest (storage)", type: "e", allowed: "GA" },
      { code: "c0160", name: "Location of management of the data (processing)", type: "e", allowed: "GA" },
      {
        code: "c0170",
        name: "Sensitiveness of the data stored by the ICT third-party service provider",
        type: "e",
        allowed: ["eba_ZZ:x791", "eba_ZZ:x792", "eba_ZZ:x793"],
      },
      {
        code: "c0180",
        name: "Level of reliance on the ICT service supporting the critical or important function",
        type: "e",
        allowed: ["eba_ZZ:x794", "eba_ZZ:x795", "eba_ZZ:x796", "eba_ZZ:x797"],
      },
    ],
    primary: ["c0010", "c0020", "c0030", "c0050", "c0060", "c0130", "c0150", "c0160"],
    references: [],
  },
  {
    id: "B_05.02",
    tableTemplate: "B_05-02",
    file: "b_05.02.csv",
    name: "ICT service supply chains",
    columns: [
      { code: "c0010", name: "Contractual arrangement reference number", type: "s" },
      { code: "c0020", name: "Type of ICT services", type: "e", allowed: SERVICE_TYPE_MEMBERS },
      {
        code: "c0030",
        name: "Identification code of the ICT third-party service provider",
        type: "s",
        codeTypeIn: "c0040",
      },
      {
        code: "c0040",
        name: "Type of code to identify the ICT third-party service provider",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
      { code: "c0050", name: "Rank", type: "i" },
      {
        code: "c0060",
        name: "Identification code of the recipient of sub-contracted ICT services",
        type: "s",
        codeTypeIn: "c0070",
      },
      {
        code: "c0070",
        name: "Type of code to identify the recipient of sub-contracted ICT services",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
    ],
    primary: ["c0010", "c0020", "c0030", "c0050", "c0060"],
    references: [
      {
        columns: ["c0030"],
        to: "B_05.01",
        toColumns: ["c0010"],
        name: "R20 - Identification code of the branch must match_B_05.01",
      },
      {
        columns: ["c0060"],
        to: "B_05.01",
        toColumns: ["c0010"],
        name: "R21 - Identification code of the branch must match_B_05.01",
      },
    ],
  },
  {
    id: "B_07.01",
    tableTemplate: "B_07-01",
    file: "b_07.01.csv",
    name: "Assessment of the ICT services",
    columns: [
      { code: "c0010", name: "Contractual arrangement reference number", type: "s" },
      {
        code: "c0020",
        name: "Identification code of the ICT third-party service provider",
        type: "s",
        codeTypeIn: "c0030",
      },
      {
        code: "c0030",
        name: "Type of code to identify the ICT third-party service provider",
        type: "e",
        allowed: TYPE_OF_CODE,
      },
      { code: "c0040", name: "Type of ICT services", type: "e", allowed: SERVICE_TYPE_MEMBERS },
      {
        code: "c0050",
        name: "Substitutability of the ICT third-party service provider",
        type: "e",
        allowed: Object.values(SUBSTITUTABILITY),
      },
      {
        code: "c0060",
        name: "Reason if the ICT third-party service provider is considered not substitutable or difficult to be substitutable",
        type: "e",
        allowed: Object.values(SUBSTITUTABILITY_REASON),
      },
      { code: "c0070", name: "Date of the last audit on the ICT third-party service provider", type: "d" },
      { code: "c0080", name: "Existence of an exit plan", type: "e", allowed: [YES, NO] },
      {
        code: "c0090",
        name: "Possibility of reintegration of the contracted ICT service",
        type: "e",
        allowed: ["eba_ZZ:x0", "eba_ZZ:x798", "eba_ZZ:x966", "eba_ZZ:x967"],
      },
      {
        code: "c0100",
        name: "Impact of discontinuing the ICT services",
        type: "e",
        allowed: ["eba_ZZ:x791", "eba_ZZ:x792", "eba_ZZ:x793", "eba_ZZ:x799"],
      },
      {
        code: "c0110",
        name: "Are there alternative ICT third-party service providers identified?",
        type: "e",
        allowed: ["eba_BT:x21", YES, NO],
      },
      { code: "c0120", name: "Identification of alternative ICT TPP", type: "s" },
    ],
    primary: ["c0010", "c0020", "c0040"],
    references: [
      {
        columns: ["c0020"],
        to: "B_05.01",
        toColumns: ["c0010"],
        name: "R22 - Identification code of the branch must match_B_05.01",
      },
    ],
  },
];

export const templateSpec = (id: RegisterTemplateId): TemplateSpec => TEMPLATES.find((spec) => spec.id === id)!;

/** The references to templates the register does not write (the entity's own), named in checks.notRun. */
export const REFERENCES_ELSEWHERE = [
  "R7 - LEI of the entity and function id. must match_B_06.01 (B_02.02 c0050, c0020: B_06.01 is the entity's function template)",
  "R17 Contractual arr and Id. code must match_B_03.02 (B_02.02 c0010, c0030: B_03.02 is the entity's signing template)",
  "R14 Contractual arr. reference number must match_B_02.01 (B_05.02 c0010: B_02.01 is the entity's general arrangement template)",
  "R15 Contractual arr. reference number must match_B_02.01 (B_07.01 c0010)",
];
