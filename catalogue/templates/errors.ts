/** What the deployment check cannot read: answered as a 400 "Invalid template" naming what was not understood. */
export class TemplateError extends Error {}
