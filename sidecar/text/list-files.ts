/**
 * The list builder's downloads, by file name, made by the functions scripts/list.ts runs in the
 * browser: the text host's GET /list/files/{file}?ids= (forms.ts) and its plain builder page
 * (plain-pages.ts) name them from here.
 */
import type { Catalogue } from "../../catalogue/load/load.ts";
import { azurePolicySet, gcpOrgPolicy, scpPolicy } from "../../catalogue/policies/documents.ts";
import {
  azurePolicySetTerraform,
  gcpOrgPolicyTerraform,
  scpTerraform,
  TERRAFORM_FILES,
  TERRAFORM_MEDIA_TYPE,
} from "../../catalogue/policies/terraform.ts";
import { renderMarkdown } from "../../catalogue/format/markdown.ts";
import { approvedListDoc } from "../../catalogue/render/pages.ts";

/** The builder's downloads, by file name, as scripts/list.ts makes them in the browser. */
export const LIST_FILES: Record<string, { type: string; make: (c: Catalogue, ids: string[]) => string }> = {
  "aws-scp.json": { type: "application/json", make: (c, ids) => JSON.stringify(scpPolicy(c, ids).policy, null, 2) },
  "azure-policy-set.json": {
    type: "application/json",
    make: (c, ids) => JSON.stringify(azurePolicySet(c, ids).policy, null, 2),
  },
  "gcp-org-policy.json": {
    type: "application/json",
    make: (c, ids) => JSON.stringify(gcpOrgPolicy(c, ids).policy, null, 2),
  },
  // The .tf of the same documents (POST /v1/policies/…?format=terraform without a query).
  [TERRAFORM_FILES.scp]: {
    type: TERRAFORM_MEDIA_TYPE,
    make: (c, ids) => {
      const result = scpPolicy(c, ids);
      return scpTerraform([result.policy], { strategy: result.strategy });
    },
  },
  [TERRAFORM_FILES.azure]: {
    type: TERRAFORM_MEDIA_TYPE,
    make: (c, ids) => azurePolicySetTerraform(azurePolicySet(c, ids).policy),
  },
  [TERRAFORM_FILES.gcp]: {
    type: TERRAFORM_MEDIA_TYPE,
    make: (c, ids) => gcpOrgPolicyTerraform(gcpOrgPolicy(c, ids).policy),
  },
  "approved-services.md": {
    type: "text/markdown; charset=utf-8",
    make: (c, ids) => renderMarkdown(approvedListDoc(c, ids)),
  },
};
