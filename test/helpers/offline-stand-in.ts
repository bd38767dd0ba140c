/**
 * The offline switch both page harnesses (Chromium's browser-harness.ts, WebKit's
 * webkit-page-scripts.ts) put in their pages, as plain browser JavaScript text. With it on (kept
 * in sessionStorage, so it lasts through a reload), `fetch` and XMLHttpRequest uploads fail as a
 * network error would, each counted in `window.__offlineFetches`. The fragment defines
 * `setOffline(offline, announce)` in the enclosing script's scope for its `__harness`.
 *
 * @param fetchError the engine's own message for a failed fetch ("Failed to fetch", "Load failed")
 */
export const offlineStandInJs = (fetchError: string) => String.raw`
  var OFFLINE = 'harness:offline';
  var isOffline = function () { return sessionStorage.getItem(OFFLINE) === '1'; };
  var setOffline = function (offline, announce) {
    if (offline) sessionStorage.setItem(OFFLINE, '1');
    else sessionStorage.removeItem(OFFLINE);
    if (announce) dispatchEvent(new Event(offline ? 'offline' : 'online'));
  };
  window.__offlineFetches = 0;
  // Uploads go through XMLHttpRequest (for their progress): offline, it fails as a network error too.
  var realSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (!isOffline()) return realSend.call(this, body);
    window.__offlineFetches++;
    var xhr = this;
    setTimeout(function () { xhr.dispatchEvent(new ProgressEvent('error')); });
  };
  var onlineFetch = window.fetch;
  window.fetch = function (input, init) {
    if (!isOffline()) return onlineFetch.call(window, input, init);
    window.__offlineFetches++;
    return Promise.reject(new TypeError(${JSON.stringify(fetchError)}));
  };
`;
