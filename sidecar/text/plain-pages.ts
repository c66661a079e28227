/**
 * The site's pages that only the site renders (the list builder, the exit planner, the exposure
 * scorecard, the feedback form and its thanks), as the text host answers a browser when it has no
 * built site: `npm start`'s first minute, served from the sources while dist/ builds (issue 116:
 * /list/, /list/exit/ and /exposure/ were 404s until the build landed). Each is the site's page
 * without its scripts, in the site's frame (catalogue/format/html.ts renderPage): forms of ids that
 * the text host already answers (the builder's downloads, Save and deployment check, the planner's
 * plan, the scorecard), the same fields as the site's no-JavaScript forms. Never kept by a cache:
 * the site's own page replaces it once built.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  FEEDBACK_MESSAGE,
  LIST_NAME_MAX,
  LIST_SLUG_LENGTH,
  MAX_EXPOSURE_IDS,
  STRICT_BUCKET_TEXT,
} from "../../catalogue/base/limits.ts";
import { href, servicePath } from "../../catalogue/base/urls.ts";
import { exposureReport, JURISDICTION_RULE } from "../../catalogue/equivalence/exposure.ts";
import { escapeHtml, renderPage } from "../../catalogue/format/html.ts";
import type { Catalogue } from "../../catalogue/load/load.ts";
import { ADDRESS_LIST_PROBLEM, addressList, listBuilderRequest } from "../../catalogue/outputs/page-requests.ts";
import { splitRequestUrl } from "../files.ts";
import type { TextContext } from "./context.ts";
import { LIST_FILES } from "./list-files.ts";

/** The site pages this module answers, by their path without slashes. */
export type PlainPage = "list" | "list/exit" | "exposure" | "feedback" | "feedback/thanks";

const PLAIN_PAGES: ReadonlySet<string> = new Set<PlainPage>([
  "list",
  "list/exit",
  "exposure",
  "feedback",
  "feedback/thanks",
]);

export const isPlainPage = (path: string): path is PlainPage => PLAIN_PAGES.has(path);

const NOT_BUILT =
  "The site's own page is not built here yet (npm start builds it in the background; reload in a little while for it): this plain page does the same without its scripts.";

/** Answers `page` in HTML, uncached; a saved list the address names (?list=) fills it as ?ids= would. */
export async function plainPage(c: TextContext, request: FastifyRequest, reply: FastifyReply, page: PlainPage) {
  const params = new URLSearchParams(splitRequestUrl(request.url).query);
  const given =
    params.has("list") && !params.has("ids") ? await addressList(c.catalogue, c.store, params, new Date()) : undefined;
  if (given?.saved) params.set("ids", [...given.known, ...given.unknown].join(","));
  const [title, main] = PAGES[page](c.catalogue, params);
  const problem = given?.problem
    ? `<aside class="warning" role="note">${escapeHtml(ADDRESS_LIST_PROBLEM[given.problem])}</aside>`
    : "";
  const status = given?.problem === "missing" ? 404 : given?.problem ? 503 : 200;
  return c.replies.text(request, reply, status, "html", renderPage(title, problem + main), false);
}

const PAGES: Record<PlainPage, (catalogue: Catalogue, params: URLSearchParams) => [string, string]> = {
  list: listBuilder,
  "list/exit": exitPlanner,
  exposure,
  feedback: () => [
    "Feedback",
    `<h1>Feedback</h1><p>Found a wrong fact, a missing service or a bug? Tell us.</p>
<form method="post" action="${href("feedback")}"><p><label for="fb-type">Type</label><br><select id="fb-type" name="type"><option value="general">General</option><option value="bug">Bug</option><option value="feature">Feature</option><option value="question">Question</option></select></p>
<p><label for="fb-message">Message (${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters)</label><br><textarea id="fb-message" name="message" rows="6" minlength="${FEEDBACK_MESSAGE.min}" maxlength="${FEEDBACK_MESSAGE.max}" required></textarea></p>
<p><label for="fb-email">Email for a reply (optional)</label><br><input id="fb-email" name="email" type="email"></p><button type="submit">Send</button></form>`,
  ],
  "feedback/thanks": () => [
    "Thank you",
    `<h1>Thank you</h1><p>Your feedback was recorded. <a href="${href("home")}">Back to the catalogue</a>.</p>`,
  ],
};

