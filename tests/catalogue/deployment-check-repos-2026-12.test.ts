/**
 * Issue 121, "Shown by": the deployment check on twenty public repositories and examples kept as
 * they are published (tests/fixtures/deployments/repos-2026-12/: serverless-patterns stacks with
 * nested applications and packaged nested stacks, a Serverless Application Repository app, a macro,
 * terraform-aws-modules examples calling `../../`, an environments + modules layout, an azd
 * Terraform template, terraform-docs-samples, and OVHcloud's, Scaleway's, Exoscale's, STACKIT's,
 * IONOS's and DigitalOcean's own examples), each given as a repository is: its files and the root a
 * user names. Each has the list, inputs and region a platform engineer would give and
 * allowedLocations EU (expectations.json, written before the check was run on them). The check runs
 * with that list and with its suggestedServiceIds; each verdict is then decided by what nobody here
 * wrote: @cloud-copilot/iam-simulate under the generated SCPs (AWS), Azure's built-in "Allowed
 * resource types" rule in Indexed mode type by type (Azure), gcp.restrictServiceUsage's
 * allowedValues (Google); each location by the place the files (or the inputs) name, looked up in
 * the catalogue's region list of its vendor and judged against the EU's 27 member states. A part the
 * check cannot read (an application of the Serverless Application Repository, a macro) must be said
 * not read, and never allowed. What the check gets wrong is marked `knownWrong` in
 * expectations.json: printed, not asserted.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTemplate } from "../../catalogue/contract/deployments.ts";
import { gcpOrgPolicy } from "../../catalogue/policies/documents.ts";
import type { PolicyVerdict } from "../../catalogue/templates/check.ts";
import type { Deployment } from "../../catalogue/templates/model/deployment.ts";
import { triggeredNeeds } from "../../catalogue/templates/rules/needs.ts";
import { deploymentRequirements } from "../../catalogue/templates/rules/policies.ts";
import { templateIndex } from "../../catalogue/templates/index.node.ts";
import { readDeployment, TerraformFiles } from "../../catalogue/templates/read.ts";
import { parseTemplateText } from "../../catalogue/templates/readers/parse.ts";
import { realCatalogue } from "../helpers/app.ts";
import { awsSimulator, azurePolicyDenies, azureTypes, table } from "../helpers/vendor-verdicts.ts";

const catalogue = realCatalogue();
const index = templateIndex(catalogue);
const FOLDER = new URL("../fixtures/deployments/repos-2026-12/", import.meta.url);
/** The day the expectations were written: versions are judged on it, with the check's default window. */
const WINDOW = { asOf: "2026-11-29", withinDays: 180 };
/** The EU's member states (ISO 3166-1 alpha-2), what allowedLocations EU means. */
const EU = new Set("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "));
/** The files a repository is sent with: what the API's `files` takes, and what the CLI reads. */
const SENT = /\.(tf|tfvars|json|ya?ml|template)$/;

type Policy = "allowed" | "denied" | "none" | "not-read";
type KnownWrong =
  "policy" | "suggestedAdds" | "locations.denied" | "locations.unknown" | "versions" | "unplaced" | "deploymentErrors";
interface Place {
  readonly value: string;
  /** The file naming it literally, or null when it comes from the inputs or the request's region. */
  readonly file: string | null;
  readonly region: string;
  readonly country: string;
}
interface Expectation {
  readonly id: string;
  readonly providerId: string;
  readonly path: string;
  /** What a user names: the root module's folder, or the template (relative to the repository's top). */
  readonly root: string;
  readonly approved: readonly string[];
  readonly inputs?: Readonly<Record<string, unknown>>;
  readonly region?: string;
  readonly expected: {
    readonly policy: Policy;
    readonly suggestedAdds: readonly string[];
    /** What the check must say it did not read (for not-read): each named in the verdict's notEvaluated. */
    readonly notRead?: readonly string[];
    /** Resources the catalogue holds no service for: each in the answer's unplaced. */
    readonly unplaced?: readonly string[];
    /** What the vendor would refuse when deploying: each named in the answer's deploymentErrors. */
    readonly deploymentErrors?: readonly string[];
    readonly locations: {
      readonly stated: readonly Place[];
      readonly denied: readonly string[];
      readonly unknown: readonly string[];
    };
    /** known false: the catalogue holds no dates for it, and the check must say so (status unknown). */
    readonly versions: readonly { readonly value: string; readonly retiring: boolean; readonly known?: boolean }[];
  };
  readonly knownWrong?: Partial<Record<KnownWrong, string>>;
}
const { deployments, allowedLocations } = JSON.parse(readFileSync(new URL("expectations.json", FOLDER), "utf8")) as {
  deployments: Expectation[];
  allowedLocations: string[];
};

