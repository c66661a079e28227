/**
 * Three questions people bring to an assistant, each answered in at most two tool calls over the
 * SDK's client, with what the answer needs in the default (summary, cut) answers:
 * "an EU alternative to Cognito", "an SCP for S3, Lambda, DynamoDB, API Gateway and RDS" and
 * "what AWS retires next quarter".
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { addDays, dayOf } from "../../catalogue/lifecycle/lifecycle.ts";
import { build, realCatalogue } from "../helpers/app.ts";
import { wholeAnswer } from "../helpers/mcp-parts.ts";

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
});

async function assistant() {
  const app = await build();
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const client = new Client({ name: "assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`)));
  clients.push(client);
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    calls++;
    return (await client.callTool({ name, arguments: args })) as CallToolResult & {
      structuredContent: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
  };
  return { call, calls: () => calls };
}

/** The first day of the next calendar quarter and the last day of it (UTC). */
function nextQuarter(today: Date): { from: string; to: string } {
  const start = new Date(Date.UTC(today.getUTCFullYear(), Math.floor(today.getUTCMonth() / 3) * 3 + 3, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 3, 1));
  return { from: dayOf(start), to: addDays(dayOf(end), -1) };
}

describe("assistant questions in at most two calls", () => {
  it("an EU alternative to Cognito: one exit_plan call names an EU provider's pick and why", async () => {
    const { call, calls } = await assistant();
    const plan = await call("exit_plan", { approvedServiceIds: ["aws-cognito"], to: { jurisdictions: ["EU"] } });
    expect(plan.isError ?? false).toBe(false);
    const [cognito] = plan.structuredContent.services;
    expect(cognito).toMatchObject({ slug: "aws-cognito", outcome: "mapped", pick: expect.any(Object) });
    const provider = realCatalogue().providerById.get(cognito.pick.providerId)!.provider;
    expect(provider.jurisdiction).toBe("EU");
    expect(cognito.pick.reason.length).toBeGreaterThan(20);
    expect(calls()).toBeLessThanOrEqual(2);
  });

  it("an SCP for S3, Lambda, DynamoDB, API Gateway and RDS: a guess, the nearest slugs, the policy", async () => {
    const { call, calls } = await assistant();
    const guess = ["aws-s3", "aws-lambda", "aws-dynamodb", "aws-api-gateway", "aws-rds"];
    const refused = await call("generate_policy", { format: "scp", approvedServiceIds: guess });
    expect(refused.isError).toBe(true);
    const text = refused.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    const rds = /"aws-rds": did you mean ([^?]+)\?/.exec(text)?.[1]?.split(", ") ?? [];
    expect(rds.length).toBeGreaterThan(0);
    expect(rds.every((slug) => slug.startsWith("aws-rds-"))).toBe(true);
    const policy = await call("generate_policy", {
      format: "scp",
      approvedServiceIds: [...guess.slice(0, 4), ...rds],
    });
    expect(policy.isError ?? false).toBe(false);
    const document = JSON.stringify(policy.structuredContent);
    for (const prefix of ["s3:", "lambda:", "dynamodb:", "apigateway:", "rds:"]) expect(document).toContain(prefix);
    expect(calls()).toBe(2);
  });

  it("the Google location policy for the EU: generate_policy with allowedLocations and part 2", async () => {
    const { call } = await assistant();
    const answer = await call("generate_policy", {
      format: "gcp",
      approvedServiceIds: ["gcp-cloud-storage"],
      allowedLocations: ["EU"],
      part: 2,
    });
    expect(answer.isError ?? false).toBe(false);
    expect(answer.structuredContent).toEqual({
      name: "organizations/ORGANIZATION_ID/policies/gcp.resourceLocations",
      // EU's multi-region and the dual-region all in the EU by their own values (issue 124).
      spec: { rules: [{ values: { allowedValues: ["eu", "eur4", "in:eu-locations"] } }] },
    });
  });

  it("what AWS retires next quarter: a lifecycle_upcoming call with from and to, and its second part", async () => {
    const { call, calls } = await assistant();
    const quarter = nextQuarter(new Date());
    const args = { provider: "AWS", ...quarter, limit: 100 };
    // Since issue 113 each version phase has its own entry (a Lambda runtime's blocked create and
    // update too): a quarter may take a second part, asked with startIndex.
    const { answer, parts } = await wholeAnswer<{ data: { slug: string }[]; omitted?: unknown }>(
      (each) => call("lifecycle_upcoming", each),
      args,
    );
    expect(parts).toBeLessThanOrEqual(2);
    const catalogue = realCatalogue();
    const inQuarter = (date: string | undefined) => date !== undefined && date >= quarter.from && date <= quarter.to;
    // A service sunset in the quarter, or one of its versions' support ending in it (issue 99).
    const expected = catalogue.services
      .filter(
        (service) =>
          service.providerId === "aws" &&
          (inQuarter(service.lifecycle?.sunsetDate) ||
            catalogue.bySlug
              .get(service.slug)!
              .versions.some((family) =>
                family.versions.some((version) =>
                  [version.standardEnd, version.blockCreate, version.blockUpdate, version.extendedEnd].some(inQuarter),
                ),
              )),
      )
      .map((service) => service.slug)
      .sort();
    const slugs = answer.data.map((entry) => entry.slug);
    expect([...new Set(slugs)].sort()).toEqual(expected);
    expect(answer.omitted).toBeUndefined();
    expect(calls()).toBeLessThanOrEqual(2);
  });
});
