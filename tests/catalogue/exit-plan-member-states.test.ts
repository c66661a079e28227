/**
 * Issue 116: an exit plan to jurisdictions ["FR"] said no provider met it, though four French
 * providers are listed: the catalogue records a provider based in an EU/EEA member state under
 * jurisdiction EU (as GET /v1/services?jurisdiction= says when refusing DE). The plan says so too,
 * and names the providers based there.
 */
import { describe, expect, it } from "vitest";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { HttpError } from "../../catalogue/base/problem.ts";
import { realCatalogue } from "../helpers/app.ts";

const frenchProviders = () =>
  realCatalogue()
    .providers.filter((provider) => realCatalogue().providerById.get(provider.id)!.file.headOffice.country === "FR")
    .map((provider) => provider.id);

describe("an exit plan to an EU member state's jurisdiction", () => {
  it("refuses FR alone with why (French providers are recorded as EU) and names them", () => {
    expect(frenchProviders().length).toBeGreaterThanOrEqual(4);
    let refused: HttpError | undefined;
    try {
      exitPlan(realCatalogue(), ["aws-s3"], { jurisdictions: ["FR"] });
    } catch (error) {
      refused = error as HttpError;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused!.details).toContain("recorded under jurisdiction EU, not FR");
    for (const id of frenchProviders()) expect(refused!.details).toContain(`(${id})`);
  });

  it("plans FR beside CH to the Swiss providers and says in its notes where the French ones are", () => {
    const plan = exitPlan(realCatalogue(), ["aws-s3"], { jurisdictions: ["FR", "CH"] });
    expect(plan.notes.some((note) => note.includes("recorded under jurisdiction EU, not FR"))).toBe(true);
    expect(exitPlan(realCatalogue(), ["aws-s3"], { jurisdictions: ["EU"] }).notes.join(" ")).not.toContain(
      "recorded under jurisdiction EU",
    );
  });
});