/** Every file of a folder a repository is sent with, by its path from the folder (the repository's top). */
function repositoryFiles(folder: string, prefix = ""): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder).sort()) {
    const path = `${folder}/${name}`;
    if (statSync(path).isDirectory()) Object.assign(files, repositoryFiles(path, `${prefix}${name}/`));
    else if (SENT.test(name)) files[`${prefix}${name}`] = readFileSync(path, "utf8");
  }
  return files;
}

interface Input {
  readonly template: TerraformFiles;
  readonly files: Record<string, string>;
}
const inputs = new Map<string, Input>();
beforeAll(() => {
  for (const entry of deployments) {
    const files = repositoryFiles(fileURLToPath(new URL(entry.path, FOLDER)));
    inputs.set(entry.id, { template: new TerraformFiles(files, entry.root), files });
  }
});
const inputOf = (entry: Expectation): Input => inputs.get(entry.id)!;
const givenOf = (entry: Expectation) => ({
  ...(entry.inputs ? { inputs: entry.inputs } : {}),
  ...(entry.region ? { region: entry.region } : {}),
});
const check = (entry: Expectation, ids: readonly string[]) =>
  checkTemplate(catalogue, inputOf(entry).template, ids, WINDOW, allowedLocations, givenOf(entry));
const sorted = (values: readonly string[]) => [...values].sort();

// --- The vendors' decisions, from what the deployment really calls or creates -------------------

const aws = awsSimulator(catalogue);

/** Each identifier the vendor's engine refuses under `ids`: the check's requirements, as that engine decides them. */
async function refusedByVendor(entry: Expectation, deployment: Deployment, ids: readonly string[]): Promise<string[]> {
  const vendor = entry.providerId as "aws" | "azure" | "gcp";
  const required = [
    ...(
      deploymentRequirements(index, deployment, triggeredNeeds(deployment, index)).byVendor.get(vendor) ??
      new Map<string, { identifier: string }>()
    ).values(),
  ].map((need) => need.identifier);
  const refused: string[] = [];
  if (vendor === "aws") {
    for (const action of required) if (!(await aws.allowsAll(action, ids))) refused.push(action);
  } else if (vendor === "azure") {
    for (const type of azureTypes(index, deployment))
      if (azurePolicyDenies(catalogue, index, type, ids)) refused.push(type);
  } else if (vendor === "gcp") {
    const allowedValues = gcpOrgPolicy(catalogue, ids).policy.spec.rules[0]!.values.allowedValues;
    for (const api of required) if (!allowedValues.includes(api) && index.gcpGoverned(api) !== false) refused.push(api);
  }
  return [...new Set(refused)].sort();
}

// --- What the files declare, read here without the check ---------------------------------------

