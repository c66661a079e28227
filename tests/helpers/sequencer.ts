/**
 * The order the files start in (vitest.config.ts): Vitest queues the projects of a group one after
 * another by name (catalogue, servers, suites), each project's longest files first. The files of
 * `suites` each start a process of their own and hold the longest of the loop (the MCP client
 * suite, the fixture build, the browsers in `npm test`): queued last, they ran alone at the end,
 * one core idle for their whole length. Queued first, the shared workers' short files fill the
 * other core beside them. Within a project the order stays Vitest's own.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Projects in the order they are queued within a group; a project not named here goes last. */
export const PROJECT_ORDER = ["suites", "catalogue", "servers"];

const rank = (spec: TestSpecification) => {
  const index = PROJECT_ORDER.indexOf(spec.project.name);
  return index === -1 ? PROJECT_ORDER.length : index;
};

export class LongestProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: Vitest's order within a project stays.
    return (await super.sort(files)).sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b),
    );
  }
}
