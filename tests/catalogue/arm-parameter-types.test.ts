/**
 * Issue 126: an ARM parameter given a value of another type than the one it declares is a 400
 * (Azure Resource Manager refuses such a deployment); an int given "two" was read as no value and
 * left its resources in dependsOnInputs. Ints and bools written as text (`--var count=2`) are read
 * as Azure's CLI reads them.
 */
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { HttpError } from "../../catalogue/base/problem.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

/** Storage accounts, as many as the int parameter `count` says, behind the bool `deploy`. */
const template = {
  $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
  contentVersion: "1.0.0.0",
  parameters: {
    count: { type: "int" },
    deploy: { type: "bool", defaultValue: true },
    name: { type: "string", defaultValue: "store" },
    tags: { type: "object", defaultValue: {} },
  },
  resources: [
    {
      type: "Microsoft.Storage/storageAccounts",
      apiVersion: "2023-01-01",
      name: "[concat(parameters('name'), copyIndex())]",
      location: "westeurope",
      condition: "[parameters('deploy')]",
      copy: { name: "stores", count: "[parameters('count')]" },
      kind: "StorageV2",
      sku: { name: "Standard_LRS" },
    },
  ],
};
const check = (inputs: Record<string, unknown>) =>
  checkTemplate(catalogue, template, ["azure-blob-storage"], undefined, undefined, { inputs });

describe("an ARM parameter's value of another type than it declares", () => {
  it.each([
    [{ count: "two" }, "count", "an int"],
    [{ count: 2.5 }, "count", "an int"],
    [{ count: 2, deploy: "yes" }, "deploy", "a bool"],
    [{ count: 2, name: 7 }, "name", "a string"],
    [{ count: 2, tags: ["a"] }, "tags", "an object"],
  ])("is a 400 Invalid template naming it: %j", (inputs, name, kind) => {
    let refused: unknown;
    try {
      check(inputs);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 400, title: "Invalid template" });
    expect((refused as HttpError).details).toContain(`inputs.${name}: the template declares ${name} ${kind}`);
  });

  it("reads ints and bools written as text as their values, as a typed value", () => {
    const asText = check({ count: "2", deploy: "TRUE" });
    const typed = check({ count: 2, deploy: true });
    expect(asText.dependsOnInputs ?? []).toEqual([]);
    expect(asText).toEqual(typed);
  });
});
