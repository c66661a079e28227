/**
 * The Operations rows: status, health, feedback and outbound clicks. See index.ts for the table
 * they join.
 */
import { endpoint, type Endpoint } from "./endpoint.ts";
import { FEEDBACK_MESSAGE, STATUS_HISTORY_HOURS, STATUS_HISTORY_LIMIT, STATUS_SAMPLE_MINUTES } from "../base/limits.ts";
import type { RecordStore } from "./ports.ts";
import { stripControl } from "../format/doc.ts";
import {
  FEEDBACK_TYPES,
  FeedbackBody,
  FeedbackResult,
  Health,
  OutboundClickBody,
  OutboundClickResult,
  StatusHistory,
  StatusReport,
  type FeedbackBodyT,
} from "../schema/index.ts";
import { statusReport } from "./status.ts";
import { storeCall } from "./shared.ts";

const FEEDBACK_OUTCOME_UNKNOWN = "The outcome is unknown: it may have been recorded. Retrying may record it twice.";

/**
 * Feedback as the product keeps it, from POST /v1/feedback and the site's form alike: an
 * unrecognised type becomes general, control characters are stripped, durable before it resolves.
 */
export async function recordFeedback(store: RecordStore, body: FeedbackBodyT, now: Date): Promise<void> {
  const type = (FEEDBACK_TYPES as readonly string[]).includes(body.type ?? "") ? body.type! : "general";
  await storeCall(
    () =>
      store.recordFeedback({
        type,
        message: stripControl(body.message),
        ...(body.email ? { email: body.email } : {}),
        ...(body.page ? { page: body.page } : {}),
        receivedAt: now.toISOString(),
      }),
    { unknownOutcome: () => FEEDBACK_OUTCOME_UNKNOWN },
  );
}

export const OPERATIONS_ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    operationId: "getStatus",
    method: "GET",
    path: "/v1/status",
    summary: "Catalogue status",
    description: "Catalogue counts, last-updated time and each component's state.",
    tag: "Operations",
    response: { status: 200, schema: StatusReport, contentType: "application/json" },
    errors: [],
    cache: "no-store",
    example: { request: "GET /v1/status" },
    handler: async (c) => {
      const [components, replication] = await Promise.all([c.status.current(), c.status.replication()]);
      return { body: statusReport(c.catalogue, components, replication) };
    },
  }),
  endpoint({
    operationId: "getStatusHistory",
    method: "GET",
    path: "/v1/status/history",
    summary: "Status history",
    description: `Samples of the last ${STATUS_HISTORY_HOURS} hours, newest first, at most ${STATUS_HISTORY_LIMIT}: one record every ${STATUS_SAMPLE_MINUTES} minutes and at each start, holding every component's state (components) and their roll-up (component "all", status, the slowest latencyMs, message). Kept by the store, so it survives a restart.`,
    tag: "Operations",
    response: { status: 200, schema: StatusHistory, contentType: "application/json" },
    errors: [503],
    cache: "no-store",
    example: { request: "GET /v1/status/history" },
    handler: async (c) => ({ body: { data: await storeCall(() => c.status.history()) } }),
  }),
  endpoint({
    operationId: "getHealth",
    method: "GET",
    path: "/v1/health",
    summary: "Health probe",
    description:
      "Liveness probe: ok when the store answers a ping within a second (one ping at most every second, shared by all callers), else degraded, so a hung store shows here.",
    tag: "Operations",
    response: { status: 200, schema: Health, contentType: "application/json" },
    errors: [],
    cache: "no-store",
    example: { request: "GET /v1/health" },
    handler: async (c) => ({
      body: {
        status: (await c.status.storeResponds()) ? ("ok" as const) : ("degraded" as const),
        uptimeSeconds: Math.round((Date.now() - c.startedAt) / 1000),
        store: c.store.kind,
      },
    }),
  }),
  endpoint({
    operationId: "sendFeedback",
    method: "POST",
    path: "/v1/feedback",
    summary: "Send feedback",
    description: `Stores feedback durably. type defaults to general when omitted or unrecognised; message ${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters.`,
    tag: "Operations",
    bucket: "relaxed",
    body: FeedbackBody,
    response: { status: 201, schema: FeedbackResult, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    example: { request: "POST /v1/feedback", body: { type: "bug", message: "The S3 pricing link is outdated." } },
    handler: async (c, { body }) => {
      await recordFeedback(c.store, body, c.now());
      return { status: 201, body: { success: true, message: "Thank you: your feedback was recorded." } };
    },
  }),
  endpoint({
    operationId: "recordOutboundClick",
    method: "POST",
    path: "/v1/analytics/outbound",
    summary: "Outbound-click telemetry",
    description: "Records that a documentation or pricing link was followed. No personal data is stored.",
    tag: "Operations",
    bucket: "relaxed",
    body: OutboundClickBody,
    response: { status: 200, schema: OutboundClickResult, contentType: "application/json" },
    errors: [400, 413, 415, 429, 503],
    cache: "no-store",
    example: {
      request: "POST /v1/analytics/outbound",
      body: { url: "https://aws.amazon.com/s3/pricing/", serviceId: "aws-s3", kind: "pricing" },
    },
    handler: async (c, { body }) => {
      await storeCall(() => c.store.recordOutboundClick({ ...body, at: c.now().toISOString() }), {
        unknownOutcome: () => FEEDBACK_OUTCOME_UNKNOWN,
      });
      return { body: { recorded: true } };
    },
  }),
];
