// @ts-check
/**
 * The demo page: plays each native host around the injected bridge, on the bridge's public
 * surface only (the `ChatBridge` global of dist/chat-bridge.js and the typed client).
 *
 * For the host picked, the page installs a stand-in for that platform's native channel, then
 * (re)installs the bridge, so what the stand-in gets is exactly what the native side would:
 * a JSON string (React Native, Android, Flutter) or an object (iOS, browser). Each payload is
 * shown raw and in the platform's own terms, next to the backend's log of the requests the
 * bridge made. Nothing received is ever inserted as HTML: the DOM is built with text nodes.
 */
// @ts-ignore -- a URL: the page server maps /dist/ to dist/; the types are host-adapters/client.ts.
import { createClient } from '/dist/esm/client.js';

const EVENTS_KEY = 'chat-bridge-demo:events';
const HOST_KEY = 'chat-bridge-demo:host';
const KEEP_EVENTS = 50;
const POLL_MS = 500;

/** How each platform's native side gets messages, and sends commands. */
const PLATFORMS = {
  'react-native': {
    label: 'React Native',
    hint: 'window.ReactNativeWebView.postMessage(string) → <WebView onMessage> → JSON.parse → onEvent(event).',
    sends: 'webView.injectJavaScript',
  },
  android: {
    label: 'Android',
    hint: 'window.ChatBridgeAndroid.postMessage(string), a @JavascriptInterface → decoded into ChatEvent.',
    sends: 'webView.evaluateJavascript',
  },
  ios: {
    label: 'iOS',
    hint: 'window.webkit.messageHandlers.chatBridge.postMessage(object) → WKScriptMessage.body → a ChatEvent case.',
    sends: 'webView.evaluateJavaScript',
  },
  flutter: {
    label: 'Flutter',
    hint: 'window.ChatBridgeFlutter.postMessage(string), a JavaScriptChannel → onError / onReady / onResponse / onWidgetEvent.',
    sends: 'controller.runJavaScript',
  },
  browser: {
    label: 'the browser page',
    hint: "window.dispatchEvent(new CustomEvent('chatbridge', {detail: object})) → addEventListener('chatbridge', …).",
    sends: '',
  },
};
/** @typedef {keyof typeof PLATFORMS} Host */

/** What each fault leads to, shown next to its switch. */
const FAULT_EFFECTS = {
  'rotated-website-token': 'auth_failed on init',
  'expired-auth-token': 'recovered: config fetched again',
  'always-401': 'auth_failed on conversation / message',
  'no-conversation': 'recovered: conversation created',
  'validation-422': 'validation_error on create / send',
  'rate-limited': 'rate_limited after ~4 s of retries',
  'rate-limited-no-retry-after': 'rate_limited after ~15 s of retries',
  'server-error': 'server_error',
  'config-empty': 'config_error on init',
  'config-malformed': 'config_error on init',
  'config-no-token': 'config_error on init',
  hang: 'network_error after 15 s',
  'no-cors': 'network_error',
  'no-expose-retry-after': '429 retries cannot read Retry-After',
  'payload-too-large': 'file_too_large on send',
};

// ---------------------------------------------------------------- DOM helpers (text only)

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (byId(id));

/**
 * An element whose children are elements or text; strings become text nodes, never markup.
 * @param {string} tag
 * @param {string} [className]
 * @param {...(Node | string)} children
 */
function el(tag, className, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children);
  return element;
}

/** @param {string} text @param {'ok' | 'error' | 'info'} [kind] */
function setStatus(text, kind = 'info') {
  const status = byId('status');
  status.textContent = text;
  status.dataset['kind'] = kind;
}

