/**
 * The lifecycle-notice register (issue 124, catalogue/data/lifecycle-notices.yaml): every
 * deprecation or retirement notice read in a vendor's newest stored copy is either in the
 * catalogue (the service's lifecycle states it, every date of it) or listed as a feature of a
 * service or as not a service, with why. A date the quote does not state is refused: a date
 * without a copy that says it is not written.
 */
import { z } from "zod";
import type { Catalogue } from "../load/load.ts";
import { states } from "../load/claim-terms.ts";

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const LifecycleNotice = z
  .object({
    provider: z.string().min(1),
    url: z.url(),
    asOf: IsoDay.optional(),
    retrieved: IsoDay,
    quote: z.string().min(10),
    dates: z.array(IsoDay),
    outcome: z.enum(["service", "feature", "not-a-service"]),
    slug: z.string().min(1).optional(),
    why: z.string().min(1).optional(),
  })
  .strict();
export type LifecycleNoticeT = z.infer<typeof LifecycleNotice>;

export const LifecycleNoticeFile = z.object({ notices: z.array(LifecycleNotice).min(1) }).strict();

/** Everything a service's lifecycle says, to look its notice's dates up in. */
function lifecycleTexts(catalogue: Catalogue, slug: string): string[] {
  const entry = catalogue.bySlug.get(slug);
  const lifecycle = entry?.service.lifecycle;
  if (!entry || !lifecycle) return [];
  return [
    lifecycle.sunsetDate ?? "",
    lifecycle.note ?? "",
    ...entry.sources.filter((source) => source.backs.includes("lifecycle")).flatMap((source) => source.claims ?? []),
  ];
}

/** One line per notice the catalogue does not agree with; empty when every notice is accounted for. */
export function lifecycleNoticeProblems(catalogue: Catalogue, notices: readonly LifecycleNoticeT[]): string[] {
  const problems: string[] = [];
  for (const [index, notice] of notices.entries()) {
    const at = `lifecycle-notices.yaml: notice ${index + 1} (${notice.url})`;
    for (const date of notice.dates)
      if (!states(notice.quote, date)) problems.push(`${at}: the quote does not state ${date}`);
    if (notice.asOf && notice.asOf > notice.retrieved) problems.push(`${at}: asOf is after retrieved`);
    if (notice.outcome === "not-a-service") {
      if (notice.slug) problems.push(`${at}: a notice that is not a service names no slug`);
      if (!notice.why) problems.push(`${at}: not-a-service needs why`);
      continue;
    }
    const entry = notice.slug ? catalogue.bySlug.get(notice.slug) : undefined;
    if (!entry) {
      problems.push(`${at}: slug ${notice.slug ?? "(none)"} is not in the catalogue`);
      continue;
    }
    if (entry.service.providerId !== notice.provider)
      problems.push(`${at}: ${notice.slug} is not a ${notice.provider} service`);
    if (notice.outcome === "feature") {
      if (!notice.why) problems.push(`${at}: a feature notice needs why`);
      continue;
    }
    if (!entry.service.lifecycle) {
      problems.push(`${at}: ${notice.slug} is shown active, but the notice retires or closes it`);
      continue;
    }
    const texts = lifecycleTexts(catalogue, entry.service.slug);
    for (const date of notice.dates)
      if (!texts.some((text) => states(text, date)))
        problems.push(
          `${at}: ${notice.slug}'s lifecycle does not state ${date} (sunsetDate, note or a lifecycle claim)`,
        );
  }
  return problems;
}
