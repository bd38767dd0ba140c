// @ts-check
/**
 * How each platform's native side shows a payload from the bridge: React Native's
 * `onEvent({...})`, Android's `ChatEvent.Error(code = ..., message = ...)`, iOS's
 * `.error(code:, message:)` (after `onError(ChatBridgeError(...))` when the error has more), Flutter's `onError(ChatError(...))`, the browser's `'chatbridge'`
 * event. Each form is code that compiles against the receivers in host-adapters/android, ios and flutter, with
 * the values the receiver would decode.
 */

import { BAD_MESSAGE, messageForm, timeLiteral } from './message-forms.js';
import { dart, dartString, kotlin, kotlinString, swift, swiftString } from './native-literals.js';

/** How each platform's native side gets messages, and sends commands. */
export const PLATFORMS = {
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
    hint: 'window.webkit.messageHandlers.chatBridge.postMessage(string) → WKScriptMessage.body → ChatEvent.decodeAll → ChatEvent cases.',
    sends: 'webView.evaluateJavaScript',
  },
  flutter: {
    label: 'Flutter',
    hint: 'window.ChatBridgeFlutter.postMessage(string), a JavaScriptChannel → onError / onReady / onResponse / onWidgetEvent / onMessageState.',
    sends: 'controller.runJavaScript',
  },
  browser: {
    label: 'the browser page',
    hint: "window.dispatchEvent(new CustomEvent('chatbridge', {detail: object})) → addEventListener('chatbridge', …).",
    sends: '',
  },
};
/** @typedef {keyof typeof PLATFORMS} Host */

/**
 * Whether a value (from the URL, or from storage) names a platform. Own keys only, so
 * `?host=toString` is not taken for one.
 * @param {unknown} value
 * @returns {value is Host}
 */
