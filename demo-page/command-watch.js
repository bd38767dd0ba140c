// @ts-check
/**
 * Between the bridge host and the delivery panels: which lane of the request timeline a request
 * belongs to (a message's requests go by their echo_id, the others to the oldest command still
 * unanswered), message-state events to the outbox panel, and `listOutbox`'s answer.
 */

/** @param {import('./outbox-panel.js').OutboxPanel} outbox */
export function createCommandWatch(outbox) {
  /** @type {Map<string, string>} command id -> method, until its response */
  const pending = new Map();
  return {
    /** A host command on its way to the bridge. @param {{id: string, method: string, params?: unknown}} command */
    sent(command) {
      pending.set(command.id, command.method);
      const params = /** @type {{messageId?: unknown, content?: unknown} | undefined} */ (command.params);
      if (command.method === 'sendMessage' && typeof params?.messageId === 'string')
        outbox.composed(params.messageId, typeof params.content === 'string' ? params.content : undefined);
    },
    /** A message from the bridge, decoded. @param {Record<string, any>} message */
    received(message) {
      if (message['type'] === 'message') outbox.seen(message);
      if (message['type'] !== 'response') return;
      const method = pending.get(message['id']);
      pending.delete(message['id']);
      if (method === 'listOutbox' && message['ok']) outbox.listed(message['result']);
    },
    /** The bridge was installed again: the old one's commands will never be answered. */
    reset() {
      pending.clear();
    },
    /** @param {string | undefined} echoId @returns {string} */
    laneOf(echoId) {
      if (echoId !== undefined) return `message ${echoId}`;
      const oldest = pending.entries().next();
      return oldest.done ? 'the bridge on its own' : `${oldest.value[1]} ${oldest.value[0]}`;
    },
  };
}

/** @typedef {ReturnType<typeof createCommandWatch>} CommandWatch */
