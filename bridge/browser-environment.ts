/**
 * The environment (environment.ts) as a real WebView fills it: its window, fetch, timers,
 * storage (browser-storage.ts), locks (browser-locks.ts) and uploads with progress (xhr-upload.ts).
 */
import { browserLocks } from './browser-locks.js';
import { browserRecords } from './browser-storage.js';
import { apply, listen, type Environment, type HostScope, type InboundMessage } from './environment.js';
import { xhrUpload } from './xhr-upload.js';

/** The environment's requests: taken once, by `browserNetwork`. */
export type BrowserNetwork = Pick<Environment, 'fetch' | 'upload'>;

/**
 * `fetch` and uploads, taken when called: the bundle calls it as it runs, at document start,
 * before the page's scripts, so a script that wraps `window.fetch` or XMLHttpRequest afterwards
 * never sees a request of the bridge's (its `Authorization` header). Called with `win` as `this`:
 * some WebViews throw "Illegal invocation" for a detached fetch.
 */
export function browserNetwork(win: Window & typeof globalThis): BrowserNetwork {
  const fetch = win.fetch;
  return { fetch: (url, request) => apply(fetch, win, [url, request]), upload: xhrUpload(win) };
}

/** Fills the environment from a real browser window (the WebView), with its requests as `network` took them. */
export function browserEnvironment(
  win: Window & typeof globalThis,
  network: BrowserNetwork = browserNetwork(win),
): Environment {
  return {
    records: browserRecords(win),
    // The one Math.random of bridge/ (detached: it needs no `this`), the locks' too.
    locks: browserLocks(win, Math.random),
    onVisible: (listener) =>
      listen([win.document], ['visibilitychange'], () => win.document.visibilityState === 'visible' && listener()),
    fetch: network.fetch,
    upload: network.upload,
    now: Date.now,
    elapsed: () => win.performance.now(),
    setTimeout: (callback, ms) => win.setTimeout(callback, ms),
    clearTimeout: (handle) => win.clearTimeout(handle as number),
    random: Math.random,
    isOnline: () => win.navigator.onLine !== false,
    onConnectivityChange: (listener) =>
      listen([win], ['online', 'offline'], (event) => listener(event.type === 'online')),
    onMessage(listener) {
      // react-native-webview dispatches host messages on `document` on Android and on
      // `window` on iOS; a bubbling event may pass both, so each event is handled once.
      const seen = new WeakSet<Event>();
      return listen([win, win.document], ['message'], (event) => {
        if (seen.has(event)) return;
        seen.add(event);
        listener(inboundMessage(event));
      });
    },
    pageOrigin: win.location.origin,
    scope: win as unknown as HostScope,
  };
}

/** A window or document `message` event as the bridge sees it. */
export function inboundMessage(event: Event): InboundMessage {
  const message = event as MessageEvent;
  return { data: message.data, origin: typeof message.origin === 'string' ? message.origin : '' };
}
