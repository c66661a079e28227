/** What the deployment check cannot read: answered as a 400 "Invalid template" naming what was not understood. */
export class TemplateError extends Error {}

/**
 * A template within the size limit whose reading would pass a per-request budget (its values after
 * aliases, the reading thread's memory or time): a 422 "Template too costly" naming the budget.
 */
export class TemplateBudgetError extends Error {}

/** A template nested past MAX_JSON_DEPTH (a TemplateError; the API's body nested so is an Invalid body). */
export class TemplateDepthError extends TemplateError {}

/** Text that starts like JSON and is not (a TemplateError; the API's body so is Invalid JSON). */
export class TemplateSyntaxError extends TemplateError {}
