/**
 * What the bridge sends to the host: a discriminated union on `type`.
 */
import type { ErrorEvent } from './errors.js';

/** Sent once at install: the bridge is listening. (Its version is `ChatBridge.version`.) */
export interface ReadyMessage {
  type: 'ready';
}

export type ResponseMessage =
  | { type: 'response'; id: string; ok: true; result: unknown }
  | { type: 'response'; id: string; ok: false; error: ErrorEvent };

/** A widget event forwarded as it came, minus its `event` name which becomes a field. */
export interface WidgetMessage {
  type: 'widget';
  event: string;
  data: Record<string, unknown>;
}

export type OutboundMessage = ErrorEvent | ResponseMessage | WidgetMessage | ReadyMessage;

/** How a command ended: what its response carries. */
export type Outcome = { ok: true; result: unknown } | { ok: false; error: ErrorEvent };
