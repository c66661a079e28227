/**
 * /list/: the approved-list builder. The three policies (explained) and the Markdown export are
 * computed here by the API's own functions over the compact catalogue (list-catalogue.ts), so
 * only Save spends a request of the API's strict bucket. The list is the address's when it names
 * services (?ids=, or a saved list's ?list=): edits then stay in the address, and this browser's
 * list changes only when asked ("Make this my list"). Else it is the browser's, and follows edits
 * in other tabs. Every form's ids field holds the list, which the deployment check reads too.
 */
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../../catalogue/policies/documents.ts";
import { PolicyRequestError } from "../../../catalogue/policies/errors.ts";
import {
  azurePolicySetTerraform,
  gcpOrgPolicyTerraform,
  scpTerraform,
  TERRAFORM_MEDIA_TYPE,
} from "../../../catalogue/policies/terraform.ts";
import { renderMarkdown } from "../../../catalogue/format/markdown.ts";
import { approvedListDoc } from "../../../catalogue/render/pages.ts";
import { api, errorMessage } from "./api.ts";
import {
  addressIds,
  addressListId,
  LIST_CHANGED,
  readList,
  saveFile,
  wireCopy,
  writeAddressIds,
  writeList,
} from "./common.ts";
import { describeService, listCatalogue, splitKnown, type BrowserCatalogue } from "./list-catalogue.ts";
import { picker } from "./picker.ts";
import { listPath } from "../../../catalogue/base/urls.ts";

const status = document.querySelector<HTMLElement>("[data-list-status]")!;
/** A message, with an address after it: absolute, as it is shared, and a button that copies it. */
const say = (text: string, link?: string) => {
  status.replaceChildren(text);
  if (link) {
    const a = document.createElement("a");
    a.href = new URL(link, location.href).href;
    a.textContent = a.href;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "secondary";
    copy.dataset.copy = a.href;
    copy.textContent = "Copy address";
    wireCopy(copy);
    status.append(" ", a, " ", copy);
  }
};

/** What a policy generator explains beside its download (catalogue/schema/policy-documents.ts). */
interface Explained {
  policy: unknown;
  characters: number;
  skipped: { id: string; reason: string }[];
  implied: { id: string; identifiers: string[]; linkedTo: string[] }[];
  essentials: string[];
  unconfirmed: string[];
  notes: string[];
}

/** A section's files: the body and type of each, by extension; explain mode's report beside them. */
type Made = { files: Record<string, { body: string; type: string }>; explained?: Explained } | { error: string };

const GENERATORS: Record<string, (c: BrowserCatalogue, ids: string[]) => Made> = {
  scp: (c, ids) => {
    const result = scpPolicy(c, ids);
    return policy(result, scpTerraform([result.policy], { strategy: result.strategy }));
  },
  azure: (c, ids) => {
    const result = azurePolicySet(c, ids);
    return policy(result, azurePolicySetTerraform(result.policy));
  },
  gcp: (c, ids) => {
    const result = gcpOrgPolicy(c, ids);
    return policy(result, gcpOrgPolicyTerraform(result.policy));
  },
  markdown: (c, ids) => ({
    files: { md: { body: renderMarkdown(approvedListDoc(c, ids)), type: "text/markdown" } },
  }),
};
// The .json is the vendor document itself (contract 1.6.0), indented; the .tf the same document
// as Terraform configuration (contract 1.11.0).
const policy = (explained: Explained, terraform: string): Made => ({
  files: {
    json: { body: JSON.stringify(explained.policy, null, 2), type: "application/json" },
    tf: { body: terraform, type: TERRAFORM_MEDIA_TYPE },
  },
  explained,
});

function explanation(made: Made, catalogue: BrowserCatalogue): Node[] {
  if ("error" in made) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = made.error;
    return [p];
  }
  const explained = made.explained;
  if (!explained) return [];
  const name = (id: string) => catalogue.listed.get(id)?.service.name ?? id;
  const nodes: Node[] = [];
  const summary = document.createElement("p");
  summary.className = "muted";
  summary.textContent = `${explained.characters} characters.`;
  nodes.push(summary);
  const list = (label: string, items: string[]) => {
    if (items.length === 0) return;
    const details = document.createElement("details");
    const title = document.createElement("summary");
    title.textContent = `${label} (${items.length})`;
    const ul = document.createElement("ul");
    for (const item of items) {
      const li = document.createElement("li");
      li.textContent = item;
      ul.append(li);
    }
    details.append(title, ul);
    nodes.push(details);
  };
  list(
    "Skipped",
    explained.skipped.map((s) => `${name(s.id)}: ${s.reason}`),
  );
  list(
    "Also allowed through shared identifiers",
    explained.implied.map(
      (i) =>
        `${name(i.id)} via ${i.identifiers.join(", ")}${i.linkedTo.length ? ` (from ${i.linkedTo.map(name).join(", ")})` : " (essentials)"}`,
    ),
  );
  list("Essentials kept usable", explained.essentials);
  list("Not confirmed as supported by the constraint", explained.unconfirmed);
  list("Notes", explained.notes);
  return nodes;
}

const sections = [...document.querySelectorAll<HTMLElement>("[data-download]")];
let current: Record<string, Made> = {};

/** Where the list comes from: the address when it names services or a saved list, else this browser. */
const savedListId = addressListId();
const fromAddress = addressIds().length > 0 || savedListId !== undefined;
const pickerRoot = document.querySelector<HTMLElement>('[data-picker="list"]')!;
/** The chips the page rendered for the address's ids (the known ones), which the picker keeps. */
const renderedIds = [...pickerRoot.querySelectorAll<HTMLElement>("[data-picker-selected] li[data-slug]")].map(
  (item) => item.dataset.slug!,
);
let listed: string[] = fromAddress ? (renderedIds.length > 0 ? renderedIds : addressIds()) : readList();

