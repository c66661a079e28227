import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../catalogue/base/problem.ts";
import { exitPlan } from "../../catalogue/exit/plan.ts";
import { assessEntry, worstOf } from "../../catalogue/register/assessment.ts";
import { buildRegister, type RegisterRequest } from "../../catalogue/register/build.ts";
import { Register, type RegisterT } from "../../catalogue/schema/index.ts";
import { BANK_REQUEST, BANK_SERVICES } from "../fixtures/register-bank.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

const registerOf = (request: Partial<RegisterRequest> & { ids: readonly string[] }): RegisterT =>
  buildRegister(catalogue, { exitPlanAt: "POST /v1/exit-plan", ...request });

const bank = () =>
  registerOf({
    ids: BANK_REQUEST.approvedServiceIds,
    allowedLocations: BANK_REQUEST.allowedLocations,
    to: BANK_REQUEST.to,
    entity: BANK_REQUEST.entity,
  });

/** Every cell is sourced, derived from the exit plan by the rule, given, fixed by the ITS, or named in toFill. */
function expectEveryCellTraced(register: RegisterT) {
  for (const template of register.templates)
    for (const row of template.rows)
      for (const { code } of template.columns) {
        const cell = row.cells[code]!;
        const at = `${template.id} ${code} ${row.label}`;
        if (cell.basis === "catalogue" || cell.basis === "exit-plan") expect(cell.source, at).toBeTruthy();
        if (cell.basis === "entity") {
          expect(cell.value, at).toBe("");
          const named = register.toFill.find((entry) => entry.template === template.id && entry.column === code);
          expect(named?.rows, at).toContain(row.label);
        }
        if (cell.basis === "request") expect(cell.value, at).not.toBe("");
      }
}

