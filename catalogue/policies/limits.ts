/**
 * AWS Organizations quotas the SCP generator respects:
 * https://docs.aws.amazon.com/organizations/latest/userguide/orgs_reference_limits.html
 */

/** Maximum size of a service control policy, in characters (AWS does not count white space). */
export const SCP_MAX_CHARACTERS = 5120;
/** Maximum number of SCPs attached to one root, OU or account. */
export const SCP_MAX_PER_TARGET = 5;