const notBuilt = () => `<aside class="info">${escapeHtml(NOT_BUILT)}</aside>`;

/** A GET form of ids, as the site's no-JavaScript forms have it. */
const idsForm = (action: string, ids: string, label: string, button: string, required = false) =>
  `<form method="get" action="${action}"><p><label for="plain-ids">${escapeHtml(label)}</label><br><input id="plain-ids" name="ids" type="text" spellcheck="false" autocomplete="off" value="${escapeHtml(ids)}"${required ? " required" : ""}> <button type="submit">${button}</button></p>`;

/** The known ids asked for, each a link to its page, and a note naming the unknown ones. */
function chosen(catalogue: Catalogue, known: readonly string[], unknown: readonly string[]): string {
  const items = known.map((slug) => {
    const { service } = catalogue.bySlug.get(slug)!;
    const provider = catalogue.providerById.get(service.providerId)!.provider;
    return `<li><a href="${escapeHtml(servicePath(service))}">${escapeHtml(service.name)}</a> (${escapeHtml(provider.shortName)})</li>`;
  });
  return [
    unknown.length > 0
      ? `<aside class="warning" role="note">Not in the catalogue, left out: ${escapeHtml(unknown.slice(0, 20).join(", "))}.</aside>`
      : "",
    known.length > 0 ? `<h2>Selected (${known.length})</h2><ul>${items.join("")}</ul>` : "",
  ].join("");
}

function listBuilder(catalogue: Catalogue, params: URLSearchParams): [string, string] {
  const { known, unknown } = listBuilderRequest(catalogue, params);
  const ids = known.join(",");
  const idsField = `<input type="hidden" name="ids" value="${escapeHtml(ids)}">`;
  const downloads =
    known.length === 0
      ? "<p>Add services to your list first.</p>"
      : `<ul>${Object.keys(LIST_FILES)
          .map((file) => `<li><a href="${escapeHtml(href("list-file", { file }, { ids }))}">Download ${file}</a></li>`)
          .join("")}</ul>`;
  return [
    "My approved list",
    `<h1>My approved list</h1>${notBuilt()}
${idsForm(href("list-builder"), ids, "Service ids, separated by commas (e.g. aws-s3,aws-ec2)", "Choose")}</form>
${chosen(catalogue, known, unknown)}
<h2>Download</h2>${downloads}
<h2>Check a deployment</h2>
<form method="post" action="${href("deployment-check")}" enctype="multipart/form-data">${idsField}
<p><label for="check-template">Template (CloudFormation or SAM, ARM, a Terraform plan, or Google API names)</label><br><textarea id="check-template" name="template" rows="8" spellcheck="false"></textarea></p>
<p><label for="check-file">Or choose a file</label> <input id="check-file" name="file" type="file"></p><button type="submit">Check</button></form>
<h2>Plan an exit</h2><p><a href="${escapeHtml(href("exit-planner", known.length > 0 ? { ids } : {}))}">Plan an exit</a> for these services.</p>
<h2>Save and share</h2>
<form method="post" action="${href("save-list")}">${idsField}
<p><label for="list-name">Name</label><br><input id="list-name" name="name" maxlength="${LIST_NAME_MAX}"></p>
<p><label for="list-slug">Custom address (optional: ${LIST_SLUG_LENGTH.min}–${LIST_SLUG_LENGTH.max} lowercase letters, digits and hyphens)</label><br><input id="list-slug" name="slug" minlength="${LIST_SLUG_LENGTH.min}" maxlength="${LIST_SLUG_LENGTH.max}"></p>
<p><label><input type="checkbox" name="unlisted" value="true" checked> Unlisted: no address from the name, only an unguessable one</label></p>
<p>${escapeHtml(STRICT_BUCKET_TEXT)}</p><button type="submit">Save list</button></form>`,
  ];
}

