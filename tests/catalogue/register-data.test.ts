import { describe, expect, it } from "vitest";
import { registerProblems } from "../../catalogue/load/register-data.ts";
import { RegisterFile, type RegisterFileT } from "../../catalogue/schema/index.ts";

const source = { url: "https://example.org/terms", retrieved: "2026-11-29", claims: ["The terms name the entity."] };
const file: RegisterFileT = {
  serviceTypes: [
    { category: "compute", type: "S17", reason: "Machines the customer provisions." },
    { category: "databases", type: "S18", reason: "Managed engines the customer's applications use." },
  ],
  entities: [{ provider: "aws", contractingEntity: { name: "Example SARL", sources: [source] } }],
};
const problemsOf = (changed: RegisterFileT) =>
  registerProblems(changed, "register.yaml", new Set(["compute", "databases"]), new Set(["aws", "azure"]));

describe("data/register.yaml's checks", () => {
  it("passes a file typing every category once and naming known providers", () => {
    expect(problemsOf(file)).toEqual([]);
  });

  it("names a category left untyped, typed twice or unknown, and a provider unknown or listed twice", () => {
    const problems = problemsOf({
      serviceTypes: [file.serviceTypes[0]!, file.serviceTypes[0]!, { ...file.serviceTypes[0]!, category: "nope" }],
      entities: [file.entities[0]!, file.entities[0]!, { ...file.entities[0]!, provider: "nope" }],
    });
    expect(problems).toEqual([
      'register.yaml: serviceTypes[1]: category "compute" is listed twice',
      'register.yaml: serviceTypes[2]: unknown category "nope" (see categories.yaml)',
      'register.yaml: serviceTypes: category "databases" has no ICT service type; add a row with its reason',
      'register.yaml: entities[1]: provider "aws" is listed twice',
      'register.yaml: entities[2]: unknown provider "nope" (see providers/)',
    ]);
  });

  it("refuses an LEI whose check digits are wrong, and a service type outside S01 to S19", () => {
    const withLei = (lei: string) => ({
      ...file,
      entities: [{ ...file.entities[0]!, contractingEntity: { ...file.entities[0]!.contractingEntity, lei } }],
    });
    expect(RegisterFile.safeParse(withLei("9695001J8OSOVX4TP939")).success).toBe(true);
    expect(RegisterFile.safeParse(withLei("9695001J8OSOVX4TP938")).success).toBe(false);
    expect(RegisterFile.safeParse({ ...file, serviceTypes: [{ ...file.serviceTypes[0]!, type: "S20" }] }).success).toBe(
      false,
    );
  });
});
