/**
 * decisions.md#faces: every text-host route honours the terminal's width (?width=, COLUMNS), a table cell
 * that does not fit wraps within its column instead of being cut with "…", and /equivalents
 * answers with the same headers as the other text routes (no Vary: User-Agent) and is built,
 * like them, as a precompressed static variant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textFiles } from "../../catalogue/outputs/static.ts";
import { TEXT_VARY } from "../../sidecar/files.ts";
import { buildTextApp } from "../../sidecar/text/app.ts";
import { realCatalogue, tempStore } from "../helpers/app.ts";

let app: Awaited<ReturnType<typeof buildTextApp>>;
beforeAll(async () => {
  app = await buildTextApp({
    config: { LOG_LEVEL: "silent", TRUST_PROXY: undefined },
    catalogue: realCatalogue(),
    store: await tempStore(),
    perMinute: 10_000,
  });
});
afterAll(() => app.close());

const CURL = { "user-agent": "curl/8", accept: "*/*" };
const widest = (body: string) => Math.max(...body.split("\n").map((line) => [...line].length));

describe("text host width and wrapping", () => {
  it.each([
    "/equivalents",
    "/equivalents?providers=aws,azure,gcp,ovhcloud",
    "/equivalents/object-storage",
    "/lifecycle",
    "/compare/aws-s3,gcp-cloud-storage",
    "/compare?ids=aws-s3,gcp-cloud-storage",
    "/search?q=object%20storage",
  ])("%s fits ?width= and COLUMNS, and cuts no cell", async (url) => {
    const joiner = url.includes("?") ? "&" : "?";
    for (const width of [60, 80, 120]) {
      const asked = await app.inject({ url: `${url}${joiner}width=${width}&color=never`, headers: CURL });
      expect(asked.statusCode, url).toBe(200);
      expect(widest(asked.body), `${url} at ${width}`).toBeLessThanOrEqual(width);
      expect(asked.body, `${url} at ${width}`).not.toContain("…");
      const columns = await app.inject({
        url: `${url}${joiner}color=never`,
        headers: { ...CURL, columns: String(width) },
      });
      expect(columns.body, `${url} with COLUMNS=${width}`).toBe(asked.body);
    }
  });

  it("wraps the matrix's cells: every provider's service name is there whole at 80 columns", async () => {
    const response = await app.inject({ url: "/equivalents?color=never", headers: CURL });
    // "Amazon EC2, Amazon Lightsail" and "Azure Virtual Machine Scale Sets" wrap, but no word is lost.
    const words = response.body.split(/\s+/);
    for (const word of ["Lightsail", "Scale", "Sets"]) expect(words).toContain(word);
    expect(response.body).not.toContain("…");
  });

  it("answers /equivalents with the text routes' Vary, never User-Agent", async () => {
    for (const url of [
      "/equivalents",
      "/equivalents?providers=aws",
      "/equivalents/object-storage",
      "/compare?ids=aws-s3",
    ]) {
      const response = await app.inject({ url, headers: CURL });
      expect(response.headers.vary, url).toBe(TEXT_VARY);
    }
  });

  it("builds /equivalents as a static text page, so it is precompressed like the others", () => {
    const files = new Set([...textFiles(realCatalogue())].map(({ file }) => file));
    for (const format of ["md", "ansi", "txt"]) expect(files.has(`equivalents.${format}`), format).toBe(true);
  });
});
