/**
 * Versions over MCP (issue 99): get_service answers a service's version families with their
 * statuses, and lifecycle_upcoming takes kind=version, through the SDK's own client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import type { LifecycleListT, ServiceDetailT } from "../../catalogue/schema/index.ts";
import { build } from "../helpers/app.ts";
import { wholeAnswer } from "../helpers/mcp-parts.ts";

async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const app = await build({ now: () => new Date("2026-11-28T12:00:00Z") });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const client = new Client({ name: "assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
  onTestFinished(() => client.close());
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as T;
}

/** A tool's whole answer, in as many parts as it comes. */
async function whole<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const app = await build({ now: () => new Date("2026-11-28T12:00:00Z") });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const client = new Client({ name: "assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
  onTestFinished(() => client.close());
  const call = async (each: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: each })) as CallToolResult;
  return (await wholeAnswer<T>(call, args)).answer;
}

describe("MCP and versions", () => {
  it("get_service includes the service's versions with computed statuses and phases", async () => {
    // Lambda's answer (52 runtimes in 7 families, their successors) runs past one part: read them all.
    const answer = await whole<ServiceDetailT & { omitted?: { field: string }[] }>("get_service", {
      slug: "aws-lambda",
    });
    const nodejs = answer.versions!.families.find((family) => family.id === "nodejs")!;
    expect(nodejs.versions.find((version) => version.id === "nodejs20.x")).toMatchObject({
      standardEnd: "2026-04-30",
      blockCreate: "2027-02-01",
      blockUpdate: "2027-03-03",
      status: "extended",
      phase: "deprecated",
    });
    // What each phase means is left out, said so in omitted; endedVersions brings it.
    expect(nodejs.phases).toBeUndefined();
    expect(answer.omitted!.map((cut) => cut.field)).toContain("versions.families.phases");
  });

  it("get_service leaves ended versions out unless endedVersions asks, and says so in omitted", async () => {
    const answer = await call<ServiceDetailT & { omitted?: { field: string; shown: number; total: number }[] }>(
      "get_service",
      { slug: "aws-eks" },
    );
    const kubernetes = answer.versions!.families[0]!;
    expect(kubernetes.versions.every((version) => version.status !== "ended")).toBe(true);
    const cut = answer.omitted!.find((entry) => entry.field === "versions")!;
    expect(cut.shown).toBe(kubernetes.versions.length);
    const full = await call<ServiceDetailT>("get_service", { slug: "aws-eks", endedVersions: true });
    expect(full.versions!.families[0]!.versions).toHaveLength(cut.total);
    expect(full.versions!.families[0]!.versions.some((version) => version.status === "ended")).toBe(true);
  });

  it("lifecycle_upcoming with kind version answers version entries only", async () => {
    const answer = await call<LifecycleListT>("lifecycle_upcoming", { kind: "version", ids: ["aws-eks"], limit: 20 });
    expect(answer.data.length).toBeGreaterThan(0);
    expect(answer.data.every((entry) => entry.kind === "version" && entry.slug === "aws-eks")).toBe(true);
  });
});
