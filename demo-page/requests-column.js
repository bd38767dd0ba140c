// @ts-check
/**
 * The "Requests the bridge made" column: the reference backend's request log (tokens
 * redacted there), polled and shown newest first, preflights marked.
 */
import { el } from './dom.js';

const POLL_MS = 500;
/** The newest entries shown; the backend keeps more. */
const SHOWN = 100;

/** @typedef {{method: string, path: string, query: Record<string, string>, headers: Record<string, string>, status: number | null}} LoggedRequest */

/**
 * @param {HTMLElement} list the column's `<ol>`
 * @param {import('./backend-admin.js').Admin} admin
 * @param {{down(): void, back(): void}} backend told once when the backend stops answering, and once when it answers again
 */
export function createRequestsColumn(list, admin, backend) {
  let signature = '';
  let down = false;

  async function poll() {
    if (navigator.onLine === false) {
      // Each poll would only fail (and Chromium logs each failed fetch as a console error).
      if (!down) backend.down();
      down = true;
      return;
    }
    try {
      /** @type {LoggedRequest[]} */
      const log = await admin('requests');
      if (down) {
        down = false;
        backend.back();
      }
      const recent = log.slice(-SHOWN);
      // Entries change only by being added or answered: count and statuses tell whether to redraw.
      const next = `${log.length}:${recent.map((entry) => entry.status).join(',')}`;
      if (next === signature) return;
      signature = next;
      list.replaceChildren(...recent.reverse().map(requestItem));
    } catch {
      if (!down) backend.down();
      down = true;
    }
  }

  async function pollForever() {
    await poll();
    setTimeout(pollForever, POLL_MS);
  }

  return {
    /** Polls every POLL_MS from now on. */
    start() {
      void pollForever();
    },
    /** Empties the backend's log, then shows it. */
    async clear() {
      await admin('requests', { method: 'DELETE' });
      await poll();
    },
  };
}

/** @param {LoggedRequest} entry */
function requestItem(entry) {
  const query = new URLSearchParams(entry.query).toString();
  const preflight = entry.method === 'OPTIONS';
  const statusClass = entry.status === null ? 'pending' : `s${String(entry.status)[0]}xx`;
  const shown = [
    'origin',
    'authorization',
    'content-type',
    'access-control-request-method',
    'access-control-request-headers',
  ]
    .filter((name) => entry.headers[name] !== undefined)
    .map((name) => `${name}: ${entry.headers[name]}`);
  const details = el(
    'details',
    '',
    el('summary', '', 'all request headers'),
    el('pre', '', JSON.stringify(entry.headers, null, 2)),
  );
  return el(
    'li',
    `request ${statusClass}${preflight ? ' preflight' : ''}`,
    el(
      'div',
      'line',
      el('b', 'method', entry.method),
      ' ',
      el('span', 'path', `${entry.path}${query ? `?${decodeURIComponent(query)}` : ''}`),
      ' ',
      el('span', 'status-code', entry.status === null ? 'no answer yet' : String(entry.status)),
      preflight ? el('span', 'tag', 'CORS preflight') : '',
    ),
    el('div', 'headers', shown.join(' · ')),
    details,
  );
}