describe("the DORA register of an approved list", () => {
  it("answers the Register schema for the bank's list of 12 services on three providers", () => {
    const register = bank();
    expect(Register.safeParse(register).success).toBe(true);
    expect(register.providers.map((provider) => provider.entity)).toEqual([
      "Amazon Web Services EMEA SARL",
      "Microsoft Ireland Operations Limited",
      "OVH SAS",
    ]);
    expect(register.templates.map((template) => template.id)).toEqual(["B_05.01", "B_02.02", "B_05.02", "B_07.01"]);
  });

  it("traces every provider-side cell of the bank's register to its source, or names it for the entity to fill", () => {
    expectEveryCellTraced(bank());
  });

  it("puts every approved service in B_02.02, B_05.02 and B_07.01, and every provider in B_05.01 once", () => {
    const register = bank();
    const [providers, arrangements, chains, assessments] = register.templates;
    expect(
      providers!.rows
        .map((row) => row.services)
        .flat()
        .sort(),
    ).toEqual([...BANK_SERVICES].sort());
    for (const template of [arrangements!, chains!, assessments!])
      expect(new Set(template.rows.flatMap((row) => row.services))).toEqual(new Set(BANK_SERVICES));
  });

  it("reports the ICT service type of each service's category from the reviewed table", () => {
    const register = bank();
    const types = new Map(catalogue.source.register!.serviceTypes.map((row) => [row.category, row.type]));
    for (const row of register.templates[1]!.rows)
      for (const slug of row.services)
        expect(row.cells.c0060!.value).toBe(`eba_TA:${types.get(catalogue.bySlug.get(slug)!.service.category)}`);
  });

  it("places storage and processing in the allowed locations' countries where each service runs", () => {
    const register = bank();
    for (const row of register.templates[1]!.rows) {
      const country = row.cells.c0150!.value.replace("eba_GA:", "");
      expect(row.cells.c0160!.value).toBe(row.cells.c0150!.value);
      for (const slug of row.services)
        expect(catalogue.bySlug.get(slug)!.regions.some((region) => region.country === country)).toBe(true);
      // The bank allowed Frankfurt, Germany West Central and Gravelines: Germany and France.
      expect(["DE", "FR"]).toContain(country);
    }
  });

  it("leaves storage countries to the entity without allowedLocations", () => {
    const register = registerOf({ ids: ["aws-s3", "azure-blob-storage"] });
    for (const row of register.templates[1]!.rows) {
      expect(row.cells.c0150!.basis).toBe("entity");
      expect(row.cells.c0160!.basis).toBe("entity");
    }
    expect(register.toFill.some((entry) => entry.template === "B_02.02" && entry.column === "c0150")).toBe(true);
  });

  it("reads B_07.01 from an exit plan of each provider's services to the target, the worst service deciding", () => {
    const register = bank();
    for (const row of register.templates[3]!.rows) {
      const providerId = catalogue.bySlug.get(row.services[0]!)!.service.providerId;
      const plan = exitPlan(
        catalogue,
        BANK_SERVICES.filter((slug) => slug.startsWith(`${providerId}-`)),
        {
          jurisdictions: ["EU"],
          exclude: [providerId],
        },
      );
      const assessed = row.services.map((slug) => assessEntry(plan.services.find((entry) => entry.slug === slug)));
      expect(row.cells.c0050!.value).toBe(worstOf(assessed.map((entry) => entry.substitutability)));
      const alternatives = new Set(assessed.flatMap((entry) => entry.alternatives));
      expect(row.cells.c0110!.value).toBe(alternatives.size > 0 ? "eba_BT:x28" : "eba_BT:x29");
      for (const name of row.cells.c0120!.value.split("; ").filter(Boolean)) expect(alternatives.has(name)).toBe(true);
      // The exit target is the EU: no alternative is the provider itself, nor outside the EU's providers.
      expect(row.cells.c0120!.value).not.toContain(catalogue.providerById.get(providerId)!.provider.name);
    }
  });

  it("fills what the request gives: the entity's LEI, contract references and functions", () => {
    const register = bank();
    for (const row of register.templates[1]!.rows) {
      expect(row.cells.c0020).toMatchObject({ value: BANK_REQUEST.entity!.lei, basis: "request" });
      expect(row.cells.c0010!.basis).toBe("request");
      expect(row.cells.c0050!.basis).toBe("request");
    }
    expect(register.parameters).toEqual({
      entityID: `rs:${BANK_REQUEST.entity!.lei}.IND`,
      refPeriod: "2026-12-31",
      baseCurrency: "iso4217:EUR",
      decimalsInteger: "0",
      decimalsMonetary: "0",
    });
  });

  it("reports a provider's LEI only from a sourced record or the request", () => {
    const register = bank();
    for (const row of register.templates[0]!.rows) expect(row.cells.c0010!.basis).toBe("entity");
    const given = registerOf({
      ids: ["ovhcloud-object-storage"],
      entity: { providerCodes: { ovhcloud: "9695001J8OSOVX4TP939" } },
    });
    expect(given.templates[0]!.rows[0]!.cells.c0010).toMatchObject({ value: "9695001J8OSOVX4TP939", basis: "request" });
    expect(given.templates[0]!.rows[0]!.cells.c0020!.value).toBe("eba_qCO:qx2000");
  });

  it("refuses entity fields naming a provider or service not in the list, naming each", () => {
    for (const entity of [
      { arrangements: { gcp: "X" } },
      { providerCodes: { gcp: "9695001J8OSOVX4TP939" } },
      { functions: { "gcp-bigquery": "F" } },
    ]) {
      const attempt = () => registerOf({ ids: ["aws-s3"], entity });
      expect(attempt).toThrow(HttpError);
      try {
        attempt();
      } catch (error) {
        expect((error as HttpError).title).toBe("Invalid register request");
        expect((error as HttpError).details).toMatch(/gcp/);
      }
    }
  });

  it("refuses an unknown place and a target no provider meets, as the policies and the exit plan do", () => {
    expect(() => registerOf({ ids: ["aws-s3"], allowedLocations: ["atlantis"] })).toThrow(/Unknown locations/);
    expect(() => registerOf({ ids: ["aws-s3"], to: { providers: ["nope"] } })).toThrow(HttpError);
  });

  it("keeps every cell traced and every check named for any list and any places", () => {
    const slugs = catalogue.services
      .filter((service) => ["aws", "azure", "gcp", "ovhcloud", "scaleway", "hetzner"].includes(service.providerId))
      .filter((service) => service.lifecycle?.status !== "retired")
      .map((service) => service.slug);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...slugs), { minLength: 1, maxLength: 6 }),
        fc.option(fc.subarray(["EU", "DE", "FR", "eu-central-1", "westeurope", "global"], { minLength: 1 }), {
          nil: undefined,
        }),
        (ids, places) => {
          const register = registerOf({ ids, allowedLocations: places });
          expect(Register.safeParse(register).success).toBe(true);
          expectEveryCellTraced(register);
          for (const failure of register.checks.failures) expect(register.checks.run).toContain(failure.rule);
        },
      ),
      { numRuns: 15 },
    );
  });
});
