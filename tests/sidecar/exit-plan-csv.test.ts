/**
 * decisions.md#faces: an exit plan's CSV is a file to save (Content-Disposition) and, asked with ?bom=1 or
 * ?bom=true, starts with a UTF-8 byte order mark so that Excel does not garble ™, ® or accents.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { build } from "../helpers/app.ts";

const post = (url: string) => ({
  method: "POST" as const,
  url,
  headers: { "content-type": "application/json" },
  payload: { approvedServiceIds: ["aws-s3", "aws-ec2"], to: { providers: ["ovhcloud", "scaleway"] } },
});

describe("exit plan CSV downloads", () => {
  it("names the file to save and adds a byte order mark only when asked", async () => {
    const app = await build();
    onTestFinished(() => app.close());
    const plain = await app.inject(post("/v1/exit-plan?format=csv"));
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(plain.headers["content-disposition"]).toBe('attachment; filename="exit-plan.csv"');
    expect(plain.body.startsWith("\uFEFF")).toBe(false);
    for (const bom of ["1", "true"]) {
      const marked = await app.inject(post(`/v1/exit-plan?format=csv&bom=${bom}`));
      expect(marked.statusCode).toBe(200);
      expect(marked.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(marked.body.slice(1)).toBe(plain.body);
    }
    expect((await app.inject(post("/v1/exit-plan?format=csv&bom=maybe"))).statusCode).toBe(400);
    // JSON is not a file to save.
    const json = await app.inject(post("/v1/exit-plan"));
    expect(json.headers["content-disposition"]).toBeUndefined();
  });
});
