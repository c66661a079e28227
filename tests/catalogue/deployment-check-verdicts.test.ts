/**
 * Issue 96, "True verdicts": what the deployment check says is denied, missing or needed is what the
 * documents and the vendors' pages say, no more: an API the constraint does not govern is never
 * denied, every service the verdict needs is in missingServiceIds, a tool's needs are not the
 * deployment's, a template's runtime needs are read from its properties, and what was not read
 * (a linked template) is said so rather than allowed.
 */
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { whatToAdd } from "../../catalogue/templates/render.ts";
import { realCatalogue } from "../helpers/app.ts";

const catalogue = realCatalogue();

describe("missingServiceIds holds every service whose approval the verdict needs", () => {
  it("a list without aws-cloudformation: the stack operations are denied, and aws-cloudformation is missing", () => {
    const answer = checkTemplate(catalogue, { Resources: { Bucket: { Type: "AWS::S3::Bucket" } } }, ["aws-s3"]);
    const [first, last] = answer.verdicts;
    expect(first!.denied.map((entry) => entry.identifier)).toContain("cloudformation:CreateStack");
    expect(answer.missingServiceIds).toEqual(["aws-cloudformation"]);
    expect(answer.suggestedServiceIds).toEqual(["aws-cloudformation", "aws-s3"]);
    expect(last!.allowed).toBe(true);
    expect(whatToAdd(answer)).toBe("Add to your list: aws-cloudformation.");
  });

  it("the sentence never says the list holds every service while something stays denied", () => {
    const denied = {
      providerId: "gcp" as const,
      approvedServiceIds: ["gcp-eventarc"],
      allowed: false,
      checked: 2,
      denied: [{ identifier: "x.googleapis.com", neededFor: ["x.googleapis.com"], approve: [] }],
      wider: [],
    };
    expect(whatToAdd({ missingServiceIds: [], verdicts: [denied] })).toBe(
      "No catalogue service would allow what stays denied: x.googleapis.com.",
    );
    expect(whatToAdd({ missingServiceIds: [], verdicts: [{ ...denied, allowed: true, denied: [] }] })).toBe(
      "Your list holds every service this deployment uses.",
    );
  });
});