export const isHost = (value) => typeof value === 'string' && Object.hasOwn(PLATFORMS, value);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** JavaScript object literal, as a React Native or browser developer would write it. @returns {string} */
function js(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(js).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(
      ([key, v]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${js(v)}`,
    );
    return `{${fields.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * The error fields the receivers keep, as they decode them: `status` when it is an integer,
 * `errors` when it maps fields to lists of strings (others are dropped, not fatal), `retryable`
 * when it is `true` (false is the default), `retryAt` when it is a time a Date holds.
 * @param {Record<string, unknown>} error
 */
function errorFields(error) {
  /** @type {Array<[string, unknown]>} */
  const fields = [
    ['code', error['code']],
    ['message', error['message']],
  ];
  if (Number.isInteger(error['status'])) fields.push(['status', error['status']]);
  const errors = error['errors'];
  if (typeof errors === 'object' && errors !== null && !Array.isArray(errors)) {
    const kept = Object.entries(errors).filter(
      ([, problems]) => Array.isArray(problems) && problems.every((problem) => typeof problem === 'string'),
    );
    if (kept.length > 0) fields.push(['errors', Object.fromEntries(kept)]);
  }
  if (error['retryable'] === true) fields.push(['retryable', true]);
  if (timeLiteral('android', error['retryAt']) !== undefined) fields.push(['retryAt', error['retryAt']]);
  return fields;
}

/**
 * Named arguments of an error. Field errors are a plain string-list map in every language
 * (`Map<String, List<String>>`, `[String: [String]]`), so they are written without the casts
 * the generic JSON literals carry.
 * @param {Record<string, unknown>} error
 * @param {(value: unknown) => string} literal
 * @param {(value: string) => string} string
 * @param {string} separator ' = ' for Kotlin, ': ' for Swift and Dart
 * @param {{open: string, close: string, list: (items: string[]) => string, pair: string}} map
 * @param {'android' | 'ios' | 'flutter'} host
 */
function errorArgs(error, literal, string, separator, map, host) {
  return errorFields(error)
    .map(([name, value]) => {
      if (name === 'retryAt') return `${name}${separator}${timeLiteral(host, value)}`;
      if (name !== 'errors') return `${name}${separator}${literal(value)}`;
      const pairs = Object.entries(/** @type {Record<string, string[]>} */ (value)).map(
        ([field, problems]) => `${string(field)}${map.pair}${map.list(problems.map(string))}`,
      );
      return `errors${separator}${map.open}${pairs.join(', ')}${map.close}`;
    })
    .join(', ');
}

const KOTLIN_MAP = {
  open: 'mapOf(',
  close: ')',
  pair: ' to ',
  list: (/** @type {string[]} */ items) => `listOf(${items.join(', ')})`,
};
const SWIFT_MAP = {
  open: '[',
  close: ']',
  pair: ': ',
  list: (/** @type {string[]} */ items) => `[${items.join(', ')}]`,
};
const DART_MAP = {
  open: '{',
  close: '}',
  pair: ': ',
  list: (/** @type {string[]} */ items) => `[${items.join(', ')}]`,
};

const kotlinError = (/** @type {Record<string, unknown>} */ error) =>
  `ChatEvent.Error(${errorArgs(error, kotlin, kotlinString, ' = ', KOTLIN_MAP, 'android')})`;
const swiftError = (/** @type {Record<string, unknown>} */ error) =>
  errorArgs(error, swift, swiftString, ': ', SWIFT_MAP, 'ios');
const dartError = (/** @type {Record<string, unknown>} */ error) =>
  `ChatError(${errorArgs(error, dart, dartString, ': ', DART_MAP, 'flutter')})`;

/**
 * Swift's `.error` event holds code and message only (the seed's `case .error(let code, let
 * message)`); the rest reaches the receiver's `onError` as a `ChatBridgeError`, just before.
 * @param {Record<string, unknown>} error
 */
function swiftErrorEvent(error) {
  const event = `.error(${swiftError({ code: error['code'], message: error['message'] })})`;
  return errorFields(error).length > 2 ? `onError(ChatBridgeError(${swiftError(error)})), then ${event}` : event;
}

/** What the receivers make of a message type they do not know: a parse_error, as their decode says. */
const unknownType = (/** @type {unknown} */ type) => ({
  code: 'parse_error',
  message:
    typeof type === 'string'
      ? `[chat-bridge] unknown message type "${type}"`
      : '[chat-bridge] the payload has no string "type"',
});

/**
 * One message from the bridge in the receiving platform's own terms: valid code for the
 * receivers' real types (host-adapters/android, ios, flutter: Kotlin `ChatEvent`, Swift `ChatEvent` with
 * `ChatBridgeError`, Dart `ChatBridgeReceiver` callbacks).
 * @param {Host} host
 * @param {Record<string, any>} m
 */
export function nativeForm(host, m) {
  const known = ['ready', 'error', 'response', 'widget', 'message'].includes(m['type']);
  switch (host) {
    case 'react-native':
      return `onEvent(${js(m)})`;
    case 'browser':
      return `'chatbridge' event, detail = ${js(m)}`;
    case 'android':
      if (!known) return kotlinError(unknownType(m['type']));
      if (m['type'] === 'message') return messageForm(host, m, kotlinError) ?? kotlinError(BAD_MESSAGE);
      if (m['type'] === 'error') return kotlinError(m);
      if (m['type'] === 'ready') return 'ChatEvent.Ready';
      if (m['type'] === 'widget')
        return `ChatEvent.Widget(event = ${kotlin(m['event'])}, data = ${kotlin(m['data'] ?? {})})`;
      return m['ok']
        ? `ChatEvent.Response(id = ${kotlin(m['id'])}, ok = true, result = ${kotlin(m['result'])})`
        : `ChatEvent.Response(id = ${kotlin(m['id'])}, ok = false, error = ${kotlinError(m['error'] ?? {})})`;
    case 'ios':
      if (!known) return swiftErrorEvent(unknownType(m['type']));
      if (m['type'] === 'message')
        return messageForm(host, m, (e) => `ChatBridgeError(${swiftError(e)})`) ?? swiftErrorEvent(BAD_MESSAGE);
      if (m['type'] === 'error') return swiftErrorEvent(m);
      if (m['type'] === 'ready') return '.ready';
      if (m['type'] === 'widget') return `.widget(event: ${swift(m['event'])}, data: ${swift(m['data'] ?? {})})`;
      return m['ok']
        ? `.response(id: ${swift(m['id'])}, result: .success(${m['result'] === null || m['result'] === undefined ? 'nil' : swift(m['result'])}))`
        : `.response(id: ${swift(m['id'])}, result: .failure(ChatBridgeError(${swiftError(m['error'] ?? {})})))`;
    case 'flutter':
      if (!known) return `onError(${dartError(unknownType(m['type']))})`;
      if (m['type'] === 'message') return messageForm(host, m, dartError) ?? `onError(${dartError(BAD_MESSAGE)})`;
      if (m['type'] === 'error') return `onError(${dartError(m)})`;
      if (m['type'] === 'ready') return 'onReady()';
      if (m['type'] === 'widget')
        return `onWidgetEvent(ChatWidgetEvent(event: ${dart(m['event'])}, data: ${dart(m['data'] ?? {})}))`;
      return m['ok']
        ? `onResponse(ChatResponse(id: ${dart(m['id'])}, ok: true, result: ${dart(m['result'])}))`
        : `onResponse(ChatResponse(id: ${dart(m['id'])}, ok: false, error: ${dartError(m['error'] ?? {})}))`;
  }
}

/**
 * What the native side parses the payload into: JSON text is parsed, an object is taken as
 * is; undefined when it is not a message at all.
 * @param {unknown} payload
 * @returns {Record<string, any> | undefined}
 */
export function decode(payload) {
  if (typeof payload !== 'string') return typeof payload === 'object' && payload !== null ? payload : undefined;
  try {
    const value = JSON.parse(payload);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
