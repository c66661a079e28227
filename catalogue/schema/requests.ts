/** Request bodies of the POST endpoints. */
import { z } from "zod";
import {
  FEEDBACK_MESSAGE,
  IDEMPOTENCY_KEY_MAX,
  LIST_NAME_MAX,
  LIST_SLUG_LENGTH,
  MAX_APPROVED_IDS,
  MAX_ID_LENGTH,
  MAX_URL_LENGTH,
} from "../limits.ts";
import { d } from "./vocabulary.ts";
export const ApprovedServicesBody = z
  .object({
    approvedServiceIds: z
      .array(z.string().min(1).max(MAX_ID_LENGTH))
      .min(1)
      .max(MAX_APPROVED_IDS)
      .meta(d(`Service ids as in the services listing (1 to ${MAX_APPROVED_IDS})`)),
  })
  .meta({ id: "ApprovedServicesBody", description: "Request body of the policy and export endpoints" });

export const LIST_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** Idempotency-Key: letters, digits and ._:- only, at most IDEMPOTENCY_KEY_MAX characters (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/** Request headers of POST /v1/lists. */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, `must be 1 to ${IDEMPOTENCY_KEY_MAX} letters, digits, '.', '_', ':' or '-'`)
    .optional()
    .meta(
      d(
        `Idempotency-Key: a retry from the same client with the same key and body returns the list the first request saved (200) instead of saving another or answering 409; the same key with another body → 422; another client's key is its own. Kept with the list for its lifetime. 1 to ${IDEMPOTENCY_KEY_MAX} characters of [A-Za-z0-9._:-], e.g. a UUID (empty or longer → 400)`,
      ),
    ),
});

export const SavedListCreate = z
  .object({
    name: z
      .string()
      .max(LIST_NAME_MAX)
      .optional()
      .meta(d("Display name; when slug is omitted the slug is derived from it")),
    approvedServiceIds: ApprovedServicesBody.shape.approvedServiceIds,
    slug: z
      .string()
      .min(LIST_SLUG_LENGTH.min)
      .max(LIST_SLUG_LENGTH.max)
      .regex(LIST_SLUG_PATTERN, "must be lowercase letters, digits and hyphens, with no leading or trailing hyphen")
      .optional()
      .meta(
        d(
          `${LIST_SLUG_LENGTH.min} to ${LIST_SLUG_LENGTH.max} characters, [a-z0-9-], no leading or trailing hyphen; 409 when taken`,
        ),
      ),
  })
  .meta({ id: "SavedListCreate", description: "Request body of POST /v1/lists" });

export const FeedbackBody = z
  .object({
    type: z
      .string()
      .nullish()
      .meta(d("One of bug, feature, question, general; defaults to general when omitted, null or unrecognised")),
    message: z
      .string()
      .superRefine((message, ctx) => {
        // Characters as people count them: code points, not UTF-16 units.
        const length = [...message].length;
        if (message.trim() === "") ctx.addIssue({ code: "custom", message: "must not be blank" });
        else if (length < FEEDBACK_MESSAGE.min || length > FEEDBACK_MESSAGE.max)
          ctx.addIssue({
            code: "custom",
            message: `must be ${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters; it has ${length}`,
          });
      })
      .meta(d(`${FEEDBACK_MESSAGE.min} to ${FEEDBACK_MESSAGE.max} characters`)),
    email: z.email().optional().meta(d("Optional reply-to address")),
    page: z.string().max(MAX_URL_LENGTH).optional().meta(d("Where the feedback was submitted from")),
  })
  .meta({ id: "FeedbackBody", description: "Request body of POST /v1/feedback" });

export const OutboundClickBody = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(MAX_URL_LENGTH)
      .meta(d("The outbound URL that was followed")),
    serviceId: z.string().max(MAX_ID_LENGTH).optional().meta(d("The service whose link was followed")),
    kind: z.enum(["documentation", "pricing", "announcement", "other"]).optional().meta(d("Which link it was")),
    page: z.string().max(MAX_URL_LENGTH).optional().meta(d("Where the click happened")),
  })
  .meta({ id: "OutboundClickBody", description: "Request body of POST /v1/analytics/outbound" });
export type FeedbackBodyT = z.output<typeof FeedbackBody>;
