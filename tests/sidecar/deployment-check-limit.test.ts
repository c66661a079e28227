/**
 * The deployment check's own body limit (catalogue/limits.ts MAX_TEMPLATE_BODY_BYTES): a real
 * Bicep-built ARM template of megabytes is checked, in the heavy computations' thread as the row
 * asks; past the limit a 413 says it; every other row keeps 64 KiB; the depth guards still apply.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_TEMPLATE_BODY_BYTES } from "../../catalogue/base/limits.ts";
import { build, workerCatalogueSource } from "../helpers/app.ts";

/** Azure-Samples/chat-with-your-data-solution-accelerator's infra/main.json (3.2 MB), gzipped byte for byte. */
const BIG_ARM = gunzipSync(
  readFileSync(new URL("../fixtures/templates/azure/chat-with-your-data-main.json.gz", import.meta.url)),
).toString("utf8");

const JSON_HEADERS = { "content-type": "application/json" };

describe("POST /v1/deployments/check body limit", () => {
  it("checks a 3.2 MB Bicep-built template in the worker thread, and refuses a body past 4 MiB with a 413 saying so", async () => {
    expect(BIG_ARM.length).toBeGreaterThan(3_000_000);
    expect(MAX_TEMPLATE_BODY_BYTES).toBeGreaterThan(BIG_ARM.length + 1024);
    // catalogueSource: the app starts the heavy computations' thread, which runs this row.
    const app = await build({ catalogueSource: workerCatalogueSource() });
    const payload = `{"approvedServiceIds":["azure-app-service","azure-openai"],"template":${BIG_ARM}}`;
    const answer = await app.inject({ method: "POST", url: "/v1/deployments/check", headers: JSON_HEADERS, payload });
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    const body = answer.json();
    expect(body.format).toBe("arm");
    expect(body.items).toBeGreaterThan(20);
    expect(body.services.map((service: { id: string }) => service.id)).toEqual(
      expect.arrayContaining(["azure-app-service", "azure-openai", "azure-key-vault"]),
    );
    // The same template as text (what the site's box and the text host send).
    const asText = await app.inject({
      method: "POST",
      url: "/v1/deployments/check",
      headers: JSON_HEADERS,
      payload: JSON.stringify({ approvedServiceIds: ["azure-app-service"], template: BIG_ARM }),
    });
    expect(asText.statusCode).toBe(200);

    const over = `{"approvedServiceIds":["aws-s3"],"template":"${"a".repeat(MAX_TEMPLATE_BODY_BYTES)}"}`;
    const refused = await app.inject({
      method: "POST",
      url: "/v1/deployments/check",
      headers: JSON_HEADERS,
      payload: over,
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      error: "Payload too large",
      status: 413,
      details: "Request bodies are limited to 4 MiB on this path (64 KiB elsewhere)",
    });
    // The thread loads the catalogue on its first job: seconds on a loaded machine.
  }, 120_000);

  it("keeps 64 KiB on every other row, and the depth guards on the check", async () => {
    const app = await build();
    const feedback = await app.inject({
      method: "POST",
      url: "/v1/feedback",
      headers: JSON_HEADERS,
      payload: JSON.stringify({ message: "x".repeat(MAX_BODY_BYTES) }),
    });
    expect(feedback.statusCode).toBe(413);
    expect(feedback.json().details).toBe("Request bodies are limited to 64 KiB");
    // A body nested past 32 levels is refused before anything walks it, whatever the row's limit.
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const post = (payload: string) =>
      app.inject({ method: "POST", url: "/v1/deployments/check", headers: JSON_HEADERS, payload });
    const nested = await post(`{"approvedServiceIds":["aws-s3"],"template":{"Resources":${deep}}}`);
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toMatchObject({
      error: "Invalid body",
      details: expect.stringMatching(/nested more than 32/),
    });
    // The same nesting sent as text is parsed by the check itself, which refuses it too.
    for (const text of [`{"resources":${deep}}`, `Resources:\n  B: ${deep}\n`]) {
      const answer = await post(JSON.stringify({ approvedServiceIds: ["aws-s3"], template: text }));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error).toBe("Invalid template");
    }
  });
});
