/**
 * An Environment for the Node figures: a stand-in window with the Android channel (so every
 * outbound message is serialized to a string, as on a JavascriptInterface), in-memory storage,
 * real timers, and a fetch that answers from memory at once. `answer` decides each request's
 * fate, so the memory figure can make some requests fail and some never answer.
 */
import { PAGE_ORIGIN } from './workload.mjs';

const CONVERSATION = JSON.stringify({
  id: 42,
  status: 'open',
  contact: { name: 'Ada Lovelace', email: 'ada@example.com' },
  messages: [],
});
const CONFIG = (token) =>
  JSON.stringify({ authToken: token, widget: { name: 'Bench inbox', color: '#1f93ff', locale: 'en' } });

/** @typedef {'ok' | 'fail' | 'hang'} Fate */

/**
 * @param {{ answer?: (url: string, method: string) => Fate, freshTokens?: boolean }} [settings]
 *   answer: per request, 'ok' (2xx body), 'fail' (500) or 'hang' (never answers; rejects when aborted).
 *   freshTokens: a new auth token on every GET /config, as the reference backend does.
 */
export function createFakeEnvironment({ answer = () => 'ok', freshTokens = false } = {}) {
  let delivered = 0;
  let configs = 0;
  const storage = new Map();
  const headers = { get: () => null };
  const reply = (status, body) => Promise.resolve({ status, headers, text: () => Promise.resolve(body) });

  const env = {
    fetch(url, request) {
      const fate = answer(url, request.method);
      if (fate === 'hang') {
        return new Promise((_, reject) => {
          const signal = request.signal;
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
        });
      }
      if (fate === 'fail') return reply(500, '{"error":"Internal server error"}');
      const path = new URL(url).pathname;
      if (path.endsWith('/config'))
        return reply(
          200,
          CONFIG(freshTokens ? `auth_bench_token_${configs++}` : (configs++, 'auth_bench_token_fixed')),
        );
      if (path.endsWith('/messages')) {
        const sent = JSON.parse(/** @type {string} */ (request.body));
        return reply(
          200,
          JSON.stringify({
            id: delivered,
            content: sent.message.content,
            echo_id: sent.message.echo_id,
            message_type: 0,
            created_at: 1760000000,
            attachments: [],
          }),
        );
      }
      return reply(200, CONVERSATION);
    },
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle),
    random: Math.random,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    isOnline: () => true,
    onConnectivityChange: () => () => undefined,
    onMessage(listener) {
      post = listener;
      return () => {
        post = () => undefined;
      };
    },
    pageOrigin: PAGE_ORIGIN,
    scope: {
      ChatBridgeAndroid: {
        postMessage: (/** @type {string} */ payload) => void (delivered += typeof payload === 'string' ? 1 : NaN),
      },
    },
  };
  /** @type {(message: { data: unknown, origin: string }) => void} */
  let post = () => undefined;
  return {
    env,
    /** Posts a window `message` event to the bridge's listener. */
    post: (data, origin) => post({ data, origin }),
    /** Payloads the Android channel received (NaN if one was not a string). */
    delivered: () => delivered,
    /** GET /config requests answered. */
    configs: () => configs,
  };
}
