/**
 * Limits of the bridge's inbound schemas that the host side checks too, kept apart from
 * schemas.ts so the typed client can import them without zod.
 */

/** Longest command id, command name (`method`) or event name. */
export const NAME_MAX = 128;
