// @ts-check
/**
 * The "Outbox" panel: each message the bridge is delivering, as its message-state events tell
 * (`{type: "message", messageId, state, attempt, nextAttemptAt?, error?}`) and as `listOutbox`
 * answers (what waits, an earlier page's messages included). Waiting messages first, with a
 * countdown to the next retry, and a progress bar while a message's attachments upload (the
 * `progress` of its `sending` events); the last few finished ones stay below, dimmed. A waiting message
 * has a "cancel" button (`cancelMessage`), a failed one whose text is known a "send again" button
 * (`sendMessage` with the same messageId), the two buttons the README gives a chat UI.
 */
import { el } from './dom.js';

// Shapes every font has: a clock and an hourglass emoji show as boxes in many WebViews' fonts.
const SYMBOLS = {
  queued: '○ queued',
  sending: '◐ sending',
  sent: '✓ sent',
  failed: '✗ failed',
  refused: '⊘ refused',
};
/** Finished messages kept in view. */
const KEEP_FINISHED = 5;

/**
 * @typedef {keyof typeof SYMBOLS} State
 * @typedef {{sentBytes: number, totalBytes: number}} Progress
 * @typedef {{messageId: string, state: State, attempt: number, nextAttemptAt: number | undefined, error: {code: string, message?: string} | undefined, content: string | undefined, progress: Progress | undefined, changed: number}} Row
 */

/**
 * @typedef {{cancel(messageId: string): unknown, resend(messageId: string, content: string): unknown}} Actions
 * what the rows' buttons do (host commands)
 */

/** @param {HTMLElement} list the panel's `<ol>` @param {Actions} [actions] */
export function createOutboxPanel(list, actions) {
  /** @type {Map<string, Row>} */
  const rows = new Map();
  /** @type {Map<string, string>} the text of messages this page sent under its own messageId */
  const composed = new Map();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let ticker;

  function render() {
    clearTimeout(ticker);
    const now = Date.now();
    const ordered = [...rows.values()].sort((a, b) => rank(a) - rank(b) || a.changed - b.changed);
    list.replaceChildren(
      ...(ordered.length > 0
        ? ordered.map((row) => rowItem(row, now, actions))
        : [el('li', 'empty', 'Nothing waiting.')]),
    );
    if (ordered.some((row) => row.state === 'queued' && row.nextAttemptAt !== undefined))
      ticker = setTimeout(render, 1000);
  }

  /** Drops the oldest finished rows past KEEP_FINISHED. */
  function prune() {
    const finished = [...rows.values()].filter((row) => rank(row) === 1).sort((a, b) => b.changed - a.changed);
    for (const row of finished.slice(KEEP_FINISHED)) {
      rows.delete(row.messageId);
      composed.delete(row.messageId);
    }
  }

  render();
  return {
    /** A message-state event from the bridge. @param {Record<string, any>} message */
    seen(message) {
      if (typeof message['messageId'] !== 'string' || !Object.hasOwn(SYMBOLS, message['state'])) return;
      const before = rows.get(message['messageId']);
      rows.set(message['messageId'], {
        messageId: message['messageId'],
        state: message['state'],
        attempt: Number(message['attempt']) || 0,
        nextAttemptAt: typeof message['nextAttemptAt'] === 'number' ? message['nextAttemptAt'] : undefined,
        error: message['error'] ?? (message['state'] === 'sent' ? undefined : before?.error),
        content: before?.content ?? composed.get(message['messageId']),
        // Only while sending: a new attempt starts its upload again from nothing.
        progress: message['state'] === 'sending' ? progressOf(message['progress']) : undefined,
        changed: Date.now(),
      });
      prune();
      render();
    },
    /**
     * A message the page is sending under its own messageId: its text, for the row to come.
     * @param {string} messageId @param {string | undefined} content
     */
    composed(messageId, content) {
      if (content === undefined) return;
      composed.set(messageId, content);
      // Kept for the row to come (a refused message gets one too): only the latest texts.
      for (const old of composed.keys()) if (composed.size > 50) composed.delete(old);
    },
    /**
     * The bridge refused a message this page sent, before queueing it (its own checks: size,
     * type, count, empty text): never sent, so no message events; a row says so. A message that
     * was queued and then failed has its row from its events already.
     * @param {string} messageId @param {{code?: unknown, message?: unknown} | undefined} error
     */
    refused(messageId, error) {
      if (rows.has(messageId)) return;
      rows.set(messageId, {
        messageId,
        state: 'refused',
        attempt: 0,
        nextAttemptAt: undefined,
        error: {
          code: String(error?.code ?? 'error'),
          ...(typeof error?.message === 'string' ? { message: error.message } : {}),
        },
        content: composed.get(messageId),
        progress: undefined,
        changed: Date.now(),
      });
      prune();
      render();
    },
    /** `listOutbox`'s result: `{messages: [{messageId, state, attempt, nextAttemptAt, content}]}`. @param {any} result */
    listed(result) {
      for (const message of Array.isArray(result?.messages) ? result.messages : []) {
        this.seen(message);
        const row = rows.get(message.messageId);
        if (row && typeof message.content === 'string') row.content = message.content;
      }
      render();
    },
    clear() {
      rows.clear();
      composed.clear();
      render();
    },
  };
}

