// @ts-check
/**
 * Stand-ins for the native side of each platform's channel, and the page's offline switch.
 * Both go in before the bridge is injected: the bridge looks for its channel on `window`
 * and calls `window.fetch`, so what the stand-ins get is exactly what the native side would
 * get, and the switch sees every request the bridge makes.
 */

/** @typedef {import('./platform-forms.js').Host} Host */

/**
 * Wraps `window.fetch` with the offline switch and listens for the browser host's event.
 * Call once, before the bridge is injected.
 */
export function installStandIns() {
  // The page's own admin calls use the real fetch; the bridge (and anything else) gets the switch.
  const realFetch = window.fetch.bind(window);
  let offline = false;
  window.fetch = (resource, init) =>
    offline ? Promise.reject(new TypeError('Failed to fetch')) : realFetch(resource, init);

  /** @type {((payload: unknown) => void) | undefined} set while the browser page is the host */
  let deliverBrowserEvent;
  window.addEventListener('chatbridge', (event) => {
    if (deliverBrowserEvent) deliverBrowserEvent(structuredClone(/** @type {CustomEvent} */ (event).detail));
  });

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
      const w = /** @type {any} */ (window);
      delete w.ReactNativeWebView;
      delete w.ChatBridgeAndroid;
      delete w.ChatBridgeFlutter;
      delete w.webkit;
      deliverBrowserEvent = host === 'browser' ? deliver : undefined;
      if (host === 'react-native') w.ReactNativeWebView = { postMessage: (/** @type {unknown} */ s) => deliver(s) };
      // A @JavascriptInterface or JavaScriptChannel takes a string; anything else arrives converted.
      if (host === 'android') w.ChatBridgeAndroid = { postMessage: (/** @type {unknown} */ s) => deliver(String(s)) };
      if (host === 'flutter') w.ChatBridgeFlutter = { postMessage: (/** @type {unknown} */ s) => deliver(String(s)) };
      // WKScriptMessage.body is a copy of the object, not the page's object itself.
      if (host === 'ios')
        w.webkit = {
          messageHandlers: { chatBridge: { postMessage: (/** @type {unknown} */ o) => deliver(structuredClone(o)) } },
        };
    },
    /**
     * While on, every `fetch` but `realFetch` fails as it does without network; switching
     * fires the window's `offline` / `online` event (the bridge resends its outbox on `online`).
     * @param {boolean} on
     */
    setOffline(on) {
      offline = on;
      window.dispatchEvent(new Event(on ? 'offline' : 'online'));
    },
  };
}

/** @typedef {ReturnType<typeof installStandIns>} StandIns */
