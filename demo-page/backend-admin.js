// @ts-check
/**
 * Where the reference backend is, and its admin routes (faults, reset, the request log).
 * These calls go through the real fetch: the offline switch is for the bridge, not the page.
 */

/**
 * The backend's URL: `?backend=` as printed by `npm start`, else the server's /demo-config.json.
 * @param {typeof fetch} fetch
 */
export async function findBackend(fetch) {
  const fromQuery = new URLSearchParams(window.location.search).get('backend');
  if (fromQuery) return fromQuery.replace(/\/+$/, '');
  const response = await fetch('/demo-config.json');
  if (!response.ok)
    throw new Error('no ?backend= in the URL and no /demo-config.json: open the URL "npm start" printed');
  return String((await response.json()).backendUrl);
}

/**
 * The status line's text when the backend does not answer: the device's own network being off
 * (`navigator.onLine` false, as DevTools' or Playwright's offline mode sets it) is not the backend
 * being down, and the outbox is what a person should watch then.
 * @param {string} backendUrl
 */
export const backendDownMessage = (backendUrl) =>
  navigator.onLine === false
    ? 'This device is offline: messages you send wait in the Outbox and go out by themselves once it is back online.'
    : `The reference backend at ${backendUrl} does not answer: is "npm start" still running?`;

/**
 * A caller of `{backend}/__admin/{path}` that rejects on any answer but 2xx and gives the
 * JSON body (undefined for 204).
 * @param {typeof fetch} fetch
 * @param {() => string} backendUrl read per call: the page wires its buttons before it knows the URL
 */
export function createAdmin(fetch, backendUrl) {
  /** @param {string} path @param {RequestInit} [init] @returns {Promise<any>} */
  return async function admin(path, init) {
    const response = await fetch(`${backendUrl()}/__admin/${path}`, init);
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} /__admin/${path} answered ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  };
}

/** @typedef {ReturnType<typeof createAdmin>} Admin */
