/** Every deployment fixture (deployment.ts says what one is), one file per provider. */
import { AWS } from "./aws.ts";
import { AZURE } from "./azure.ts";
import type { Deployment } from "./deployment.ts";
import { GCP } from "./gcp.ts";

/** Every fixture, Azure first, then Google Cloud and AWS. */
export const DEPLOYMENTS: readonly Deployment[] = [...AZURE, ...GCP, ...AWS];
