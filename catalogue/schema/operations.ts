/** Operations: status, history, health, and the acknowledgements of feedback and telemetry. */
import { z } from "zod";
import { STATUS_HISTORY_HOURS, STATUS_HISTORY_LIMIT } from "../base/limits.ts";
import { COMPONENT_STATUSES, d } from "./vocabulary.ts";
export const FeedbackResult = z
  .object({
    success: z.boolean().meta(d("True when the feedback was stored")),
    message: z.string().meta(d("Human-readable confirmation")),
  })
  .meta({ id: "FeedbackResult", description: "Response of POST /v1/feedback" });

export const OutboundClickResult = z
  .object({ recorded: z.boolean().meta(d("True when the click was stored")) })
  .meta({ id: "OutboundClickResult", description: "Response of POST /v1/analytics/outbound" });

export const ComponentState = z
  .object({
    component: z.string().meta(d("catalogue, store or sidecar")),
    status: z.enum(COMPONENT_STATUSES).meta(d("One of ok, degraded, down")),
    latencyMs: z.number().meta(d("How long the check took")),
    message: z.string().nullable().meta(d("What is wrong, or null")),
    skippedRecords: z
      .number()
      .int()
      .optional()
      .meta(d("store only: records read back at start that did not match their schema and were skipped")),
  })
  .meta({ id: "ComponentState", description: "Current state of one component" });

/**
 * One sample of every component: 24 hours of samples fit in the history's 200 rows (a row per
 * component did not). The spec's record fields hold the roll-up; `components` the details.
 */
export const StatusRecord = z
  .object({
    component: z.string().meta(d(`"all": the record holds every component's state, listed in components`)),
    status: z.enum(COMPONENT_STATUSES).meta(d("The worst of the components' states: one of ok, degraded, down")),
    latencyMs: z.number().meta(d("The slowest component check of the sample")),
    message: z.string().nullable().meta(d('What is wrong, as "component: message" for each component not ok, or null')),
    timestamp: z.iso.datetime().meta(d("When the sample was taken")),
    components: z.array(ComponentState).meta(d("Each component's state at that time")),
  })
  .meta({ id: "StatusRecord", description: "A point-in-time observation of every component" });

export const Replication = z
  .object({
    primary: z.string().nullable().meta(d("The Redis primary Sentinel names (host:port), or null while none is known")),
    replicas: z
      .array(
        z.object({
          address: z.string().meta(d("The replica's host:port, as the primary sees it")),
          state: z.string().meta(d("Its replication state as the primary reports it (online when in sync)")),
          lagSeconds: z.number().meta(d("Seconds since its last acknowledgement")),
        }),
      )
      .meta(d("The replicas connected to the primary")),
    lastFailover: z
      .object({
        at: z.iso.datetime().meta(d("When this instance followed the failover")),
        from: z.string().meta(d("The former primary (host:port)")),
        to: z.string().meta(d("The promoted replica (host:port)")),
      })
      .nullable()
      .meta(d("The last primary change this instance followed since it started, or null")),
  })
  .meta({ id: "Replication", description: "Redis replication under Sentinel, as one sidecar instance sees it" });

export const StatusReport = z
  .object({
    status: z.enum(COMPONENT_STATUSES).meta(d("Worst status of the components")),
    apiVersion: z.string().meta(d("Contract version the API implements")),
    counts: z
      .object({
        providers: z.number().int().meta(d("Number of providers")),
        categories: z.number().int().meta(d("Number of categories")),
        services: z.number().int().meta(d("Number of services")),
        equivalenceGroups: z.number().int().meta(d("Number of equivalence groups")),
        lifecycle: z.record(z.string(), z.number().int()).meta(d("Services per lifecycle status")),
      })
      .meta(d("Catalogue counts")),
    lastUpdated: z.iso.datetime().meta(d("When the catalogue data last changed")),
    components: z.array(ComponentState).meta(d("Each component's current state")),
    replication: Replication.optional().meta(d("Redis replication, present when the store is Redis with Sentinel")),
  })
  .meta({ id: "StatusReport", description: "GET /v1/status" });

export const StatusHistory = z
  .object({
    data: z
      .array(StatusRecord)
      .meta(
        d(
          `Status records of the last ${STATUS_HISTORY_HOURS} hours, one a sample, newest first, at most ${STATUS_HISTORY_LIMIT}`,
        ),
      ),
  })
  .meta({ id: "StatusHistory", description: "GET /v1/status/history" });

export const Health = z
  .object({
    status: z.enum(["ok", "degraded"]).meta(d("ok, or degraded when the store is unreachable")),
    uptimeSeconds: z.number().meta(d("Seconds since the process started")),
    store: z.enum(["embedded", "redis"]).meta(d("Which store backs lists and feedback")),
  })
  .meta({ id: "Health", description: "GET /v1/health: a cheap liveness probe" });

export type StatusRecordT = z.infer<typeof StatusRecord>;
export type StatusReportT = z.infer<typeof StatusReport>;
export type ComponentStateT = z.infer<typeof ComponentState>;
export type HealthT = z.infer<typeof Health>;
export type ReplicationT = z.infer<typeof Replication>;
