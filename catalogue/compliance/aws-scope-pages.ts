/**
 * The AWS scope pages the catalogue holds copies of (catalogue/reference/aws-compliance/), read
 * from disk: what scripts/maintenance/aws-scope.ts generates from and tests/catalogue/aws-scope.test.ts checks.
 * Node-only (it reads files); the parsing is in aws-scope.ts.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hipaaEligibleRows, isoCertifiedRows, servicesInScopeRows, type ScopePage } from "./aws-scope.ts";

/** The day the project read these copies: move it when you re-read or replace them. */
const RETRIEVED = "2026-11-26";
/** The ISO page's copy was read (and vendored) later, for issue 115. */
const ISO_RETRIEVED = "2026-11-28";
/** The salesforce/aws-allowlister commit the copies come from, and its date (the day they were saved). */
const COPY_COMMIT = "35bcc14";
const COPY_DATE = "2022-07-15";

const read = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../reference/aws-compliance/${file}`, import.meta.url)), "utf8");
const via = (file: string) =>
  `https://github.com/salesforce/aws-allowlister/blob/${COPY_COMMIT}/aws_allowlister/data/${file}`;

export function awsScopePages(): ScopePage[] {
  const page = (
    id: string,
    url: string,
    file: string,
    rowsOf: ScopePage["rowsOf"],
    retrieved = RETRIEVED,
  ): ScopePage => ({
    id,
    url,
    html: read(file),
    retrieved,
    copyDate: COPY_DATE,
    via: via(file),
    rowsOf,
  });
  return [
    page(
      "services-in-scope",
      "https://aws.amazon.com/compliance/services-in-scope/",
      "services-in-scope.html",
      servicesInScopeRows,
    ),
    page(
      "hipaa-eligible",
      "https://aws.amazon.com/compliance/hipaa-eligible-services-reference/",
      "hipaa-eligible-services-reference.html",
      hipaaEligibleRows,
    ),
    // ISO/IEC 27001, 27017, 27018, 27701, 9001 and CSA STAR: the services-in-scope copy has no ISO
    // tab (its page links this one), so without it AWS's ISO certificates named no service (issue 115).
    page(
      "iso-certified",
      "https://aws.amazon.com/compliance/iso-certified/",
      "iso-certified.html",
      isoCertifiedRows,
      ISO_RETRIEVED,
    ),
  ];
}
