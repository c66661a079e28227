/**
 * How `cloud-catalogue check` ends (docs/ci-check.md, "Exit status"): the statuses, and the two
 * failures that are not a verdict. Anything else thrown is a crash, which check.ts also answers 2.
 */

export const CHECK_EXIT = {
  /** Every finding counted is below the threshold (or --soft-fail). */
  allowed: 0,
  notAllowed: 1,
  /** No check: a usage error, an input that cannot be read, a crash. */
  noCheck: 2,
  /** The API could not be reached, or failed (429, 5xx). */
  unreachable: 3,
} as const;

/** A usage error or an input the check cannot read: exit 2, with the message (and the usage line when `usage`). */
export class CheckUsageError extends Error {
  readonly usage: boolean;
  constructor(message: string, usage = false) {
    super(message);
    this.name = "CheckUsageError";
    this.usage = usage;
  }
}

/** The API could not be reached, or answered neither a check nor a refusal of the input: exit 3. */
export class CheckUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckUnreachableError";
  }
}
