/** Every deployment fixture (deployment.ts says what one is), one file per provider. */
import { AWS } from "./aws.ts";
import { AZURE } from "./azure.ts";
import { AZURE_QUICKSTARTS } from "./azure-quickstarts.ts";
import type { Deployment } from "./deployment.ts";
import { GCP } from "./gcp.ts";

/** Every fixture, Azure first (hand-written, then derived from vendored quickstarts), then Google Cloud and AWS. */
export const DEPLOYMENTS: readonly Deployment[] = [...AZURE, ...AZURE_QUICKSTARTS, ...GCP, ...AWS];
