/**
 * Message ids (`messageId`, sent to the service as `echo_id`), made here only, in one format, by
 * the bridge and by the typed client: `<source>-<counter>`, both in base 36. The source is the
 * time its maker started and 32 random bits, so ids stay unique across reloads, WebViews and
 * apps (as Capacitor starts its callback ids at a random number); the counter, within one.
 */
import type { HostCommand } from './schemas.js';

/** A maker's source: the time (ms since the epoch) and a random number in [0, 1). */
export const sourceId = (now: number, random: number): string =>
  now.toString(36) + Math.floor(random * 2 ** 32).toString(36);

/** Mints the ids of one source, in order. */
export function messageIds(source: string): () => string {
  let counter = 0;
  return () => `${source}-${(counter++).toString(36)}`;
}

/**
 * A `sendMessage` command gets the next id as it comes in, before it is recorded, so a recording
 * replays with it and the outbox, the host and the service all see the same one; a `messageId`
 * the host gave wins. (One is drawn either way: the ids that follow do not depend on the params.)
 */
export function withMessageId(verdict: { kind: string; command?: HostCommand }, mint: () => string): void {
  const command = verdict.command;
  if (command && command.method === 'sendMessage') command.params = { messageId: mint(), ...command.params };
}
