// @ts-check
/**
 * The platform column's last 50 entries, kept in localStorage so they survive a reload (a
 * reload is how a WebView app restarts the page; what it got before is worth seeing).
 */
import { isHost } from './platform-forms.js';

/** How many entries are kept, and shown. */
export const KEEP_EVENTS = 50;
const EVENTS_KEY = 'chat-bridge-demo:events';

/**
 * @typedef {import('./platform-forms.js').Host} Host
 * @typedef {{at: number, host: Host, dir: 'in', raw: unknown} | {at: number, host: Host, dir: 'out', text: string, who: string}} LogEntry
 * `in`: a payload the platform received, as its channel got it. `out`: what the host (or the
 * widget) sent, for context.
 */

/**
 * Loads the saved entries (anything unreadable counts as none) and keeps them saved.
 * @param {Storage} storage
 */
export function createEventStore(storage) {
  /** @type {LogEntry[]} */
  const entries = load(storage);

  function save() {
    try {
      storage.setItem(EVENTS_KEY, JSON.stringify(entries));
    } catch {
      // Storage full or blocked: the log still works for this page.
    }
  }

  return {
    /** Oldest first. @returns {readonly LogEntry[]} */
    entries: () => entries,
    /** Appends one entry, dropping the oldest past KEEP_EVENTS. @param {LogEntry} entry */
    add(entry) {
      entries.push(entry);
      entries.splice(0, Math.max(0, entries.length - KEEP_EVENTS));
      save();
    },
    clear() {
      entries.length = 0;
      save();
    },
  };
}

/** @param {Storage} storage @returns {LogEntry[]} */
function load(storage) {
  try {
    const parsed = JSON.parse(storage.getItem(EVENTS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((entry) => entry && isHost(entry.host)) : [];
  } catch {
    return [];
  }
}
