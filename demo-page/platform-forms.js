// @ts-check
/**
 * How each platform's native side shows a payload from the bridge: React Native's
 * `onEvent({...})`, Android's `ChatEvent.Error(code = ..., message = ...)`, iOS's
 * `.error(code:, message:)`, Flutter's `onError(...)`, the browser's `'chatbridge'` event.
 * The error forms are the contract's callback table; the other kinds are written in the same
 * style for illustration.
 */

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

/** @returns {string} */
function kotlin(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `listOf(${value.map(kotlin).join(', ')})`;
  if (typeof value === 'object' && value !== null) {
    return `mapOf(${Object.entries(value)
      .map(([key, v]) => `${JSON.stringify(key)} to ${kotlin(v)}`)
      .join(', ')})`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** @returns {string} */
function swift(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(swift).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0
      ? '[:]'
      : `[${entries.map(([key, v]) => `${JSON.stringify(key)}: ${swift(v)}`).join(', ')}]`;
  }
  return value === null ? 'nil' : (JSON.stringify(value) ?? 'nil');
}

/** @returns {string} */
function dart(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(dart).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, v]) => `${dart(key)}: ${dart(v)}`)
      .join(', ')}}`;
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
 * One message from the bridge in the receiving platform's own terms.
 * @param {Host} host
 * @param {Record<string, any>} m
 */
export function nativeForm(host, m) {
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
