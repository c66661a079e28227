/** What the reliability suites that load a started server share: the ids their requests mix, the largest file's size, RSS peaks. */
import { rssMb } from "../helpers/process.ts";

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The size of GET /catalogue.json (the catalogue's full export, the largest file the build writes) as served, uncompressed. */
export async function catalogueDumpBytes(base: string): Promise<number> {
  const head = await fetch(`${base}/catalogue.json`, { method: "HEAD", headers: { "accept-encoding": "identity" } });
  return Number(head.headers.get("content-length"));
}

/** The highest of `from` and the process's RSS (MB) sampled every 250 ms, `samples` times. */
export async function peakRssMb(pid: number, from: number, samples: number): Promise<number> {
  let peak = from;
  for (let i = 0; i < samples; i++) {
    await sleep(250);
    peak = Math.max(peak, rssMb(pid));
  }
  return peak;
}
