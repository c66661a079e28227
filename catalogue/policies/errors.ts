/** The errors the policy generators throw; the endpoints answer them as 400 with their title. */

/** A request the generators cannot answer with a usable document: the endpoint answers 400. */
import type { TitleOf } from "../base/error-catalogue.ts";

export class PolicyRequestError extends Error {
  readonly title: TitleOf<400>;
  constructor(title: TitleOf<400>, details: string) {
    super(details);
    this.title = title;
  }
}

export class PolicyTooLargeError extends PolicyRequestError {
  constructor(details: string) {
    super("Policy too large", details);
  }
}
