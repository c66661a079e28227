/**
 * The list builder's deployment check (components/pages/DeploymentCheckBox.astro): the pasted or
 * chosen template and the page's list (the form's ids field, which scripts/list.ts keeps as the
 * list: the address's or this browser's), sent to POST /v1/deployments/check; the answer drawn
 * below the form as text nodes (template text is never parsed as HTML).
 */
import { whatToAdd } from "../../../catalogue/templates/answer/render.ts";
import type { components } from "../../../catalogue/generated/openapi-types.ts";
import { api, errorMessage } from "./api.ts";

type Answer = components["schemas"]["TemplateCheck"];

const form = document.querySelector<HTMLFormElement>("[data-check-form]");
const answerBox = document.querySelector<HTMLElement>("[data-check-answer]")!;
const fileInput = document.querySelector<HTMLInputElement>("#check-file");

const element = (tag: string, text: string) => {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
};

function draw(answer: Answer): void {
  const verdicts = answer.verdicts.map((verdict) =>
    element(
      "p",
      `${verdict.providerId}, from ${verdict.approvedServiceIds.join(", ") || "nothing"}: ${
        verdict.allowed
          ? "allowed"
          : verdict.notEvaluated
            ? `not evaluated (not read: ${verdict.notEvaluated.join("; ")})`
            : `denied ${verdict.denied.map((entry) => entry.identifier).join(", ")}`
      }.`,
    ),
  );
  // The sentence follows missingServiceIds and the verdicts: never "every service" over a denial.
  const add = whatToAdd(answer);
  const statements = document.createElement("ul");
  for (const statement of answer.statements)
    statements.append(element("li", `${statement.text} Checked: ${statement.checked.join("; ")}.`));
  answerBox.replaceChildren(element("h3", "Answer"), element("p", add), ...verdicts, statements);
}

async function check(template: string): Promise<void> {
  const ids = (form?.querySelector<HTMLInputElement>("[data-check-ids]")?.value ?? "").split(",").filter(Boolean);
  if (ids.length === 0) return void answerBox.replaceChildren(element("p", "Add services to your list first."));
  if (template.trim() === "") return void answerBox.replaceChildren(element("p", "Paste a template or choose a file."));
  answerBox.replaceChildren(element("p", "Checking…"));
  const { data, error, response } = await api.POST("/v1/deployments/check", {
    body: { template, approvedServiceIds: ids },
  });
  if (!data) return void answerBox.replaceChildren(element("p", errorMessage(error, response)));
  draw(data);
}

if (form && fileInput) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = fileInput.files?.[0];
    const text = form.querySelector<HTMLTextAreaElement>("textarea")!.value;
    void (file && text.trim() === "" ? file.text() : Promise.resolve(text)).then(check);
  });
}
