// @ts-check
/**
 * An error the bridge reports, shown where the user is: on a phone only one pane is in view, and
 * the error events go to the Events pane. While that pane is hidden, each error event counts on
 * its tab (a badge, until the tab is opened) and shows a toast, `code: message`, for a few
 * seconds, whose button opens the Events pane. On a wide screen every pane is in view: nothing.
 */
import { byId, el } from './dom.js';

/** How long a toast stays, unless another error replaces it. */
const TOAST_MS = 6000;

export function createErrorNotice() {
  const tab = byId('platform-tab');
  const badge = el('span', 'tab-badge');
  badge.hidden = true;
  tab.append(badge);
  const toast = byId('error-toast');
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let hiding;
  let unseen = 0;

  /** Whether the Events pane is drawn (a phone shows one pane at a time, demo.css). */
  const eventsInView = () => byId('events').getClientRects().length > 0;

  function count(/** @type {number} */ value) {
    unseen = value;
    badge.textContent = String(unseen);
    badge.hidden = unseen === 0;
    tab.setAttribute('aria-label', unseen === 0 ? 'Events' : `Events, ${unseen} new error${unseen === 1 ? '' : 's'}`);
  }

  function hide() {
    clearTimeout(hiding);
    toast.hidden = true;
  }

  tab.addEventListener('click', () => {
    count(0);
    hide();
  });
  byId('error-toast-open').addEventListener('click', () => tab.click());
  byId('error-toast-close').addEventListener('click', hide);

  return {
    /** A message from the bridge, decoded. @param {Record<string, unknown>} message */
    received(message) {
      if (message['type'] !== 'error' || eventsInView()) return;
      count(unseen + 1);
      byId('error-toast-text').replaceChildren(
        el('code', '', String(message['code'])),
        `: ${typeof message['message'] === 'string' ? message['message'] : ''}`,
      );
      toast.hidden = false;
      clearTimeout(hiding);
      hiding = setTimeout(hide, TOAST_MS);
    },
  };
}
