/**
 * The tool table's safety, checked on the table itself: every tool runs a contract row that reads
 * or only computes (a GET, or a pure POST: policies, exit plans), never one that writes (lists,
 * feedback, telemetry); and every row it names exists.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../catalogue/contract/index.ts";
import { MCP_TOOLS } from "../../catalogue/contract/mcp.ts";
import { toolInput } from "../../mcp/schemas.ts";
import { TOOLS } from "../../mcp/tools.ts";
import { realCatalogue } from "../helpers/app.ts";
import { INVALID, VALID } from "./shared.ts";

describe("the MCP tool table", () => {
  const requests = [...VALID, ...INVALID, { tool: "get_saved_list", args: { id: "x" } }]
    .map((c) => ({ c, spec: TOOLS.find((tool) => tool.name === c.tool) }))
    .filter(({ spec }) => spec !== undefined)
    .flatMap(({ c, spec }) => {
      // As the server does before calling: arguments the registered schema refuses never reach request().
      const args = toolInput(spec!.input).safeParse(c.args);
      if (!args.success) return [];
      try {
        return [{ tool: c.tool, operationId: spec!.request(args.data, realCatalogue()).operationId }];
      } catch {
        return []; // refused before choosing a row (an option of another format)
      }
    });

  it("gives every tool the contract names (x-mcp) its input and row, in the same order", () => {
    expect(TOOLS.map((tool) => tool.name)).toEqual(MCP_TOOLS.map((tool) => tool.name));
  });

  it("has a case for every tool", () => {
    expect(new Set(requests.map((request) => request.tool))).toEqual(new Set(TOOLS.map((tool) => tool.name)));
  });

  it("runs only rows that read or compute, never one that writes", () => {
    for (const { tool, operationId } of requests) {
      const row = ENDPOINTS.find((candidate) => candidate.operationId === operationId);
      expect(row, `${tool} → ${operationId}`).toBeDefined();
      // The deployment check is not pure (a listId reads a saved list) but writes nothing.
      const reads = row!.method === "GET" || row!.pure === true || row!.operationId === "checkDeployment";
      expect(reads, `${tool} → ${row!.method} ${row!.path}`).toBe(true);
    }
  });
});
