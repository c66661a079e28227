/**
 * Kept for tests/site/browser.test.ts alone, which another change owns this round: everything else
 * imports exit/plan.ts. Delete this file once that test imports exit/plan.ts too.
 */
export { exitPlan } from "./exit/plan.ts";