// ---------------------------------------------------------------- native forms

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** JavaScript object literal, as a React Native or browser developer would write it. @returns {string} */
function js(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(js).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([key, v]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${js(v)}`);
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** @returns {string} */
function kotlin(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `listOf(${value.map(kotlin).join(', ')})`;
  if (typeof value === 'object' && value !== null) {
    return `mapOf(${Object.entries(value).map(([key, v]) => `${JSON.stringify(key)} to ${kotlin(v)}`).join(', ')})`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** @returns {string} */
function swift(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(swift).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? '[:]' : `[${entries.map(([key, v]) => `${JSON.stringify(key)}: ${swift(v)}`).join(', ')}]`;
  }
  return value === null ? 'nil' : (JSON.stringify(value) ?? 'nil');
}

/** @returns {string} */
function dart(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(dart).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([key, v]) => `${dart(key)}: ${dart(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') return `'${value.replace(/[\\'$]/g, '\\$&').replace(/\n/g, '\\n')}'`;
  return value === null ? 'null' : String(value);
}

/**
 * Named arguments of an error, in the order the contract gives them.
 * @param {Record<string, unknown>} error
 * @param {(value: unknown) => string} literal
 * @param {string} separator ' = ' for Kotlin, ': ' for Swift and Dart
 */
function errorArgs(error, literal, separator) {
  return ['code', 'message', 'status', 'errors']
    .filter((name) => error[name] !== undefined)
    .map((name) => `${name}${separator}${literal(error[name])}`)
    .join(', ');
}

/**
 * One message from the bridge in the receiving platform's own terms. The error forms are the
 * contract's callback table; the other kinds are written in the same style for illustration.
 * @param {Host} host
 * @param {Record<string, any>} m
 */
function nativeForm(host, m) {
  switch (host) {
    case 'react-native':
      return `onEvent(${js(m)})`;
    case 'browser':
      return `'chatbridge' event, detail = ${js(m)}`;
    case 'android':
      if (m['type'] === 'error') return `ChatEvent.Error(${errorArgs(m, kotlin, ' = ')})`;
      if (m['type'] === 'ready') return 'ChatEvent.Ready';
      if (m['type'] === 'widget') return `ChatEvent.Widget(event = ${kotlin(m['event'])}, data = ${kotlin(m['data'])})`;
      if (m['type'] === 'response') {
        return m['ok']
          ? `ChatEvent.Response(id = ${kotlin(m['id'])}, result = ${kotlin(m['result'])})`
          : `ChatEvent.Response(id = ${kotlin(m['id'])}, error = ChatEvent.Error(${errorArgs(m['error'] ?? {}, kotlin, ' = ')}))`;
      }
      return `ChatEvent.Unknown(${kotlin(m)})`;
    case 'ios':
      if (m['type'] === 'error') return `.error(${errorArgs(m, swift, ': ')})`;
      if (m['type'] === 'ready') return '.ready';
      if (m['type'] === 'widget') return `.widget(event: ${swift(m['event'])}, data: ${swift(m['data'])})`;
      if (m['type'] === 'response') {
        return m['ok']
          ? `.response(id: ${swift(m['id'])}, result: .success(${swift(m['result'])}))`
          : `.response(id: ${swift(m['id'])}, result: .failure(.error(${errorArgs(m['error'] ?? {}, swift, ': ')})))`;
      }
      return `.unknown(${swift(m)})`;
    case 'flutter':
      if (m['type'] === 'error') return `onError(${errorArgs(m, dart, ': ')})`;
      if (m['type'] === 'ready') return 'onReady()';
      if (m['type'] === 'widget') return `onWidgetEvent(event: ${dart(m['event'])}, data: ${dart(m['data'])})`;
      if (m['type'] === 'response') {
        return m['ok']
          ? `onResponse(id: ${dart(m['id'])}, result: ${dart(m['result'])})`
          : `onResponse(id: ${dart(m['id'])}, error: ${dart(m['error'])})`;
      }
      return `onUnknown(${dart(m)})`;
  }
}

/** What the native side parses the payload into; undefined when it is not a message at all. */
function decode(/** @type {unknown} */ payload) {
  if (typeof payload !== 'string') return typeof payload === 'object' && payload !== null ? payload : undefined;
  try {
    const value = JSON.parse(payload);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- the event log (kept across reloads)

/**
 * @typedef {{at: number, host: Host, dir: 'in', raw: unknown} | {at: number, host: Host, dir: 'out', text: string, who: string}} LogEntry
 * `in`: a payload the platform received, as its channel got it. `out`: what the host (or the
 * widget) sent, for context.
 */

/** @returns {LogEntry[]} */
function loadEvents() {
  try {
    const parsed = JSON.parse(localStorage.getItem(EVENTS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((entry) => entry && entry.host in PLATFORMS) : [];
  } catch {
    return [];
  }
}

/** @type {LogEntry[]} */
const events = loadEvents();

function saveEvents() {
  try {
    localStorage.setItem(EVENTS_KEY, JSON.stringify(events));
  } catch {
    // Storage full or blocked: the log still works for this page.
  }
}

/** @param {LogEntry} entry @param {boolean} earlier shown from before the last reload */
function eventItem(entry, earlier) {
  const time = new Date(entry.at).toLocaleTimeString();
  const label = PLATFORMS[entry.host].label;
  if (entry.dir === 'out') {
    return el('li', 'event sent', el('div', 'meta', `${time} · ${entry.who}${earlier ? ' · before reload' : ''}`), el('code', 'native', entry.text));
  }
  const message = /** @type {Record<string, any> | undefined} */ (decode(entry.raw));
  // The error event is what hosts act on; a failed command's response repeats it, so it is quieter.
  const tone = message?.['type'] === 'error' ? ' error' : message?.['type'] === 'response' && message['ok'] === false ? ' failed' : '';
  const kind = typeof entry.raw === 'string' ? 'postMessage(string)' : entry.host === 'browser' ? 'event.detail (object)' : 'postMessage(object)';
  return el(
    'li',
    `event received${tone}`,
    el('div', 'meta', `${time} · ${label} received${earlier ? ' · before reload' : ''}`),
    el('code', 'native', message === undefined ? `(not a bridge message)` : nativeForm(entry.host, message)),
    el('div', 'raw', el('span', 'raw-kind', `raw ${kind}: `), el('code', '', typeof entry.raw === 'string' ? entry.raw : JSON.stringify(entry.raw))),
  );
}

/** @param {LogEntry} entry */
function addEvent(entry) {
  events.push(entry);
  events.splice(0, Math.max(0, events.length - KEEP_EVENTS));
  saveEvents();
  const list = byId('events');
  list.prepend(eventItem(entry, false));
  while (list.children.length > KEEP_EVENTS) list.lastElementChild?.remove();
}

// ---------------------------------------------------------------- stand-in native channels

/** @type {Host} */
let currentHost = 'react-native';

/** @param {Host} host @param {unknown} payload */
function received(host, payload) {
  const message = decode(payload);
  if (message !== undefined) client?.handle(/** @type {any} */ (message));
  addEvent({ at: Date.now(), host, dir: 'in', raw: payload });
}

/** Only the picked platform's channel exists, as in a real WebView. */
function installStandIn(/** @type {Host} */ host) {
  const w = /** @type {any} */ (window);
  delete w.ReactNativeWebView;
  delete w.ChatBridgeAndroid;
  delete w.ChatBridgeFlutter;
  delete w.webkit;
  if (host === 'react-native') w.ReactNativeWebView = { postMessage: (/** @type {unknown} */ s) => received(host, s) };
  // A @JavascriptInterface or JavaScriptChannel takes a string; anything else arrives converted.
  if (host === 'android') w.ChatBridgeAndroid = { postMessage: (/** @type {unknown} */ s) => received(host, String(s)) };
  if (host === 'flutter') w.ChatBridgeFlutter = { postMessage: (/** @type {unknown} */ s) => received(host, String(s)) };
  // WKScriptMessage.body is a copy of the object, not the page's object itself.
  if (host === 'ios') w.webkit = { messageHandlers: { chatBridge: { postMessage: (/** @type {unknown} */ o) => received(host, structuredClone(o)) } } };
}

window.addEventListener('chatbridge', (event) => {
  if (currentHost === 'browser') received('browser', structuredClone(/** @type {CustomEvent} */ (event).detail));
});

// ---------------------------------------------------------------- offline switch

// The page's own admin calls use the real fetch; the bridge (and anything else) gets the switch.
const realFetch = window.fetch.bind(window);
let offline = false;
window.fetch = (resource, init) => (offline ? Promise.reject(new TypeError('Failed to fetch')) : realFetch(resource, init));

// ---------------------------------------------------------------- the bridge and the client

/** @type {import('../host-adapters/client.js').ChatClient | undefined} */
let client;
let installs = 0;
let backendUrl = '';

function installOptions() {
  return {
    baseUrl: input('base-url').value.trim(),
    // Always given, even empty: install() merges over the settings injected at first load.
    websiteToken: input('website-token').value.trim(),
    host: currentHost,
  };
}

function describeInstall() {
  const { baseUrl, websiteToken } = installOptions();
  const bridge = /** @type {any} */ (window).ChatBridge;
  if (bridge?.bridge === undefined) return;
  setStatus(
    `Bridge ${bridge.version} installed for ${PLATFORMS[currentHost].label} · baseUrl ${baseUrl} · websiteToken ${websiteToken === '' ? '(none)' : websiteToken}`,
    'ok',
  );
}

/** Loads dist/chat-bridge.js the way a native host injects it: settings first, then the bundle. */
function injectBundle(/** @type {object} */ settings) {
  /** @type {any} */ (window).chatBridgeSettings = settings;
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/dist/chat-bridge.js';
    script.onload = resolve;
    script.onerror = () => reject(new Error('could not load /dist/chat-bridge.js: run "npm start" (it builds dist/ first)'));
    document.head.append(script);
  });
}

async function installBridge() {
  currentHost = /** @type {Host} */ (input('host').value);
  localStorage.setItem(HOST_KEY, currentHost);
  byId('platform-name').textContent = PLATFORMS[currentHost].label;
  byId('platform-hint').textContent = PLATFORMS[currentHost].hint;
  installStandIn(currentHost);
  client?.close();
  // Unique per page load: a message resent from a previous page's outbox answers its old id.
  const prefix = `${Math.random().toString(36).slice(2, 6)}-${++installs}.`;
  client = createClient({ send: sendToBridge }, prefix);
  const options = installOptions();
  try {
    const w = /** @type {any} */ (window);
    if (w.ChatBridge === undefined) await injectBundle(options);
    else w.ChatBridge.install(options);
    describeInstall();
  } catch (error) {
    setStatus(`Bridge not installed: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
}

/** The client's transport: JSON text handed to `ChatBridge.receive`, as native hosts do. */
function sendToBridge(/** @type {{id: string, method: string, params?: any}} */ command) {
  const text = JSON.stringify(command);
  const shown = command.params?.attachments ? JSON.stringify({ ...command, params: abbreviate(command.params) }) : text;
  const { label, sends } = PLATFORMS[currentHost];
  const who = sends ? `${label} side sent (${sends})` : 'The page sent';
  addEvent({ at: Date.now(), host: currentHost, dir: 'out', who, text: `ChatBridge.receive('${shown}')` });
  /** @type {any} */ (window).ChatBridge.receive(text);
}

/**
 * Sends one host command through the typed client; the answer shows in the platform column.
 * @param {string} method
 * @param {object} [params]
 */
function command(method, params) {
  // The outcome is already in the platform column; a rejection here is expected, not a page error.
  client?.call(method, params).catch(() => undefined);
}

/** Base64 data shortened for display and storage: a 6 MB file would fill localStorage. */
function abbreviate(/** @type {any} */ params) {
  return {
    ...params,
    attachments: params.attachments.map((/** @type {any} */ file) =>
      typeof file.data === 'string' && file.data.length > 40 ? { ...file, data: `<${file.data.length} base64 characters>` } : file,
    ),
  };
}

function contact() {
  /** @type {Record<string, string>} */
  const fields = {};
  for (const name of ['name', 'email', 'identifier']) {
    const value = input(`contact-${name}`).value;
    if (value !== '') fields[name] = value;
  }
  return fields;
}

// ---------------------------------------------------------------- files

function base64(/** @type {Uint8Array} */ bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const generated = (/** @type {string} */ name, /** @type {string} */ type, /** @type {Uint8Array} */ bytes) => ({ name, type, data: base64(bytes) });
const text = (/** @type {string} */ s) => new TextEncoder().encode(s);

/** @param {File} file */
function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ name: file.name, type: file.type || 'application/octet-stream', data: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

async function sendFromForm() {
  const files = [...(input('message-files').files ?? [])];
  const attachments = await Promise.all(files.map(readFile));
  const content = /** @type {HTMLTextAreaElement} */ (byId('message-text')).value;
  command('sendMessage', { content, ...(attachments.length > 0 ? { attachments } : {}), ...contact() });
}

// ---------------------------------------------------------------- backend admin: faults and the request log

/** @param {string} path @param {RequestInit} [init] */
async function admin(path, init) {
  const response = await realFetch(`${backendUrl}/__admin/${path}`, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} /__admin/${path} answered ${response.status}`);
  return response.status === 204 ? undefined : response.json();
}

/** @param {{name: string, on: boolean, description: string}[]} faults */
function renderFaults(faults) {
  const list = byId('faults');
  list.replaceChildren(
    ...faults.map((fault) => {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = `fault-${fault.name}`;
      box.checked = fault.on;
      box.addEventListener('change', () => {
        admin('faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: fault.name, on: box.checked }) })
          .then(renderFaults)
          .catch((error) => {
            box.checked = !box.checked;
            setStatus(`Could not switch ${fault.name}: ${error.message}`, 'error');
          });
      });
      const label = /** @type {HTMLLabelElement} */ (el('label', '', box, el('code', 'fault-name', fault.name)));
      label.htmlFor = box.id;
      const effect = /** @type {Record<string, string>} */ (FAULT_EFFECTS)[fault.name];
      return el('li', fault.on ? 'fault on' : 'fault', label, el('div', 'description', effect ? el('span', 'effect', `→ ${effect}. `) : '', fault.description));
    }),
  );
}

let requestSignature = '';
let backendDown = false;

/** @param {{method: string, path: string, query: Record<string, string>, headers: Record<string, string>, status: number | null}} entry */
function requestItem(entry) {
  const query = new URLSearchParams(entry.query).toString();
  const preflight = entry.method === 'OPTIONS';
  const statusClass = entry.status === null ? 'pending' : `s${String(entry.status)[0]}xx`;
  const shown = ['origin', 'authorization', 'content-type', 'access-control-request-method', 'access-control-request-headers']
    .filter((name) => entry.headers[name] !== undefined)
    .map((name) => `${name}: ${entry.headers[name]}`);
  const details = el('details', '', el('summary', '', 'all request headers'), el('pre', '', JSON.stringify(entry.headers, null, 2)));
  return el(
    'li',
    `request ${statusClass}${preflight ? ' preflight' : ''}`,
    el(
      'div',
      'line',
      el('b', 'method', entry.method),
      ' ',
      el('span', 'path', `${entry.path}${query ? `?${decodeURIComponent(query)}` : ''}`),
      ' ',
      el('span', 'status-code', entry.status === null ? 'no answer yet' : String(entry.status)),
      preflight ? el('span', 'tag', 'CORS preflight') : '',
    ),
    el('div', 'headers', shown.join(' · ')),
    details,
  );
}

async function pollRequests() {
  try {
    /** @type {any[]} */
    const log = await admin('requests');
    if (backendDown) {
      backendDown = false;
      describeInstall();
    }
    const recent = log.slice(-100);
    const signature = `${log.length}:${recent.map((entry) => entry.status).join(',')}`;
    if (signature === requestSignature) return;
    requestSignature = signature;
    byId('requests').replaceChildren(...recent.reverse().map(requestItem));
  } catch {
    if (!backendDown) setStatus(`The reference backend at ${backendUrl} does not answer: is "npm start" still running?`, 'error');
    backendDown = true;
  }
}

async function pollForever() {
  await pollRequests();
  setTimeout(pollForever, POLL_MS);
}

// ---------------------------------------------------------------- wiring

/** @param {string} id @param {() => unknown} action */
function onClick(id, action) {
  byId(id).addEventListener('click', () => {
    Promise.resolve()
      .then(action)
      .catch((error) => setStatus(error instanceof Error ? error.message : String(error), 'error'));
  });
}

function postAsWidget(/** @type {string} */ data) {
  addEvent({ at: Date.now(), host: currentHost, dir: 'out', who: 'The chat widget posted', text: `window.postMessage(${JSON.stringify(data)})` });
  window.postMessage(data, window.location.origin);
}

function wire() {
  byId('config').addEventListener('submit', (event) => {
    event.preventDefault();
    void installBridge();
  });
  input('host').addEventListener('change', () => void installBridge());
  onClick('base-url-default', () => {
    input('base-url').value = backendUrl;
    return installBridge();
  });

  onClick('cmd-init', () => command('init'));
  onClick('cmd-get-conversation', () => command('getConversation', contact()));
  onClick('cmd-create-conversation', () => command('createConversation', contact()));
  onClick('cmd-send', sendFromForm);

  onClick('try-parse-error', () => postAsWidget('chatwoot-widget:{bad'));
  onClick('try-widget-error', () => postAsWidget('chatwoot-widget:{"event":"error"}'));
  onClick('try-widget-loaded', () => postAsWidget('chatwoot-widget:{"event":"loaded","locale":"en"}'));
  onClick('try-empty-message', () => command('sendMessage', { content: '' }));
  onClick('try-too-many-files', () =>
    command('sendMessage', { content: 'six files', attachments: [1, 2, 3, 4, 5, 6].map((n) => generated(`note-${n}.txt`, 'text/plain', text(`note ${n}\n`))) }),
  );
  onClick('try-unsupported-type', () =>
    command('sendMessage', { content: 'a zip', attachments: [generated('archive.zip', 'application/zip', new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]))] }),
  );
  onClick('try-file-too-large', () =>
    command('sendMessage', { content: 'a large photo', attachments: [generated('photo.jpg', 'image/jpeg', new Uint8Array(6 * 1024 * 1024))] }),
  );
  onClick('try-invalid-email', () => command('sendMessage', { content: 'hello', email: 'not-an-email' }));
  onClick('try-wrong-path', async () => {
    input('base-url').value = `${backendUrl}/no-such-api`;
    await installBridge();
    command('init');
  });
  onClick('try-unknown-method', () => command('deleteEverything'));

  input('offline').addEventListener('change', () => {
    offline = input('offline').checked;
    window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
    document.body.classList.toggle('is-offline', offline);
  });

  onClick('reset-backend', async () => {
    await admin('reset', { method: 'POST' });
    renderFaults(await admin('faults'));
  });
  onClick('clear-requests', () => admin('requests', { method: 'DELETE' }).then(pollRequests));
  onClick('clear-events', () => {
    events.length = 0;
    saveEvents();
    byId('events').replaceChildren();
  });
}

/** The backend's URL: `?backend=` as printed by `npm start`, else the server's /demo-config.json. */
async function findBackend() {
  const fromQuery = new URLSearchParams(window.location.search).get('backend');
  if (fromQuery) return fromQuery.replace(/\/+$/, '');
  const response = await realFetch('/demo-config.json');
  if (!response.ok) throw new Error('no ?backend= in the URL and no /demo-config.json: open the URL "npm start" printed');
  return String((await response.json()).backendUrl);
}

async function main() {
  byId('events').replaceChildren(...events.map((entry) => eventItem(entry, true)).reverse());
  const savedHost = new URLSearchParams(window.location.search).get('host') ?? localStorage.getItem(HOST_KEY);
  if (savedHost !== null && savedHost in PLATFORMS) input('host').value = savedHost;
  wire();
  try {
    backendUrl = await findBackend();
  } catch (error) {
    setStatus(error instanceof Error ? error.message : String(error), 'error');
    return;
  }
  input('base-url').value = backendUrl;
  await installBridge();
  try {
    renderFaults(await admin('faults'));
  } catch {
    setStatus(`The reference backend at ${backendUrl} does not answer: is "npm start" still running?`, 'error');
  }
  void pollForever();
}

void main();
