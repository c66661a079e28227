/**
 * A list's exit plan, the one way every face plans a list (issue 114): GET /v1/lists/{id}/exit-plan,
 * the text host's /lists/{slug}/exit-plan and /list/exit/ (its ?list= and ?ids= forms) and the
 * site's planner all call listExitPlan with the list as saved (or as the form states it) and the
 * target, so a list's plan is POST /v1/exit-plan's for its ids, jobsUsed and dataGb on every face.
 * A list read against today's catalogue may name services or jobs the catalogue no longer holds:
 * they are left out and named in notes, never a 400 on a read.
 */
import { HttpError } from "../base/problem.ts";
import { exitPlan } from "./plan.ts";
import type { ExitCatalogue } from "./context.ts";
import { jobsDroppedNote, resolveJobsUsed } from "../lists/lists.ts";
import type { ExitPlanT, ExitTargetT } from "../schema/index.ts";

/** What planning a list reads of it: a saved list (StoredList, SavedList) is one. */
export interface ListToPlan {
  readonly approvedServiceIds: readonly string[];
  readonly jobsUsed?: Readonly<Record<string, readonly string[]>> | undefined;
  readonly dataGb?: Readonly<Record<string, number>> | undefined;
}

/** The plan of a list for a target, with notes on what the catalogue no longer holds. Throws HttpError (400) on a bad target. */
export function listExitPlan(catalogue: ExitCatalogue, list: ListToPlan, to: ExitTargetT): ExitPlanT {
  const known = list.approvedServiceIds.filter((id) => catalogue.bySlug.has(id));
  const missing = list.approvedServiceIds.filter((id) => !catalogue.bySlug.has(id));
  const { jobsUsed, dropped } = resolveJobsUsed(catalogue, list);
  const slugs = new Set(known.map((id) => catalogue.bySlug.get(id)!.service.slug));
  const volumes = Object.entries(list.dataGb ?? {}).filter(([id]) =>
    slugs.has(catalogue.bySlug.get(id)?.service.slug ?? ""),
  );
  const plan = exitPlan(catalogue, known, to, jobsUsed, volumes.length > 0 ? Object.fromEntries(volumes) : undefined);
  if (missing.length > 0) plan.notes.push(`No longer in the catalogue, so not planned: ${missing.join(", ")}.`);
  if (dropped.length > 0) plan.notes.push(jobsDroppedNote(dropped));
  return plan;
}

/**
 * The planner form's jobsUsed and dataGb fields (the site's and the text host's plain form), as
 * written: "azure-key-vault:key-management|secrets-management, aws-ec2:virtual-machines" and
 * "aws-s3:5000, aws-rds-postgresql:200". A malformed entry is a 400 naming it; the ids and jobs
 * themselves are checked by exitPlan, as POST /v1/exit-plan checks its body.
 */
export function listFieldsOf(
  field: (key: "jobsUsed" | "dataGb") => string | null,
): Omit<ListToPlan, "approvedServiceIds"> {
  const entries = (key: "jobsUsed" | "dataGb") =>
    (field(key) ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const at = entry.indexOf(":");
        if (at < 1) throw new HttpError(400, "Bad request", `${key}: "${entry.slice(0, 80)}" is not id:value.`);
        return [entry.slice(0, at).trim(), entry.slice(at + 1).trim()] as const;
      });
  const jobs = entries("jobsUsed").map(
    ([id, groups]) =>
      [
        id,
        groups
          .split("|")
          .map((group) => group.trim())
          .filter(Boolean),
      ] as const,
  );
  const volumes = entries("dataGb").map(([id, gb]) => {
    const value = Number(gb);
    if (gb === "" || !Number.isFinite(value) || value < 0 || value > 1e9)
      throw new HttpError(
        400,
        "Bad request",
        `dataGb: ${id.slice(0, 80)}: "${gb.slice(0, 20)}" is not a number of GB (0 to 1,000,000,000).`,
      );
    return [id, value] as const;
  });
  return {
    ...(jobs.length > 0 ? { jobsUsed: Object.fromEntries(jobs) } : {}),
    ...(volumes.length > 0 ? { dataGb: Object.fromEntries(volumes) } : {}),
  };
}

/** The fields back in the form's words (listFieldsOf reads them): for a saved list's prefilled form. */
export function listFieldsText(list: Omit<ListToPlan, "approvedServiceIds">): { jobsUsed: string; dataGb: string } {
  return {
    jobsUsed: Object.entries(list.jobsUsed ?? {})
      .map(([id, groups]) => `${id}:${groups.join("|")}`)
      .join(", "),
    dataGb: Object.entries(list.dataGb ?? {})
      .map(([id, gb]) => `${id}:${gb}`)
      .join(", "),
  };
}