/** Every resource type the repository declares: its `.tf` files', its CloudFormation templates'. */
function declaredTypes(input: Input): string[] {
  const types = new Set<string>();
  for (const [path, text] of Object.entries(input.files)) {
    if (path.endsWith(".tf"))
      for (const match of text.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/^resource\s+"([a-z0-9_]+)"\s+"/gm))
        types.add(match[1]!);
    else if (/\.ya?ml$/.test(path)) {
      const template = parseTemplateText(text) as { Resources?: Record<string, { Type?: unknown }> };
      for (const resource of Object.values(template.Resources ?? {}))
        // SAM's types are read as what they expand to (AWS::Serverless::Function: a function and its role).
        if (typeof resource?.Type === "string" && /^AWS::(?!Serverless::)/.test(resource.Type))
          types.add(resource.Type);
    }
  }
  return [...types];
}

const matches = (names: readonly string[], entry: { from: string; type?: string; item?: string }) =>
  names.some((name) => name === entry.from || name === entry.type || name === entry.item);

// --- The table printed after the suite ------------------------------------------------------------

interface Row {
  deployment: string;
  check: string;
  truth: string;
  added: string;
  locations: string;
  versions: string;
  right: boolean;
  silentlyWrong: boolean;
}
const rows: Row[] = [];
const said = (verdict: PolicyVerdict | undefined): Policy | "allowed" =>
  !verdict ? "none" : verdict.allowed ? "allowed" : (verdict.notEvaluated ?? []).length > 0 ? "not-read" : "denied";

afterAll(() => {
  console.log(
    table(
      [
        "deployment",
        "check's verdict",
        "vendor's engine / truth",
        "check adds",
        "EU-only: denied",
        "versions",
        "true?",
      ],
      rows.map((row) => [
        row.deployment,
        row.check,
        row.truth,
        row.added,
        row.locations,
        row.versions,
        row.right ? "yes" : row.silentlyWrong ? "NO (silent)" : "no",
      ]),
    ),
  );
  console.log(
    `verdicts true: ${rows.filter((row) => row.right).length} of ${rows.length}; silent wrong answers: ${rows.filter((row) => row.silentlyWrong).length}`,
  );
});

/** Prints what the check says where it is known to be wrong, and says when it is right again. */
function knownWrong(entry: Expectation, key: KnownWrong, checkSays: unknown, truth: unknown): boolean {
  const why = entry.knownWrong?.[key];
  if (!why) return false;
  const right = JSON.stringify(checkSays) === JSON.stringify(truth);
  console.log(
    `${entry.id} ${key}: the check says ${JSON.stringify(checkSays)}, the truth is ${JSON.stringify(truth)}${right ? " — now right: remove knownWrong" : ` (known wrong: ${why})`}`,
  );
  return true;
}

describe("the repositories of 2026-12", () => {
  it("are twenty, of AWS, Azure, Google and six other providers, each with its source and licence", () => {
    expect(deployments).toHaveLength(20);
    expect(new Set(deployments.map((entry) => entry.providerId))).toEqual(
      new Set(["aws", "azure", "gcp", "ovhcloud", "stackit", "exoscale", "scaleway", "ionos", "digitalocean"]),
    );
    for (const entry of deployments) {
      const source = readFileSync(new URL(`${entry.path}/SOURCE.md`, FOLDER), "utf8");
      expect(source, entry.id).toMatch(/Commit: `[0-9a-f]{40}`/);
      expect(source, entry.id).toMatch(/Licence: [A-Za-z0-9.-]+ \(/);
      for (const licence of source.matchAll(/`\.\.\/(LICENSE-[A-Za-z0-9.-]+)`/g))
        expect(statSync(new URL(licence[1]!, FOLDER)).size, licence[1]).toBeGreaterThan(500);
      for (const id of [...entry.approved, ...entry.expected.suggestedAdds])
        expect(catalogue.bySlug.has(id), id).toBe(true);
      // The root is a template among the files, or the folder of some of them.
      const paths = Object.keys(inputOf(entry).files);
      expect(
        entry.root === "." || paths.includes(entry.root) || paths.some((path) => path.startsWith(`${entry.root}/`)),
        entry.root,
      ).toBe(true);
    }
  });
});

describe.each(deployments.map((entry) => [entry.id, entry] as const))("%s", (_id, entry) => {
  const vendor = ["aws", "azure", "gcp"].includes(entry.providerId) ? entry.providerId : undefined;

  it("gets the verdict the vendor's engine gives, says what it did not read, and what it adds", async () => {
    const input = inputOf(entry);
    const deployment = readDeployment(input.template, givenOf(entry));
    const answer = check(entry, entry.approved);
    const verdict = answer.verdicts.find((each) => each.providerId === vendor);

    // Every resource type the files declare is read: deployed, unplaced, or not deployed with why.
    // An item made through another vendor's endpoint is named <host>/<type> (an aws_s3_bucket on OVHcloud).
    const read = new Set(
      [...answer.services.flatMap((s) => s.items.map((i) => i.item)), ...answer.unplaced.map((u) => u.item)].map((t) =>
        t.slice(t.lastIndexOf("/") + 1).toLowerCase(),
      ),
    );
    const explained = new Set(answer.notDeployed.map((each) => each.item.toLowerCase()));
    for (const type of declaredTypes(input))
      expect(read.has(type.toLowerCase()) || explained.has(type.toLowerCase()), `${type} read`).toBe(true);

    // The vendor's engine on what the check read; not-read is the truth whatever that says.
    const refused = vendor ? await refusedByVendor(entry, deployment, entry.approved) : [];
    const truth: Policy =
      entry.expected.policy === "not-read"
        ? "not-read"
        : vendor
          ? refused.length === 0
            ? "allowed"
            : "denied"
          : "none";
    const checkSays = said(verdict);
    // The row first: the table and the count below are of every case, right or wrong.
    const deniedPlaces = answer.locations.filter((l) => l.allowed === false).map((l) => l.from);
    const versions = answer.versions.map(
      (v) => `${v.value}${v.retiring ? " retiring" : v.status === "unknown" ? " not known" : ""}`,
    );
    rows.push({
      deployment: entry.id,
      check: checkSays,
      truth: truth === "denied" ? `denied (${refused.join(", ")})` : truth,
      added: answer.missingServiceIds.join(", ") || "—",
      locations: String(deniedPlaces.length),
      versions: versions.join(", ") || "—",
      right: checkSays === truth,
      // Allowed where the truth is not, or a place allowed that EU-only denies: wrong and saying nothing.
      silentlyWrong:
        (checkSays === "allowed" && truth !== "allowed") ||
        answer.locations.some((l) => l.allowed === true && matches(entry.expected.locations.denied, l)),
    });
    expect(truth, `the vendor's engine (refused: ${refused.join(", ")})`).toBe(entry.expected.policy);
    if (!knownWrong(entry, "policy", checkSays, truth)) {
      expect(checkSays, "the check's verdict from the user's list").toBe(truth);
      if (truth === "not-read")
        for (const name of entry.expected.notRead ?? [])
          expect(
            verdict!.notEvaluated!.some((entryText) => entryText.includes(name)),
            `${name} not read: ${verdict!.notEvaluated!.join(" | ")}`,
          ).toBe(true);
      // Identifier by identifier: what the check denies is what the engine refuses.
      else if (verdict && entry.providerId !== "azure")
        expect(verdict.denied.map((denied) => denied.identifier).sort()).toEqual(refused);
    }
    if (!knownWrong(entry, "suggestedAdds", sorted(answer.missingServiceIds), sorted(entry.expected.suggestedAdds)))
      expect(sorted(answer.missingServiceIds), "what the check adds").toEqual(sorted(entry.expected.suggestedAdds));

    // The suggested list: allowed by the check and the engine, unless a part is not read.
    const suggested = answer.suggestedServiceIds;
    const second = check(entry, suggested);
    expect(second.missingServiceIds).toEqual([]);
    if (vendor && truth !== "not-read") {
      expect(second.verdicts.find((each) => each.providerId === vendor)!.allowed).toBe(true);
      if (!entry.knownWrong?.policy)
        expect(await refusedByVendor(entry, deployment, suggested), "refused under suggestedServiceIds").toEqual([]);
    }
    if (truth === "not-read") expect(second.verdicts.find((each) => each.providerId === vendor)!.allowed).toBe(false);

    // What the catalogue cannot place, and what the vendor would refuse, are said.
    const unplaced = answer.unplaced.flatMap((each) => each.from);
    if (!knownWrong(entry, "unplaced", sorted(unplaced), sorted(entry.expected.unplaced ?? [])))
      for (const name of entry.expected.unplaced ?? []) expect(unplaced, `${name} unplaced`).toContain(name);
    const errors = (answer.deploymentErrors ?? []).join(" | ");
    if (!knownWrong(entry, "deploymentErrors", errors, entry.expected.deploymentErrors ?? []))
      for (const name of entry.expected.deploymentErrors ?? []) expect(errors, `${name} refused`).toContain(name);
    if (!entry.expected.deploymentErrors && !entry.knownWrong?.deploymentErrors) expect(errors).toBe("");
  });

  it("places each resource where the files say, judged by the vendor's region list against the EU", () => {
    const input = inputOf(entry);
    const answer = check(entry, entry.approved);
    const provider = catalogue.providers.find((candidate) => candidate.id === entry.providerId)!;
    // Each place the deployment names, found in its files or its inputs, then in the vendor's regions.
    const places = new Map<string, { region: string; allowed: boolean }>();
    for (const place of entry.expected.locations.stated) {
      if (place.file)
        expect(input.files[place.file], `${place.file} names ${place.value}`).toContain(`"${place.value}"`);
      else expect([entry.region, ...Object.values(entry.inputs ?? {})], `${place.value} given`).toContain(place.value);
      const region = provider.regions!.find((candidate) => candidate.id === place.region);
      expect(region, `${place.region} in ${provider.id}'s regions`).toBeDefined();
      expect(region!.country).toBe(place.country);
      places.set(place.value, { region: place.region, allowed: EU.has(place.country) });
    }
    const regional = answer.locations.filter((located) => !located.global && !located.multiRegion);
    for (const located of regional) {
      const place = places.get(located.location);
      expect(place, `${located.from} at ${located.location}, a place the files name`).toBeDefined();
      expect(located.region, located.from).toBe(place!.region);
      expect(located.allowed, located.from).toBe(place!.allowed);
    }
    expect(new Set(regional.map((located) => located.location))).toEqual(new Set(places.keys()));

    // Never allowed where EU-only denies: a place outside the EU allowed is a silent wrong answer.
    for (const located of answer.locations)
      if (located.allowed === true) expect(matches(entry.expected.locations.denied, located), located.from).toBe(false);

    const denied = answer.locations.filter((located) => located.allowed === false).map((located) => located.from);
    const truthDenied = sorted(entry.expected.locations.denied);
    if (!knownWrong(entry, "locations.denied", sorted(denied), truthDenied)) {
      for (const from of denied) expect(matches(truthDenied, { from }), `${from} denied`).toBe(true);
      for (const name of truthDenied)
        expect(
          answer.locations.some((l) => l.allowed === false && matches([name], l)),
          `${name} denied`,
        ).toBe(true);
    }

    const unknownEntries = [...answer.unknownLocations, ...answer.locations.filter((l) => l.allowed === null)];
    const unknown = unknownEntries.map((each) => each.from);
    const expectedUnknown = entry.expected.locations.unknown;
    if (!knownWrong(entry, "locations.unknown", sorted(unknown), sorted(expectedUnknown))) {
      expect(unknownEntries.length, `unknown: ${unknown.join(", ")}`).toBe(expectedUnknown.length);
      for (const name of expectedUnknown)
        expect(
          unknownEntries.some((u) => matches([name], u)),
          name,
        ).toBe(true);
    }
  });

  it("names the versions that retire, and says which the catalogue does not know", () => {
    const answer = check(entry, entry.approved);
    const byValue = (a: { value: string }, b: { value: string }) => a.value.localeCompare(b.value);
    const versions = [...answer.versions]
      .sort(byValue)
      .map((version) => ({ value: version.value, retiring: version.retiring }));
    const truth = [...entry.expected.versions].sort(byValue).map(({ value, retiring }) => ({ value, retiring }));
    if (!knownWrong(entry, "versions", versions, truth)) {
      expect(versions).toEqual(truth);
      // Not known is said as such, never as supported; known ones have a status of their own.
      for (const expected of entry.expected.versions.filter((each) => each.known !== undefined))
        for (const version of answer.versions.filter((each) => each.value === expected.value))
          expect(version.status === "unknown", `${version.value} known`).toBe(!expected.known);
    }
  });
});

describe("the twenty verdicts", () => {
  it("are true for at least 19, and none is silently wrong", () => {
    // Filled by the cases above: vitest runs a file's tests in the order they are written.
    expect(rows).toHaveLength(20);
    expect(rows.filter((row) => row.right).length).toBeGreaterThanOrEqual(19);
    expect(rows.filter((row) => row.silentlyWrong)).toEqual([]);
  });
});
