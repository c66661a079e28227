import { describe, expect, it } from "vitest";
import { preferredMediaType } from "../../catalogue/base/media-type.ts";

const EXIT_PLAN = ["application/json", "text/markdown", "text/csv"] as const;
const prefer = (accept: string | undefined) => preferredMediaType(accept, EXIT_PLAN, "application/json");

describe("preferredMediaType (one negotiation for every face)", () => {
  it("honours q-values: a type at q=0 is refused, the higher q wins", () => {
    expect(prefer("application/json, text/markdown;q=0")).toBe("application/json");
    expect(prefer("text/csv;q=0, application/json")).toBe("application/json");
    expect(prefer("text/markdown;q=0.5, text/csv")).toBe("text/csv");
    expect(prefer("text/markdown;q=0")).toBeNull();
  });

  it("reads */* as the face's default and ignores parameters other than q", () => {
    expect(prefer("*/*")).toBe("application/json");
    expect(prefer("text/markdown;q=0.5, */*;q=0.9")).toBe("application/json");
    expect(prefer("text/markdown; charset=utf-8")).toBe("text/markdown");
    expect(prefer("text/csv; charset=utf-8; q=0.2, text/markdown;q=0.1")).toBe("text/csv");
    expect(prefer(undefined)).toBeNull();
  });

  it("breaks a tie by the order of the offers", () => {
    expect(prefer("text/csv, text/markdown")).toBe("text/markdown");
    expect(preferredMediaType("text/html, text/markdown", ["text/markdown", "text/html"], "text/html")).toBe(
      "text/markdown",
    );
  });
});
