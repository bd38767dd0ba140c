// @ts-check
/**
 * Feeds the request timeline: wraps `window.fetch` and `window.XMLHttpRequest` (the bridge
 * uploads attachments through XHR, for its progress; both the offline switch's, so a request
 * refused offline is seen too) and listens for the window's `offline` / `online` events. Goes in
 * after the stand-ins and before the bridge is injected, like them.
 */

/**
 * @param {import('./timeline-model.js').Timeline} timeline
 * @param {(echoId: string | undefined) => string} laneOf the lane of a request: its message, else its command
 * @param {() => void} changed called after each change, for the view
 */
export function observeRequests(timeline, laneOf, changed) {
  const inner = window.fetch;
  window.fetch = async (resource, init) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    const method = init?.method ?? (resource instanceof Request ? resource.method : 'GET');
    const request = timeline.started({
      lane: laneOf(echoIdOf(init?.body)),
      method,
      path: new URL(url, window.location.href).pathname,
      at: Date.now(),
    });
    changed();
    try {
      const response = await inner(resource, init);
      // Readable only when the backend exposes it (the no-expose-retry-after fault hides it).
      const retryAfter = response.headers.get('retry-after');
      timeline.ended(request, { at: Date.now(), status: response.status, ...(retryAfter ? { retryAfter } : {}) });
      return response;
    } catch (error) {
      timeline.ended(request, { at: Date.now() });
      throw error;
    } finally {
      changed();
    }
  };
  observeXhr(timeline, laneOf, changed);
  for (const offline of [true, false]) {
    window.addEventListener(offline ? 'offline' : 'online', () => {
      timeline.network(offline, Date.now());
      changed();
    });
  }
}

/**
 * Each XHR as a request of the timeline, with its upload's progress. A subclass, so the bridge
 * uses it exactly as it uses the browser's own.
 * @param {import('./timeline-model.js').Timeline} timeline
 * @param {(echoId: string | undefined) => string} laneOf
 * @param {() => void} changed
 */
function observeXhr(timeline, laneOf, changed) {
  window.XMLHttpRequest = class extends window.XMLHttpRequest {
    #method = 'GET';
    #url = '';
    /** @override @param {string} method @param {string | URL} url @param {any[]} rest */
    open(method, url, ...rest) {
      this.#method = method;
      this.#url = String(url);
      // @ts-expect-error -- open's optional async, user and password pass through as given.
      super.open(method, url, ...rest);
    }
    /** @override @param {Document | XMLHttpRequestBodyInit | null} [body] */
    send(body) {
      const request = timeline.started({
        lane: laneOf(echoIdOf(body)),
        method: this.#method,
        path: new URL(this.#url, window.location.href).pathname,
        at: Date.now(),
      });
      this.upload.addEventListener('progress', (event) => {
        if (!event.lengthComputable) return;
        timeline.uploaded(request, { at: Date.now(), sentBytes: event.loaded, totalBytes: event.total });
        changed();
      });
      this.addEventListener('loadend', () => {
        // Status 0: no HTTP answer (offline, refused, aborted on the bridge's timeout).
        const retryAfter = this.status === 0 ? null : this.getResponseHeader('retry-after');
        timeline.ended(request, {
          at: Date.now(),
          ...(this.status === 0 ? {} : { status: this.status }),
          ...(retryAfter ? { retryAfter } : {}),
        });
        changed();
      });
      changed();
      super.send(body);
    }
  };
}

/**
 * The `echo_id` a message send carries: `{message: {echo_id}}` as JSON, or `message[echo_id]`
 * in the form of a send with attachments.
 * @param {unknown} body
 * @returns {string | undefined}
 */
export function echoIdOf(body) {
  if (body instanceof FormData) {
    const value = body.get('message[echo_id]');
    return typeof value === 'string' ? value : undefined;
  }
  if (typeof body !== 'string') return undefined;
  try {
    const echoId = JSON.parse(body)?.message?.echo_id;
    return typeof echoId === 'string' ? echoId : undefined;
  } catch {
    return undefined;
  }
}