/** The list into every form's ids field (downloads, save, the deployment check), as the page without JavaScript has it. */
function fillForms(): void {
  for (const field of document.querySelectorAll<HTMLInputElement>('input[type="hidden"][name="ids"]'))
    field.value = listed.join(",");
}

/** The list changed here: kept where it comes from, and everything made from it redone. */
function changeList(next: string[]): void {
  listed = next;
  if (fromAddress) writeAddressIds(next);
  else writeList(next);
  fillForms();
  if (catalogue) recompute(catalogue);
}

function recompute(catalogue: BrowserCatalogue) {
  const ids = splitKnown(catalogue, listed).known;
  current = {};
  for (const section of sections) {
    const kind = section.dataset.download!;
    let made: Made;
    if (ids.length === 0) made = { error: "Add services to your list first." };
    else {
      try {
        made = GENERATORS[kind]!(catalogue, ids);
      } catch (error) {
        if (!(error instanceof PolicyRequestError)) throw error;
        made = { error: `${error.title}: ${error.message}` };
      }
    }
    current[kind] = made;
    for (const button of section.querySelectorAll<HTMLButtonElement>("[data-download-button]"))
      button.disabled = "error" in made;
    section.querySelector("[data-explain]")!.replaceChildren(...explanation(made, catalogue));
  }
}

// Each form gets its file from the text host without JavaScript; here the browser makes it.
for (const section of sections)
  for (const form of section.querySelectorAll<HTMLFormElement>("[data-download-form]"))
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const made = current[section.dataset.download!];
      if (!made || "error" in made) return;
      const file = form.dataset.file!;
      const one = made.files[file.slice(file.lastIndexOf(".") + 1)];
      if (!one) return;
      saveFile(file, one.body, one.type);
      say(`Downloaded ${file}.`);
    });

let catalogue: BrowserCatalogue | undefined;
const control = picker(
  pickerRoot,
  // Chips rendered with the page stand as they are (no layout shift).
  renderedIds.length > 0 ? [] : listed,
  changeList,
  (slug) => describeService(catalogue, slug),
);
window.addEventListener(LIST_CHANGED, () => {
  // The address's list is not this browser's: another tab's edit leaves it as it is.
  if (fromAddress) return;
  listed = readList();
  control.show(listed);
  fillForms();
  if (catalogue) recompute(catalogue);
});
fillForms();
if (fromAddress) document.querySelector<HTMLElement>("[data-list-source]")!.hidden = false;

// "Make this my list": the address's services become this browser's list (asked first when that
// would replace another non-empty list), and the page then works on it as on any list of its own.
const adoptButton = document.querySelector<HTMLButtonElement>("[data-adopt-address]");
let confirming = false;
adoptButton?.addEventListener("click", () => {
  const mine = readList();
  const same = mine.length === listed.length && mine.every((id, i) => id === listed[i]);
  // Never silently: another list in this browser is replaced on a second press, once said.
  if (mine.length > 0 && !same && !confirming) {
    confirming = true;
    adoptButton.textContent = `Replace my ${mine.length} services`;
    return say(
      `Your list in this browser has ${mine.length} services: press again to replace them with these ${listed.length}.`,
    );
  }
  confirming = false;
  adoptButton.textContent = "Make this my list";
  writeList(listed);
  say(`This browser's list is now these ${listed.length} services.`);
});
// A saved list named in the address (?list=): its services, read once (GET /v1/lists/{id}, not rate-limited).
const savedListLoaded = savedListId
  ? api
      .GET("/v1/lists/{id}", { params: { path: { id: savedListId } } })
      .then(({ data: list, error, response }) => {
        if (!list) return say(errorMessage(error, response));
        listed = list.approvedServiceIds;
        control.show(listed);
        fillForms();
        if (catalogue) recompute(catalogue);
        say(`The services of the saved list “${list.name ?? list.slug ?? savedListId}”.`);
      })
      .catch(() => say("The saved list could not be loaded; reload the page to try again."))
  : undefined;
// What follows the picker is out of sight until drawn when a list was there at first paint (global.css).
const drawn = () => (document.documentElement.dataset.listDrawn = "");
const catalogueLoaded = listCatalogue().then(
  (loaded) => {
    catalogue = loaded;
    // A shared link may carry ids the catalogue no longer has: the page names them, the list leaves them out.
    const known = splitKnown(loaded, listed).known;
    if (known.length < listed.length) {
      listed = known;
      control.show(listed);
      fillForms();
    }
    control.refresh();
    recompute(loaded);
  },
  () => say("The catalogue could not be loaded; reload the page to download files."),
);
void Promise.allSettled([catalogueLoaded, savedListLoaded]).then(drawn);

document.querySelector<HTMLFormElement>("[data-save]")!.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const ids = listed;
  if (ids.length === 0) return say("Add services to your list first.");
  const field = (key: string) => {
    const value = form.get(key);
    return typeof value === "string" ? value.trim() : "";
  };
  const name = field("name");
  const slug = field("slug");
  // Unlisted (ticked by default): saved by its generated id only. A custom address asks for a listed
  // list, so it wins over the default (the API refuses the two together).
  const unlisted = form.get("unlisted") === "true" && !slug;
  const {
    data: body,
    error,
    response,
  } = await api.POST("/v1/lists", {
    body: {
      approvedServiceIds: ids,
      ...(name ? { name } : {}),
      ...(slug ? { slug } : {}),
      ...(unlisted ? { unlisted: true } : {}),
    },
  });
  if (!body) return say(errorMessage(error, response));
  say("Saved. Share this address:", listPath(body));
});
