/**
 * A strict client generated from our OpenAPI document (openapi-typescript, as API users generate
 * theirs) type-checks the calls the contract allows: `freeTier: true` compiles (decisions.md#faces: the
 * document once typed it as the strings "true" | "false", which strict clients reject).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { openApiDocument } from "../../catalogue/contract/openapi.ts";
import { URLS } from "../helpers/app.ts";

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "openapi-client-"));
  const ast = await openapiTS(JSON.parse(JSON.stringify(openApiDocument(URLS, ENDPOINTS))));
  writeFileSync(join(dir, "api.d.ts"), astToString(ast));
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The type errors of a snippet compiled strictly against the generated client. */
function typeErrors(snippet: string): string[] {
  const file = join(dir, `use-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, `import type { paths } from "./api.d.ts";\n${snippet}\n`);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

/** GET /v1/services's query parameters as the generated client types them. */
const QUERY = 'NonNullable<paths["/v1/services"]["get"]["parameters"]["query"]>';

describe("a strict client generated from the OpenAPI document", () => {
  it("passes freeTier as a boolean", () => {
    expect(typeErrors(`export const q: ${QUERY} = { freeTier: true, q: "s3", page: 2 };`)).toEqual([]);
  });

  it("rejects freeTier as a word the contract does not allow, so the check above can fail", () => {
    expect(typeErrors(`export const q: ${QUERY} = { freeTier: "yes" };`).join("\n")).toMatch(/not assignable/);
  });
});
