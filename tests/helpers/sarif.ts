/** OASIS's SARIF 2.1.0 schema (tests/fixtures/sarif/) compiled with ajv, for the suites that check the SARIF the check writes. */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";

const schema = JSON.parse(
  readFileSync(new URL("../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8"),
) as object;
// unicodeRegExp off: the schema's `language` pattern ends in a lone `]`, which the `u` flag refuses
// (JavaScript without it reads that bracket as a literal one, as the schema means).
export const sarifAjv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
(addFormats as unknown as (ajv: Ajv) => void)(sarifAjv);
/** The schema's verdict on a log; its errors are then in `validSarif.errors` (sarifAjv.errorsText reads them). */
export const validSarif = sarifAjv.compile(schema);
