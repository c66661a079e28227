/**
 * Where the services are in a data folder: services/<provider>/<name>.yaml, one YAML mapping per
 * service (endoflife.date keeps one file per product, so that a reviewer reads a service in one
 * sitting). The provider is the folder; the slug is "<provider>-<name>", so the file a slug lives
 * in is known without reading the folder, and problems found after loading can name it.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

/** What a service file may be called: the rest of a kebab-case slug. */
const FILE_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The file name (without .yaml) of a slug of this provider, or undefined when the slug cannot have one. */
export function serviceFileName(providerId: string, slug: string): string | undefined {
  const name = slug.startsWith(`${providerId}-`) ? slug.slice(providerId.length + 1) : "";
  return FILE_NAME.test(name) ? name : undefined;
}

/** Where a service is read from, relative to the data folder, as problems name it: services/aws/s3.yaml. */
export const serviceFileOf = (providerId: string, slug: string): string =>
  `services/${providerId}/${serviceFileName(providerId, slug) ?? slug}.yaml`;

/** A service file found in the data folder, not yet read. */
export interface ServiceFile {
  readonly path: string;
  readonly providerId: string;
  /** The slug its name gives it: "<provider>-<name>". */
  readonly slug: string;
}

/**
 * Every services/<provider>/*.yaml of a data folder, providers and files sorted. Anything else in
 * services/ (a file beside the provider folders, the old services/<provider>.yaml list) is a
 * problem, so that no service is silently left unread.
 */
export function listServiceFiles(dataDir: string, problems: string[], shown: (path: string) => string): ServiceFile[] {
  const dir = join(dataDir, "services");
  let providers;
  try {
    providers = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    problems.push(`${shown(dir)}: folder is missing`);
    return [];
  }
  const files: ServiceFile[] = [];
  for (const provider of providers) {
    if (!provider.isDirectory()) {
      problems.push(`${shown(join(dir, provider.name))}: services are one file each, services/<provider>/<name>.yaml`);
      continue;
    }
    for (const file of readdirSync(join(dir, provider.name)).sort()) {
      if (file === "README.md") continue;
      const path = join(dir, provider.name, file);
      if (!file.endsWith(".yaml") || !FILE_NAME.test(file.slice(0, -".yaml".length))) {
        problems.push(`${shown(path)}: a service file is named <name>.yaml, lowercase kebab-case`);
        continue;
      }
      files.push({ path, providerId: provider.name, slug: `${provider.name}-${file.slice(0, -".yaml".length)}` });
    }
  }
  return files;
}

/** One provider's service files parsed, unchecked, in file-name order: for scripts that read the data raw. */
export function readProviderServices(dataDir: string, providerId: string): unknown[] {
  const dir = join(dataDir, "services", providerId);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => parse(readFileSync(join(dir, file), "utf8")) as unknown);
}
