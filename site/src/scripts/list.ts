/** /list/: the approved-list builder — edit, download the policies and Markdown, save and share. */
import { API_URL, readList, writeList } from "./common.ts";
import { picker } from "./picker.ts";

const status = document.querySelector<HTMLElement>("[data-list-status]")!;
const say = (text: string, link?: string) => {
  status.replaceChildren(text);
  if (link) {
    const a = document.createElement("a");
    a.href = link;
    a.textContent = link;
    status.append(" ", a);
  }
};

picker(document.querySelector<HTMLElement>('[data-picker="list"]')!, readList(), (slugs) => writeList(slugs));

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${API_URL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The explain-mode answer of the policy endpoints (catalogue/schema/policy-documents.ts). */
interface Explained {
  policy: unknown;
  characters: number;
  skipped: { id: string; reason: string }[];
  implied: { id: string; identifiers: string[]; linkedTo: string[] }[];
  essentials: string[];
  unconfirmed: string[];
  notes: string[];
}

const explainBox = document.querySelector<HTMLElement>("[data-explain]")!;

/** What the download left out, also allows and keeps, beside the buttons (text only, no markup from the API). */
function showExplain(file: string, explained: Explained) {
  const section = document.createElement("section");
  section.className = "card";
  const title = document.createElement("h3");
  title.textContent = `${file} (${explained.characters} characters)`;
  section.append(title);
  const list = (label: string, items: string[]) => {
    if (items.length === 0) return;
    const heading = document.createElement("p");
    heading.textContent = `${label} (${items.length}):`;
    const ul = document.createElement("ul");
    for (const item of items) {
      const li = document.createElement("li");
      li.textContent = item;
      ul.append(li);
    }
    section.append(heading, ul);
  };
  list(
    "Skipped",
    explained.skipped.map((s) => `${s.id}: ${s.reason}`),
  );
  list(
    "Also allowed through shared identifiers",
    explained.implied.map(
      (i) =>
        `${i.id} via ${i.identifiers.join(", ")}${i.linkedTo.length ? ` (from ${i.linkedTo.join(", ")})` : " (essentials)"}`,
    ),
  );
  list("Essentials kept usable", explained.essentials);
  list("Not confirmed as supported by the constraint", explained.unconfirmed);
  list("Notes", explained.notes);
  explainBox.querySelector(`[data-explain-file="${file}"]`)?.remove();
  section.dataset.explainFile = file;
  explainBox.append(section);
}

document.querySelectorAll<HTMLButtonElement>("[data-download]").forEach((button) =>
  button.addEventListener("click", async () => {
    const ids = readList();
    if (ids.length === 0) return say("Add services to your list first.");
    const explained = "explained" in button.dataset;
    // One request per download: with explain=true the document comes with its explanation.
    const response = await post(`${button.dataset.download!}${explained ? "?explain=true" : ""}`, {
      approvedServiceIds: ids,
    });
    if (!response.ok) {
      const error = await response.json();
      return say(`${error.error}: ${error.details ?? ""}`);
    }
    const file = button.dataset.file!;
    const isMarkdown = file.endsWith(".md");
    let body: string;
    if (isMarkdown) body = await response.text();
    else if (explained) {
      const answer = (await response.json()) as Explained;
      // The file is the vendor document itself (contract 1.6.0), indented.
      body = JSON.stringify(answer.policy, null, 2);
      showExplain(file, answer);
    } else body = JSON.stringify(await response.json(), null, 2);
    const url = URL.createObjectURL(new Blob([body], { type: isMarkdown ? "text/markdown" : "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = file;
    a.click();
    URL.revokeObjectURL(url);
    say(`Downloaded ${file}.`);
  }),
);

document.querySelector<HTMLFormElement>("[data-save]")!.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const ids = readList();
  if (ids.length === 0) return say("Add services to your list first.");
  const name = String(form.get("name") ?? "").trim();
  const slug = String(form.get("slug") ?? "").trim();
  const response = await post("/v1/lists", {
    approvedServiceIds: ids,
    ...(name ? { name } : {}),
    ...(slug ? { slug } : {}),
  });
  const body = await response.json();
  if (!response.ok) return say(`${body.error}: ${body.details ?? ""}`);
  say("Saved. Share this address:", `/lists/${body.slug ?? body.id}`);
});
