/**
 * The shapes of everything that enters the bridge, as zod/mini schemas. Types are inferred
 * from here and never written twice. (zod/mini, not zod: the full build costs ~98 KB gzipped.)
 *
 * The injected bundle does not carry zod: scripts/generate-validators.mjs turns every schema
 * exported here into a plain validator with the same verdicts and issues, at build time. It
 * knows string, number, object, looseObject, optional and array, and refinements that describe
 * themselves in `params` (see `text`); anything else fails the build with a message naming it.
 * Export only schemas and constants from here.
 */
import * as z from 'zod/mini';
import { CHUNK_MAX, NAME_MAX } from './limits.js';

/**
 * A string of 1 to `max` characters. Ids, command names and event names are echoed in answers, so
 * they stay short. `params` states the rule for the validator generator (checked against `fn` there).
 */
const text = (max: number) =>
  z.string().check(
    z.refine((value) => value.length > 0 && value.length <= max, {
      message: `must be 1 to ${max} characters`,
      params: { minLength: 1, maxLength: max },
    }),
  );
export const idString = text(NAME_MAX);

/** The bridge's own envelope for host commands. `method` names the host command; its `params` are checked per command afterwards. */
export const HostCommandSchema = z.object({
  id: idString,
  method: text(NAME_MAX),
  params: z.optional(z.looseObject({})),
});
export type HostCommand = z.infer<typeof HostCommandSchema>;

const contactFields = {
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  identifier: z.optional(z.string()),
};

/** Optional contact fields for the conversation a command may create. */
export const ContactSchema = z.object(contactFields);
export type Contact = z.infer<typeof ContactSchema>;

const AttachmentSchema = z.object({
  name: text(255),
  type: z.string(),
  /** The file's bytes, base64. One of `data` and `size` is required (checked in dispatch/service-rules.ts). */
  data: z.optional(z.string()),
  /** Bytes, for fixtures that describe a large file without carrying it; ignored when `data` is given. */
  size: z.optional(z.number()),
  /** Instead of `data`: an upload assembled from `appendAttachment` chunks (dispatch/uploads.ts). */
  uploadId: z.optional(idString),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

export const SendMessageSchema = z.object({
  ...contactFields,
  content: z.optional(z.string()),
  attachments: z.optional(z.array(AttachmentSchema)),
  /** Client-generated id sent as `echo_id`; retries of one message carry the same one. */
  messageId: z.optional(idString),
});
export type SendMessageParams = z.infer<typeof SendMessageSchema>;

export const EmptyParamsSchema = z.object({});

/** `appendAttachment`: chunk `index` (from 0) of an upload, base64 in whole 4-character groups. */
export const AppendAttachmentSchema = z.object({ uploadId: idString, index: z.number(), data: text(CHUNK_MAX) });
export type AppendAttachmentParams = z.infer<typeof AppendAttachmentSchema>;

/** `cancelMessage`: the message to take out of the outbox. */
export const CancelMessageSchema = z.object({ messageId: idString });

/** The widget's string protocol: `'<prefix>:' + JSON.stringify({event, ...})`. */
export const WidgetMessageSchema = z.looseObject({
  event: text(NAME_MAX),
});
