// @ts-check
/**
 * The platform column ("What … receives"): each payload the picked platform received, in its
 * own terms and raw, between the commands its side sent; newest first.
 */
import { el } from './dom.js';
import { KEEP_EVENTS } from './event-store.js';
import { PLATFORMS, decode, nativeForm } from './platform-forms.js';

/**
 * @typedef {import('./event-store.js').LogEntry} LogEntry
 * @typedef {ReturnType<typeof import('./event-store.js').createEventStore>} EventStore
 */

/**
 * @param {HTMLElement} list the column's `<ol>`
 * @param {EventStore} store where the entries are kept across reloads
 */
export function createEventLog(list, store) {
  return {
    /** Shows what the store kept from before the reload. */
    showSaved() {
      list.replaceChildren(
        ...store
          .entries()
          .map((entry) => eventItem(entry, true))
          .reverse(),
      );
    },
    /** @param {LogEntry} entry */
    add(entry) {
      store.add(entry);
      list.prepend(eventItem(entry, false));
      while (list.children.length > KEEP_EVENTS) list.lastElementChild?.remove();
    },
    clear() {
      store.clear();
      list.replaceChildren();
    },
  };
}

/** @typedef {ReturnType<typeof createEventLog>} EventLog */

/** @param {LogEntry} entry @param {boolean} earlier shown from before the last reload */
function eventItem(entry, earlier) {
  const time = new Date(entry.at).toLocaleTimeString();
  const label = PLATFORMS[entry.host].label;
  if (entry.dir === 'out') {
    return el(
      'li',
      'event sent',
      el('div', 'meta', `${time} · ${entry.who}${earlier ? ' · before reload' : ''}`),
      el('code', 'native', entry.text),
    );
  }
  // One call may carry several messages (an array: what one task delivered), each decoded in turn.
  const decoded = decode(entry.raw);
  const messages = Array.isArray(decoded) ? decoded : decoded === undefined ? [] : [decoded];
  // The error event is what hosts act on; a failed command's response repeats it, so it is quieter.
  const tone = messages.some((message) => message?.['type'] === 'error')
    ? ' error'
    : messages.some((message) => message?.['type'] === 'response' && message['ok'] === false)
      ? ' failed'
      : '';
  const kind =
    typeof entry.raw === 'string'
      ? 'postMessage(string)'
      : entry.host === 'browser'
        ? 'event.detail (object)'
        : 'postMessage(object)';
  return el(
    'li',
    `event received${tone}`,
    el('div', 'meta', `${time} · ${label} received${earlier ? ' · before reload' : ''}`),
    el(
      'code',
      'native',
      messages.length === 0
        ? `(not a bridge message)`
        : messages.map((message) => nativeForm(entry.host, message)).join('\n'),
    ),
    el(
      'div',
      'raw',
      el('span', 'raw-kind', `raw ${kind}: `),
      el('code', '', typeof entry.raw === 'string' ? entry.raw : JSON.stringify(entry.raw)),
    ),
  );
}
