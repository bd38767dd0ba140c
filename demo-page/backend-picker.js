// @ts-check
/**
 * The backend picker: the reference backend in contract mode, or in Chatwoot mode (Chatwoot's
 * widget API, `reference-backend/chatwoot/`). `npm start` runs both and names them in
 * /demo-config.json; picking one points baseUrl, the faults and the request log at it and
 * installs the bridge with the matching `backend` setting.
 */
import { input } from './dom.js';

/** @typedef {'contract' | 'chatwoot'} BackendMode */

const MODE_KEY = 'chat-bridge-demo:backend';

/** The picked mode, as the bridge's `backend` setting: nothing for the contract, its default. */
export function backendSetting() {
  return pickedMode() === 'chatwoot' ? { backend: 'chatwoot' } : {};
}

/** @returns {BackendMode} */
const pickedMode = () => (input('backend-mode').value === 'chatwoot' ? 'chatwoot' : 'contract');

/**
 * @param {typeof fetch} fetch the real fetch (the offline switch is for the bridge, not the page)
 * @param {string} contractUrl the contract backend's URL, as the page found it
 */
export async function createBackendPicker(fetch, contractUrl) {
  /** @type {string | undefined} */
  let chatwootUrl;
  try {
    const response = await fetch('/demo-config.json');
    if (response.ok) chatwootUrl = (await response.json()).chatwootUrl;
  } catch {
    // A page server without the Chatwoot mode: the picker offers the contract only.
  }
  const select = input('backend-mode');
  const chatwoot = /** @type {HTMLOptionElement | null} */ (select.querySelector('option[value="chatwoot"]'));
  if (typeof chatwootUrl !== 'string' || chatwootUrl === '') chatwoot?.remove();
  else if (localStorage.getItem(MODE_KEY) === 'chatwoot') select.value = 'chatwoot';

  return {
    /** The picked backend's URL. */
    url: () => (pickedMode() === 'chatwoot' && chatwootUrl ? chatwootUrl : contractUrl),
    /** Calls `changed` after the user picks another backend, once the choice is remembered. */
    onChange(/** @type {() => void} */ changed) {
      select.addEventListener('change', () => {
        localStorage.setItem(MODE_KEY, pickedMode());
        changed();
      });
    },
  };
}
