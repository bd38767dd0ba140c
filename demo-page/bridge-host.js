// @ts-check
/**
 * The page as the picked platform's native host: (re)installs the bridge behind that
 * platform's stand-in channel, on the bridge's public surface only (the `ChatBridge` global of
 * dist/chat-bridge.js), and sends host commands through the typed client.
 */
// @ts-expect-error -- a URL: the page server maps /dist/ to dist/; the types are host-adapters/client.ts.
import { createClient } from '/dist/esm/client.js';
import { backendSetting } from './backend-picker.js';
import { byId, input, messageOf, setStatus } from './dom.js';
import { PLATFORMS, decode } from './platform-forms.js';

const HOST_KEY = 'chat-bridge-demo:host';

/**
 * @typedef {import('./platform-forms.js').Host} Host
 * @typedef {import('./native-side.js').NativeSide} NativeSide
 * @typedef {import('./event-log.js').EventLog} EventLog
 */

/** The host picked last time, for the host select at page load. */
export const savedHost = () => localStorage.getItem(HOST_KEY);

/**
 * @param {{nativeSide: NativeSide, log: EventLog, watch?: import('./command-watch.js').CommandWatch}} deps
 * `watch` sees each command sent and each message received (the outbox and timeline panels).
 */
export function createBridgeHost({ nativeSide, log, watch }) {
  /** @type {Host} */
  let currentHost = 'react-native';
  /** @type {import('../host-adapters/client.js').ChatClient | undefined} */
  let client;
  let installs = 0;

  function installOptions() {
    return {
      baseUrl: input('base-url').value.trim(),
      // Always given, even empty: install() merges over the settings injected at first load.
      websiteToken: input('website-token').value.trim(),
      host: currentHost,
      ...backendSetting(),
    };
  }

  /**
   * A payload from the stand-in channel (one message, or an array of what one task delivered):
   * answers the client's calls its responses answer, and shows it.
   */
  function received(/** @type {Host} */ host, /** @type {unknown} */ payload) {
    const decoded = decode(payload);
    for (const message of Array.isArray(decoded) ? decoded : decoded === undefined ? [] : [decoded]) {
      client?.handle(/** @type {any} */ (message));
      watch?.received(message);
    }
    log.add({ at: Date.now(), host, dir: 'in', raw: payload });
  }

  /** The client's transport: JSON text handed to `ChatBridge.receive`, as native hosts do. */
  function sendToBridge(/** @type {{id: string, method: string, params?: any}} */ command) {
    const text = JSON.stringify(command);
    const shown = command.params?.attachments
      ? JSON.stringify({ ...command, params: abbreviate(command.params) })
      : text;
    const { label, sends } = PLATFORMS[currentHost];
    const who = sends ? `${label} side sent (${sends})` : 'The page sent';
    log.add({ at: Date.now(), host: currentHost, dir: 'out', who, text: `ChatBridge.receive('${shown}')` });
    watch?.sent(command);
    /** @type {any} */ (window).ChatBridge.receive(text);
  }

  const host = {
    /** The platform the bridge is installed for. */
    current: () => currentHost,

    /** Puts the installed bridge's version and options in the status line; nothing before install. */
    describeInstall() {
      const { baseUrl, websiteToken } = installOptions();
      const bridge = /** @type {any} */ (window).ChatBridge;
      if (bridge?.bridge === undefined) return;
      setStatus(
        `Bridge ${bridge.version} installed for ${PLATFORMS[currentHost].label} · baseUrl ${baseUrl} · websiteToken ${websiteToken === '' ? '(none)' : websiteToken}`,
        'ok',
      );
    },

    /** (Re)installs the bridge for the host, baseUrl and websiteToken in the header's form. */
    async install() {
      currentHost = /** @type {Host} */ (input('host').value);
      localStorage.setItem(HOST_KEY, currentHost);
      byId('platform-name').textContent = PLATFORMS[currentHost].label;
      // The tab says "Events" (its badge is error-notice.js's); whose, on hover.
      byId('platform-tab').title = `What ${PLATFORMS[currentHost].label} receives`;
      byId('platform-hint').textContent = PLATFORMS[currentHost].hint;
      const picked = currentHost;
      nativeSide.use(picked, (payload) => received(picked, payload));
      client?.close();
      watch?.reset();
      // Unique per page load: a message resent from a previous page's outbox answers its old id.
      const prefix = `${Math.random().toString(36).slice(2, 6)}-${++installs}.`;
      client = createClient({ send: sendToBridge }, prefix);
      const options = installOptions();
      try {
        const w = /** @type {any} */ (window);
        if (w.ChatBridge === undefined) await injectBundle(options);
        else w.ChatBridge.install(options);
        host.describeInstall();
      } catch (error) {
        setStatus(`Bridge not installed: ${messageOf(error)}`, 'error');
      }
    },

    /**
     * Sends one host command through the typed client; the answer shows in the platform column.
     * Resolves (never rejects) once it is answered.
     * @param {string} method
     * @param {object} [params]
     * @returns {Promise<void>}
     */
    async command(method, params) {
      // The outcome is already in the platform column; a rejection here is expected, not a page error.
      await client?.call(method, params).then(
        () => undefined,
        () => undefined,
      );
    },
  };
  return host;
}

/** @typedef {ReturnType<typeof createBridgeHost>} BridgeHost */

/** Loads dist/chat-bridge.js the way a native host injects it: settings first, then the bundle. */
function injectBundle(/** @type {object} */ settings) {
  /** @type {any} */ (window).chatBridgeSettings = settings;
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/dist/chat-bridge.js';
    script.onload = resolve;
    script.onerror = () =>
      reject(new Error('could not load /dist/chat-bridge.js: run "npm start" (it builds dist/ first)'));
    document.head.append(script);
  });
}

/** Base64 data shortened for display and storage: a 6 MB file would fill localStorage. */
function abbreviate(/** @type {any} */ params) {
  return {
    ...params,
    attachments: params.attachments.map((/** @type {any} */ file) =>
      typeof file.data === 'string' && file.data.length > 40
        ? { ...file, data: `<${file.data.length} base64 characters>` }
        : file,
    ),
  };
}