/** A checkbox per value, `name` repeated (the planner's form, sidecar/text/exit-plan.ts formTarget). */
const boxes = (name: string, options: readonly (readonly [string, string])[]) =>
  options
    .map(
      ([value, text]) =>
        `<label><input type="checkbox" name="${name}" value="${escapeHtml(value)}"> ${escapeHtml(text)}</label> `,
    )
    .join("");

function exitPlanner(catalogue: Catalogue): [string, string] {
  const providers = catalogue.providers.map((p) => [p.id, p.name] as const);
  const jurisdictions = [...new Set(catalogue.providers.map((p) => p.jurisdiction ?? ""))]
    .filter(Boolean)
    .sort()
    .map((code) => [code, code] as const);
  return [
    "Plan an exit",
    `<h1>Plan an exit</h1>${notBuilt()}
<p>Where could your approved list go? Choose the providers you would accept; each service then stays, maps to its equivalents on those providers or is named as a gap.</p>
${idsForm(href("exit-planner"), "", "Services to plan: their ids, comma-separated (as in their addresses)", "Plan", true)}
<fieldset><legend>Target (every criterion chosen must hold; none: sovereign-option providers)</legend>
<label class="block"><input type="checkbox" name="sovereignOption" checked> Only sovereign-option providers (head office and controlling parent in the EU/EEA or Switzerland)</label>
<label class="block"><input type="checkbox" name="euResidentOnly"> Only EU-resident-only providers (head office and every region in the EU/EEA)</label>
<fieldset><legend>Only these head-office jurisdictions (none ticked: any)</legend><p>${escapeHtml(JURISDICTION_RULE)}</p>${boxes("jurisdictions", jurisdictions)}</fieldset>
<details><summary>Only these providers (none ticked: any)</summary>${boxes("providers", providers)}</details>
<details><summary>Never these providers</summary>${boxes("exclude", providers)}</details></fieldset></form>`,
  ];
}

function exposure(catalogue: Catalogue, params: URLSearchParams): [string, string] {
  const { known, unknown } = listBuilderRequest(catalogue, params);
  const scored = known.slice(0, MAX_EXPOSURE_IDS);
  const report = scored.length > 0 ? exposureReport(catalogue, scored) : undefined;
  const counts = (rows: readonly { key: string; count: number; percentage: number }[], caption: string) =>
    `<div class="table"><table><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">${escapeHtml(caption.split(" by ")[1] ?? "")}</th><th scope="col">Services</th></tr></thead><tbody>${rows
      .map((row) => `<tr><td>${escapeHtml(row.key)}</td><td>${row.count} (${row.percentage} %)</td></tr>`)
      .join("")}</tbody></table></div>`;
  const figures = report
    ? `<h2>Scorecard</h2><ul><li>${report.totalServices} services on ${report.totalProviders} providers</li><li>${report.sovereignOptionCount} on sovereign-option providers</li><li>${report.euResidentOnlyCount} on EU-resident-only providers</li></ul>
${counts(report.byJurisdiction, "Services by jurisdiction")}${counts(report.byRegionCountry, "Services by region country")}
<aside class="info" role="note">${escapeHtml(report.disclaimer)}</aside>`
    : "";
  return [
    "Exposure scorecard",
    `<h1>Jurisdictional exposure scorecard</h1>${notBuilt()}
${idsForm(href("exposure"), known.join(","), `Service ids, separated by commas (up to ${MAX_EXPOSURE_IDS}, e.g. aws-s3,gcp-cloud-storage)`, "Score")}</form>
${chosen(catalogue, scored, unknown)}${figures}`,
  ];
}
