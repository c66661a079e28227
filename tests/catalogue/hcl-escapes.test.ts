/**
 * Issue 109: `bucket = "\UFFFFFFFF"` reached String.fromCodePoint unchecked and was a 500 on every
 * face. HCL's own parser refuses an escape UTF-8 cannot encode; so does this reader, as a 400 naming
 * the file, line and column.
 */
import { describe, expect, it } from "vitest";
import { TemplateError } from "../../catalogue/templates/errors.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";

const bucket = (value: string) =>
  new TerraformFiles({ "main.tf": `resource "aws_s3_bucket" "logs" {\n  bucket = "${value}"\n}\n` });

describe("HCL string escapes", () => {
  it.each([
    ["\\UFFFFFFFF", "U+FFFFFFFF cannot be encoded"],
    ["\\U00110000", "U+00110000 cannot be encoded"],
    ["\\uD800", "U+D800 cannot be encoded"],
    ["\\uDFFF", "U+DFFF cannot be encoded"],
    ["\\u12", "takes 4 hexadecimal digits"],
    ["\\U0001F60", "takes 8 hexadecimal digits"],
    ["\\q", "is not an escape HCL knows"],
  ])("refuses %s as a template error naming file, line and column", (escape, words) => {
    let thrown: unknown;
    try {
      readDeployment(bucket(escape));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TemplateError);
    expect((thrown as Error).message).toMatch(/^main\.tf, line 2, column 13: /);
    expect((thrown as Error).message).toContain(words);
  });

  it("reads the escapes HCL defines, supplementary planes included", () => {
    const deployment = readDeployment(bucket('a\\u00e9\\U0001F600\\n\\t\\"\\\\b'));
    expect(deployment.items.map((item) => item.item)).toEqual(["aws_s3_bucket"]);
  });
});
