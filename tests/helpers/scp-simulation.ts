/** What @cloud-copilot/iam-simulate decides for one AWS action under generated SCPs, for the suites that check them. */
import { runSimulation } from "@cloud-copilot/iam-simulate";
import type { ScpDocumentT } from "../../catalogue/schema/index.ts";

/** The account every simulated request is made in. */
export const ACCOUNT = "111122223333";
/** The role that deploys a template, in the deployment suites. */
export const DEPLOYER = `arn:aws:iam::${ACCOUNT}:role/Deployer`;
/** An identity policy (and AWS's FullAWSAccess SCP) that allows everything. */
export const ALLOW_EVERYTHING = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }],
};

/**
 * iam-simulate's decision for `action` asked by `principal` (allowed `*` by identity policy) under
 * `scps`, either beside FullAWSAccess (a deny-list) or alone (an allow-list); `region` sets
 * aws:RequestedRegion. AWS sets aws:PrincipalArn on every request, and the simulator takes it from the context.
 */
export async function scpDecision(
  action: string,
  scps: readonly ScpDocumentT[],
  beside: "FullAWSAccess" | "alone",
  options: { principal?: string; region?: string } = {},
) {
  const principal = options.principal ?? `arn:aws:iam::${ACCOUNT}:role/Developer`;
  const result = await runSimulation(
    {
      request: {
        principal,
        action,
        resource: { resource: "*", accountId: ACCOUNT },
        contextVariables: {
          ...(options.region === undefined ? {} : { "aws:RequestedRegion": options.region }),
          "aws:PrincipalArn": principal,
        },
      },
      identityPolicies: [{ name: "AdministratorAccess", policy: ALLOW_EVERYTHING }],
      serviceControlPolicies: [
        {
          orgIdentifier: "ou-test-approved",
          policies: [
            ...(beside === "FullAWSAccess" ? [{ name: "FullAWSAccess", policy: ALLOW_EVERYTHING }] : []),
            ...scps.map((policy, index) => ({ name: `approved-${index + 1}`, policy })),
          ],
        },
      ],
      resourceControlPolicies: [],
    },
    {},
  );
  if (result.resultType === "error") throw new Error(`iam-simulate: ${JSON.stringify(result.errors)}`);
  return result.overallResult;
}
