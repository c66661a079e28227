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

document.querySelectorAll<HTMLButtonElement>("[data-download]").forEach((button) =>
  button.addEventListener("click", async () => {
    const ids = readList();
    if (ids.length === 0) return say("Add services to your list first.");
    const response = await post(button.dataset.download!, { approvedServiceIds: ids });
    if (!response.ok) {
      const error = await response.json();
      return say(`${error.error}: ${error.details ?? ""}`);
    }
    const isMarkdown = button.dataset.file!.endsWith(".md");
    // The policy endpoints answer the vendor document itself (contract 1.6.0): saved as it comes, indented.
    const body = isMarkdown ? await response.text() : JSON.stringify(await response.json(), null, 2);
    const url = URL.createObjectURL(new Blob([body], { type: isMarkdown ? "text/markdown" : "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = button.dataset.file!;
    a.click();
    URL.revokeObjectURL(url);
    say(`Downloaded ${button.dataset.file}.`);
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
