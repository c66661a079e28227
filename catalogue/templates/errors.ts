/** What the deployment check cannot read: answered as a 400 "Invalid template" naming what was not understood. */
export class TemplateError extends Error {}

/**
 * A template within the size limit whose reading would pass a per-request budget (its values after
 * aliases, the reading thread's memory or time): a 422 "Template too costly" naming the budget.
 */
export class TemplateBudgetError extends Error {}