/** @typedef {ReturnType<typeof createOutboxPanel>} OutboxPanel */

/** A well-formed `progress` field, or undefined. @param {unknown} value @returns {Progress | undefined} */
function progressOf(value) {
  const { sentBytes, totalBytes } = /** @type {Record<string, unknown>} */ (value ?? {});
  return typeof sentBytes === 'number' && typeof totalBytes === 'number' && totalBytes > 0
    ? { sentBytes, totalBytes }
    : undefined;
}

/** Bytes as a person reads them. @param {number} bytes */
const size = (bytes) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;

/**
 * The upload's bar and its figures. Once the whole body is out the message is still `sending`
 * until the server answers (it may still be reading what sits in the socket buffers, then it
 * stores the files): the row says so rather than sit at 100% with nothing happening.
 * @param {Progress} progress
 */
function progressBar({ sentBytes, totalBytes }) {
  const bar = /** @type {HTMLProgressElement} */ (el('progress', 'outbox-progress'));
  bar.max = totalBytes;
  bar.value = sentBytes;
  const percent = Math.floor((sentBytes / totalBytes) * 100);
  bar.textContent = `${percent}%`;
  return sentBytes >= totalBytes
    ? el('div', 'outbox-upload all-sent', bar, ` all ${size(totalBytes)} sent · waiting for the server's answer`)
    : el('div', 'outbox-upload', bar, ` ${percent}% · ${size(sentBytes)} of ${size(totalBytes)}`);
}

/** Waiting (queued, sending) before finished. @param {Row} row */
const rank = (row) => (row.state === 'sent' || row.state === 'failed' || row.state === 'refused' ? 1 : 0);

/** @param {Row} row @param {number} now @param {Actions | undefined} actions */
function rowItem(row, now, actions) {
  const details = row.state === 'refused' ? refusal(row.error) : [`attempt ${row.attempt}`];
  if (row.state === 'queued' && row.nextAttemptAt !== undefined) {
    const seconds = Math.max(0, Math.ceil((row.nextAttemptAt - now) / 1000));
    details.push(seconds > 0 ? `next try in ${seconds} s` : 'next try now');
  } else if (row.state === 'queued' && row.attempt > 0) {
    // Offline, the bridge sets no timer: the window's `online` event sends it.
    details.push('waits for the network');
  }
  if (row.error?.code && row.state !== 'refused')
    details.push(`${row.state === 'failed' ? 'failed with' : 'last'} ${row.error.code}`);
  return el(
    'li',
    `outbox-row ${row.state}`,
    el('span', 'outbox-state', SYMBOLS[row.state]),
    ' ',
    el('code', 'outbox-id', row.messageId),
    row.content === undefined ? '' : el('span', 'outbox-content', ` “${row.content.slice(0, 60)}”`),
    el('div', 'outbox-details', details.join(' · ')),
    row.progress === undefined ? '' : progressBar(row.progress),
    actions === undefined ? '' : rowButton(row, actions),
  );
}

/**
 * A refusal in the bridge's own words, without the `[POST /messages] 413:` its message starts
 * with: that is the status a server would have given, and no request was made.
 * @param {Row['error']} error
 */
function refusal(error) {
  const reason = (error?.message ?? '').replace(/^\[[^\]]*\] (\d{3}: )?/, '');
  return [`${error?.code} · checked before sending, nothing was sent`, ...(reason === '' ? [] : [reason])];
}

/**
 * "cancel" while it waits (not while an attempt is under way: the bridge refuses that), "send
 * again" once it failed, when its text is known. @param {Row} row @param {Actions} actions
 */
function rowButton(row, actions) {
  const { messageId, content } = row;
  /** @param {string} label @param {() => unknown} action */
  const button = (label, action) => {
    const element = el('button', 'outbox-action', label);
    element.setAttribute('type', 'button');
    element.addEventListener('click', () => {
      /** @type {HTMLButtonElement} */ (element).disabled = true;
      action();
    });
    return element;
  };
  if (row.state === 'queued') return button('cancel', () => actions.cancel(messageId));
  if (row.state === 'failed' && content !== undefined)
    return button('send again', () => actions.resend(messageId, content));
  return '';
}
