/**
 * Content negotiation for every face: the offer an Accept header prefers, weighed by q-value
 * (RFC 9110 §12.5.1) with @fastify/accept-negotiator. The highest q > 0 wins; a tie goes to the
 * earlier offer; null when nothing offered is acceptable (e.g. only `text/markdown;q=0`).
 */
import negotiate from "@fastify/accept-negotiator";

/**
 * The negotiator matches names and a bare "*" only, and reads any parameter as the q-value: so
 * parameters other than q are dropped, and the media range *\/* stands for `wildcard`, the face's
 * default. A type/* range matches nothing.
 */
export function preferredMediaType<Offer extends string>(
  accept: string | undefined,
  offers: readonly Offer[],
  wildcard: Offer,
): Offer | null {
  const header = (accept ?? "")
    .toLowerCase()
    .replace(/;\s*(?!q\s*=)[^;,]*/g, "")
    .replace(/\*\/\*/g, wildcard);
  return negotiate(header, [...offers]);
}
