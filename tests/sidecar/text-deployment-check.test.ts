/**
 * The text host's deployment check (POST /deployments/check, sidecar/text/deployment-check.ts): a
 * template posted as curl --data-binary posts it, raw JSON or YAML, answered in the request's
 * rendering; the site's no-JavaScript form; the cross-site guard; bad input in the request's rendering.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { newList } from "../../catalogue/lists/lists.node.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";

const fixture = (file: string) => readFileSync(new URL(`../fixtures/templates/${file}`, import.meta.url), "utf8");
const EC2_YAML = fixture("aws/EC2-EC2InstanceWithSecurityGroupSample.yaml");
const SQS_JSON = fixture("aws/SQS-SQSStandardQueue.json");
/** What curl --data-binary @file sends. */
const CURL = { "content-type": "application/x-www-form-urlencoded", "user-agent": "curl/8" };

async function textHost() {
  const store = await tempStore();
  await store.createList(newList({ name: "Queues", slug: "queues", ids: ["aws-sqs"] }, new Date()));
  return buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store,
    perMinute: 10_000,
  });
}

describe("POST /deployments/check on the text host", () => {
  it("answers a raw YAML or JSON template as curl posts it, in ANSI, plain text and Markdown", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    const post = (url: string, payload: string, headers: Record<string, string> = CURL) =>
      text.inject({ method: "POST", url, headers, payload });
    const ansi = await post("/deployments/check?ids=aws-ec2", EC2_YAML);
    expect(ansi.statusCode, ansi.body.slice(0, 300)).toBe(200);
    expect(ansi.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(ansi.headers["cache-control"]).toBe("no-store");
    expect(ansi.body).toContain("\u001b[");
    // The SSM parameter type needs ssm:GetParameters, which aws-ec2 alone denies: named, with what to add.
    expect(ansi.body).toMatch(/ssm:GetParameters/);
    expect(ansi.body).toMatch(/aws-cloudformation/);
    const plain = await post("/deployments/check?ids=aws-ec2,aws-cloudformation&color=never", EC2_YAML);
    expect(plain.body).not.toContain("\u001b[");
    expect(plain.body).toMatch(/allowed/);
    const md = await post("/deployments/check?format=md&ids=aws-sqs,aws-cloudformation", SQS_JSON, {
      "content-type": "application/json",
    });
    expect(md.statusCode).toBe(200);
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(md.body).toMatch(/^# Deployment check\n/);
    expect(md.body).toContain("## Statements");
    expect(md.body).toContain("aws-sqs");
    // A saved list instead of ids.
    const saved = await post("/deployments/check?format=md&list=queues", SQS_JSON);
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("aws-sqs");
  });

  it("takes the site's form (template and ids fields) and answers it in HTML", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    const form = new URLSearchParams({ template: SQS_JSON, ids: "aws-sqs,aws-cloudformation" }).toString();
    const html = await text.inject({
      method: "POST",
      url: "/deployments/check",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
        "sec-fetch-site": "same-origin",
      },
      payload: form,
    });
    expect(html.statusCode).toBe(200);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.body).toContain("<h1>Deployment check</h1>");
    expect(html.body).toContain("aws-sqs");
  });

  it("takes the form with a file chosen (multipart, as browsers and w3m or lynx send it): the file when nothing is pasted", async () => {
    // Issue 116: the text browsers' "Or choose a file" field had no name, so nothing was sent.
    const text = await textHost();
    onTestFinished(() => text.close());
    const form = new FormData();
    form.set("ids", "aws-sqs,aws-cloudformation");
    form.set("template", "");
    form.set("file", new Blob([SQS_JSON], { type: "application/json" }), "queue.json");
    // The bytes and boundary a browser sends for this form.
    const encoded = new Response(form);
    const html = await text.inject({
      method: "POST",
      url: "/deployments/check",
      headers: {
        "content-type": encoded.headers.get("content-type")!,
        accept: "text/html",
        "sec-fetch-site": "same-origin",
      },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(html.statusCode, html.body.slice(0, 300)).toBe(200);
    expect(html.body).toContain("<h1>Deployment check</h1>");
    expect(html.body).toContain("aws-sqs");
  });

  it("refuses a post from another site, bad input and unknown ids in the request's rendering", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    const post = (url: string, payload: string, headers: Record<string, string> = CURL) =>
      text.inject({ method: "POST", url, headers, payload });
    const crossSite = await post("/deployments/check?ids=aws-sqs", SQS_JSON, {
      ...CURL,
      origin: "https://elsewhere.example",
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toMatch(/another site/);
    const notTemplate = await post("/deployments/check?ids=aws-sqs", "kind: Deployment\n");
    expect(notTemplate.statusCode).toBe(400);
    expect(notTemplate.body).toMatch(/Invalid template/);
    expect(notTemplate.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const empty = await post("/deployments/check?ids=aws-sqs", "");
    expect(empty.statusCode).toBe(400);
    const noList = await post("/deployments/check", SQS_JSON);
    expect(noList.statusCode).toBe(400);
    expect(noList.body).toMatch(/ids=/);
    const unknown = await post("/deployments/check?ids=aws-sqss", SQS_JSON);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toMatch(/aws-sqs/);
    const missingList = await post("/deployments/check?list=no-such-list", SQS_JSON);
    expect(missingList.statusCode).toBe(404);
    const put = await text.inject({ method: "PUT", url: "/deployments/check" });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe("POST");
  });

  it("takes within= for retiring versions and locations= for where resources may go, refusing bad ones", async () => {
    const text = await textHost();
    onTestFinished(() => text.close());
    const post = (query: string, payload: string) =>
      text.inject({ method: "POST", url: `/deployments/check?${query}&format=md`, headers: CURL, payload });
    const plan = JSON.stringify({
      format_version: "1.2",
      resource_changes: [
        {
          address: "azurerm_kubernetes_cluster.aks",
          mode: "managed",
          type: "azurerm_kubernetes_cluster",
          name: "aks",
          change: { actions: ["create"], before: null, after: { location: "eastus", kubernetes_version: "1.31.5" } },
        },
      ],
    });
    const answered = await post("ids=azure-kubernetes-service&within=3650d&locations=EU", plan);
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toContain("## Versions");
    // AKS 1.31: end of life 2025-11-01, LTS to 2026-11-30 (the day of the build decides which is shown).
    expect(answered.body).toMatch(
      /1\.31\.5 — (in extended support since 2025-11-02|ended since 2026-12-01)[^\n]*\(retiring\)/,
    );
    expect(answered.body).toMatch(/eastus/);
    const badWithin = await post("ids=azure-kubernetes-service&within=soon", plan);
    expect(badWithin.statusCode).toBe(400);
    expect(badWithin.body).toContain("within is a number of days");
    const badLocations = await post("ids=azure-kubernetes-service&locations=not%20a%20place", plan);
    expect(badLocations.statusCode).toBe(400);
    // failOn=end: 1.31's LTS end (2026-11-30) counts, its end of standard support does not.
    const endOnly = await post("ids=azure-kubernetes-service&within=0d&failOn=end", plan);
    expect(endOnly.statusCode).toBe(200);
    const badFailOn = await post("ids=azure-kubernetes-service&failOn=later", plan);
    expect(badFailOn.statusCode).toBe(400);
    expect(badFailOn.body).toContain("failOn is deprecated, extended, end");
  });
});
