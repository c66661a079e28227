/** What the reliability suites that load a started server share: the ids their requests mix, and the largest file's size. */
/** Providers the loads' matrices and filters pick from. */
export const LOAD_PROVIDERS = [
  "aws",
  "azure",
  "gcp",
  "ovhcloud",
  "scaleway",
  "ionos",
  "stackit",
  "hetzner",
  "oci",
  "ibm",
];
/** Services the loads' comparisons and reads pick from. */
export const LOAD_SERVICES = [
  "aws-s3",
  "gcp-cloud-storage",
  "azure-blob-storage",
  "ovhcloud-object-storage",
  "aws-ec2",
  "aws-lambda",
];

/** The size of GET /catalogue.json (the catalogue's full export, the largest file the build writes) as served, uncompressed. */
export async function catalogueDumpBytes(base: string): Promise<number> {
  const head = await fetch(`${base}/catalogue.json`, { method: "HEAD", headers: { "accept-encoding": "identity" } });
  return Number(head.headers.get("content-length"));
}
