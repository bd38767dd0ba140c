// @ts-check
/**
 * The page's stand-in for the native app: the picked platform's channel, and the offline switch.
 * Both go in before the bridge is injected: the bridge looks for its channel on `window`
 * and calls `window.fetch`, so what the stand-in gets is exactly what the native side would
 * get, and the switch sees every request the bridge makes. The channel stand-ins themselves are
 * the ones the replay and the tests use (tools/testing/stand-in-channels.ts, built into dist/esm).
 */
// @ts-expect-error -- a URL: the page server maps /dist/ to dist/; the types are tools/testing/stand-in-channels.ts.
import { installStandIns as installChannelStandIn } from '/dist/esm/stand-in-channels.js';

/** @typedef {import('./platform-forms.js').Host} Host */

/**
 * Wraps `window.fetch` and `window.XMLHttpRequest` (the bridge's uploads) with the offline switch.
 * Call once, before the bridge is injected.
 */
export function installNativeSide() {
  // The page's own admin calls use the real fetch; the bridge (and anything else) gets the switch.
  const realFetch = window.fetch.bind(window);
  let offline = false;
  window.fetch = (resource, init) =>
    offline ? Promise.reject(new TypeError('Failed to fetch')) : realFetch(resource, init);
  window.XMLHttpRequest = class extends window.XMLHttpRequest {
    /** @override @param {Document | XMLHttpRequestBodyInit | null} [body] */
    send(body) {
      if (!offline) return super.send(body);
      // What an XHR does without network: no request, then `error` and `loadend`, status 0.
      setTimeout(() => {
        for (const type of ['error', 'loadend']) this.dispatchEvent(new ProgressEvent(type));
      });
    }
  };

  /** Removes the stand-in installed last. */
  let removeStandIn = () => {};

  return {
    /** `fetch` as it was before the switch: the page's calls to the backend's admin routes. */
    realFetch,
    /**
     * Makes the picked platform's channel the only one on `window`, as in a real WebView;
     * `deliver` gets each payload as that platform's native side would.
     * @param {Host} host
     * @param {(payload: unknown) => void} deliver
     */
    use(host, deliver) {
      removeStandIn();
      removeStandIn = installChannelStandIn(
        /** @type {any} */ (window),
        [host],
        (/** @type {Host} */ _host, /** @type {unknown} */ payload) => deliver(payload),
      );
    },
    /**
     * While on, every `fetch` but `realFetch`, and every XHR, fails as it does without network; switching
     * fires the window's `offline` / `online` event (the bridge resends its outbox on `online`).
     * @param {boolean} on
     */
    setOffline(on) {
      offline = on;
      window.dispatchEvent(new Event(on ? 'offline' : 'online'));
    },
  };
}

/** @typedef {ReturnType<typeof installNativeSide>} NativeSide */
