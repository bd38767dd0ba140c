/**
 * Uploads through XMLHttpRequest, the one WebView API that reports upload progress
 * (`upload.onprogress`; fetch reports none), keeping what `http.ts` guarantees for fetch:
 *
 * - Headers: only those `http.ts` set (Content-Type, Authorization); the browser writes the
 *   multipart Content-Type with its boundary itself.
 * - Redirects: fetch is told `redirect: "error"`; XHR cannot be, and follows them on its own. A
 *   response from any other URL than the one asked (`responseURL`) is therefore refused as a
 *   network error, unread, like fetch's. What this cannot undo: the redirected request was made.
 *   Chromium 119+ and Firefox 111+ drop `Authorization` on a cross-origin redirect (Fetch
 *   standard, 2022), and the target must first admit it in a CORS preflight; an older WebView
 *   whose backend (the configured origin, which holds the token anyway) redirects an upload to
 *   an origin that admits it would send the token there. Text messages never take this path.
 * - Timeout and abort: `http.ts` races the request against its own timer and aborts `signal`,
 *   which aborts the XHR, so an upload that never settles still ends.
 */
import { apply, type Upload } from './environment.js';

/**
 * Takes XMLHttpRequest and the methods a request's headers pass through when called: the bundle
 * calls it at document start, before the page's scripts, so a script that wraps them later never
 * sees the `Authorization` header.
 */
export const xhrUpload = (win: Window & typeof globalThis): Upload => {
  const XHR = win.XMLHttpRequest;
  const { open, setRequestHeader, send } = Object(XHR && XHR.prototype) as XMLHttpRequest;
  return (url, request, onProgress) =>
    new Promise((resolve, reject) => {
      const xhr = new XHR();
      apply(open, xhr, [request.method, url]);
      for (const name in request.headers) apply(setRequestHeader, xhr, [name, request.headers[name]]);
      // A FormData body's length is known, so `total` always is (`lengthComputable`).
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
      xhr.onload = () =>
        xhr.responseURL === url
          ? resolve({
              status: xhr.status,
              headers: { get: (name) => xhr.getResponseHeader(name) },
              text: async () => xhr.responseText,
            })
          : reject();
      xhr.onerror = xhr.onabort = reject;
      // http.ts always passes a signal (its own, on which nothing else sets `onabort`) and a body.
      (request.signal as AbortSignal).onabort = () => xhr.abort();
      apply(send, xhr, [request.body]);
    });
};
