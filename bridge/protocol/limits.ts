/**
 * Limits of the bridge's inbound schemas that the host side checks too, kept apart from
 * schemas.ts so the typed client can import them without zod.
 */

/** Longest command id, command name (`method`) or event name. */
export const NAME_MAX = 128;

/** Most characters of base64 one `appendAttachment` chunk carries: 512 KiB, a multiple of 4 (whole groups). */
export const CHUNK_MAX = 524_288;

/**
 * Deepest nesting of objects and arrays kept anywhere: parsed input, backend bodies, redacted
 * output and recordings. No real message comes close; past it, every recursive step (a
 * serializer, a structured clone, a native JSON reader) risks the stack, so deeper parts are
 * refused (input) or withheld (bodies and output) at the edge.
 */
export const MAX_DEPTH = 64;

/** What stands in, in anything the host or a recording gets, for a token or a part withheld past MAX_DEPTH. */
export const REDACTED = '<redacted>';
