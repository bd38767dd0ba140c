// @ts-check
/**
 * Between the bridge host and the delivery panels: which lane of the request timeline a request
 * belongs to, message-state events to the outbox panel, and `listOutbox`'s answer.
 *
 * Lanes: a request carrying an echo_id is its message's. One without (`GET /config`, the
 * conversation calls) belongs to the oldest command still unanswered other than sendMessage;
 * with none, to the oldest message still unanswered, since the outbox sends its messages in
 * order, and a message's own config and conversation calls (retried through a 503 storm, say)
 * then sit on that message's lane with its `POST /messages`.
 */

import { MESSAGE_LANE } from './timeline-model.js';

/** @param {Pick<import('./outbox-panel.js').OutboxPanel, 'composed' | 'seen' | 'listed' | 'refused'>} outbox */
export function createCommandWatch(outbox) {
  /** @type {Map<string, {method: string, lane: string, messageId?: string}>} command id -> its method and lane, until its response */
  const pending = new Map();
  return {
    /** A host command on its way to the bridge. @param {{id: string, method: string, params?: unknown}} command */
    sent(command) {
      const params = /** @type {{messageId?: unknown, content?: unknown} | undefined} */ (command.params);
      const messageId =
        command.method === 'sendMessage' && typeof params?.messageId === 'string' ? params.messageId : undefined;
      pending.set(command.id, {
        method: command.method,
        lane: messageId === undefined ? `${command.method} ${command.id}` : `${MESSAGE_LANE}${messageId}`,
        ...(messageId === undefined ? {} : { messageId }),
      });
      if (messageId !== undefined)
        outbox.composed(messageId, typeof params?.content === 'string' ? params.content : undefined);
    },
    /** A message from the bridge, decoded. @param {Record<string, any>} message */
    received(message) {
      if (message['type'] === 'message') outbox.seen(message);
      if (message['type'] !== 'response') return;
      const command = pending.get(message['id']);
      pending.delete(message['id']);
      if (command?.method === 'listOutbox' && message['ok']) outbox.listed(message['result']);
      // A message the bridge refused: the Outbox shows it, unless it was queued (its events tell).
      if (command?.messageId !== undefined && message['ok'] === false)
        outbox.refused(command.messageId, message['error']);
    },
    /** The bridge was installed again: the old one's commands will never be answered. */
    reset() {
      pending.clear();
    },
    /** @param {string | undefined} echoId @returns {string} */
    laneOf(echoId) {
      if (echoId !== undefined) return `${MESSAGE_LANE}${echoId}`;
      const waiting = [...pending.values()];
      const owner = waiting.find((command) => command.method !== 'sendMessage') ?? waiting[0];
      return owner === undefined ? 'the bridge on its own' : owner.lane;
    },
  };
}

/** @typedef {ReturnType<typeof createCommandWatch>} CommandWatch */
