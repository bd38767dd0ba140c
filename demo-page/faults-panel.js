// @ts-check
/**
 * The "Backend faults" list of the control bar: one switch per fault the backend lists at
 * GET /__admin/faults, with the error code it leads to and the backend's own description, and
 * the names of those switched on in the bar itself.
 */
import { el, setStatus } from './dom.js';

/** What each fault leads to, shown next to its switch; a fault missing here shows its description only. */
const FAULT_EFFECTS = {
  'rotated-website-token': 'auth_failed on init',
  'expired-auth-token': 'recovered: config fetched again',
  'always-401': 'auth_failed on conversation / message',
  'no-conversation': 'recovered: conversation created',
  'validation-422': 'validation_error on create / send',
  'rate-limited': 'rate_limited after ~4 s of retries',
  'rate-limited-no-retry-after': 'rate_limited after ~15 s of retries',
  'server-error': 'server_error',
  'config-empty': 'config_error on init',
  'config-malformed': 'config_error on init',
  'config-no-token': 'config_error on init',
  hang: 'network_error after 15 s; a message waits in the Outbox and retries',
  'drop-connection': 'network_error; a message waits in the Outbox and retries on its backoff',
  'service-unavailable': 'server_error 503; a message waits in the Outbox and retries on its backoff',
  'slow-upload':
    'an attachment uploads slowly: its progress bar moves in the Outbox (the first ~4 MB fill the socket buffers at once)',
  'no-cors': 'network_error',
  'no-expose-retry-after': '429 retries cannot read Retry-After',
  'payload-too-large': 'file_too_large on send',
  'bad-request': 'bad_request on create / send',
  'not-found': 'not_found on conversation / message',
};

/** @typedef {{name: string, on: boolean, description: string}} Fault */

/**
 * @param {HTMLElement} list the panel's `<ul>`
 * @param {HTMLElement} summary where the faults switched on are named (the control bar)
 * @param {import('./backend-admin.js').Admin} admin
 */
export function createFaultsPanel(list, summary, admin) {
  /** @param {Fault[]} faults */
  function render(faults) {
    list.replaceChildren(...faults.map(faultItem));
    const on = faults.filter((fault) => fault.on).map((fault) => fault.name);
    summary.replaceChildren(on.length === 0 ? el('span', 'none', 'none') : el('span', 'on', on.join(', ')));
  }

  /** @param {Fault} fault */
  function faultItem(fault) {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `fault-${fault.name}`;
    box.checked = fault.on;
    box.addEventListener('change', () => {
      admin('faults', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: fault.name, on: box.checked }),
      })
        .then(render)
        .catch((error) => {
          box.checked = !box.checked;
          setStatus(`Could not switch ${fault.name}: ${error.message}`, 'error');
        });
    });
    const label = /** @type {HTMLLabelElement} */ (el('label', '', box, el('code', 'fault-name', fault.name)));
    label.htmlFor = box.id;
    const effect = /** @type {Record<string, string>} */ (FAULT_EFFECTS)[fault.name];
    return el(
      'li',
      fault.on ? 'fault on' : 'fault',
      label,
      el('div', 'description', effect ? el('span', 'effect', `→ ${effect}. `) : '', fault.description),
    );
  }

  return {
    /** Lists the backend's faults as they are now. */
    async refresh() {
      render(await admin('faults'));
    },
    /** Switches every fault off and clears the backend's data. */
    async reset() {
      await admin('reset', { method: 'POST' });
      render(await admin('faults'));
    },
  };
}
