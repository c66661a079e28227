/**
 * Whether this code runs from the installed package (cli/README.md) rather than the repository:
 * scripts/package/build.ts defines CLOUD_CATALOGUE_PACKAGE when it bundles, so the package reads the
 * catalogue snapshot it holds and never looks for a build or catalogue/data beside it.
 */
declare const CLOUD_CATALOGUE_PACKAGE: PackageFacts | undefined;

export interface PackageFacts {
  /** The package's version (the SARIF tool's). */
  readonly version: string;
}

export const PACKAGED: PackageFacts | undefined =
  typeof CLOUD_CATALOGUE_PACKAGE === "undefined" ? undefined : CLOUD_CATALOGUE_PACKAGE;
