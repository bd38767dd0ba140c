/**
 * The one set of stand-ins for each platform's native channel, shared by the replay, the tests
 * (through the in-memory environment) and the demo page (built into dist/esm). Each stand-in is
 * put where that platform's adapter (bridge/outbound/adapters) looks, hands `receive` the
 * payload as that platform's native side gets it, and is checked against the adapter when
 * installed, so the stand-ins cannot drift from what the bridge really calls.
 *
 * Browser-safe on purpose (no node: imports): the demo page loads it as a module.
 */
import { adapters, DEFAULTS, type ChannelNames, type HostName, type HostScope } from '../../bridge/index.js';

/** Called with each payload a channel received, as its native side would get it. */
export type Receiver = (host: HostName, payload: unknown) => void;

type Install = (scope: HostScope, names: ChannelNames, receive: (payload: unknown) => void) => () => void;

/** `scope[name] = value` until the returned removal runs. */
function put(scope: HostScope, name: string, value: unknown): () => void {
  scope[name] = value;
  return () => void delete scope[name];
}

/** A `@JavascriptInterface` or JavaScriptChannel takes a string; anything else arrives converted. */
const stringChannel =
  (nameOf: (names: ChannelNames) => string): Install =>
  (scope, names, receive) =>
    put(scope, nameOf(names), { postMessage: (payload: unknown) => receive(String(payload)) });

const STAND_INS: Readonly<Record<HostName, Install>> = {
  // react-native-webview's postMessage takes a string too.
  'react-native': stringChannel(() => 'ReactNativeWebView'),
  android: stringChannel((names) => names.androidChannel),
  flutter: stringChannel((names) => names.flutterChannel),
  // WKScriptMessage.body is a copy of what was posted (the bridge's JSON text, or an object a
  // page script posts), not the page's value itself: a payload WebKit could not serialize throws
  // here as it would there.
  ios(scope, names, receive) {
    const webkit = (scope['webkit'] ??= { messageHandlers: {} }) as { messageHandlers: Record<string, unknown> };
    webkit.messageHandlers[names.iosHandler] = { postMessage: (payload: unknown) => receive(structuredClone(payload)) };
    return () => void delete webkit.messageHandlers[names.iosHandler];
  },
  // A page gets the CustomEvent's `detail` in its listener. A real window dispatches it itself;
  // a plain object scope gets an EventTarget's dispatchEvent and the CustomEvent class.
  browser(scope, names, receive) {
    const listener = (event: Event) => receive(structuredClone((event as CustomEvent).detail));
    const target = typeof scope['addEventListener'] === 'function' ? (scope as unknown as EventTarget) : undefined;
    if (target !== undefined) {
      target.addEventListener(names.browserEvent, listener);
      return () => target.removeEventListener(names.browserEvent, listener);
    }
    const events = new EventTarget();
    events.addEventListener(names.browserEvent, listener);
    const removals = [
      put(scope, 'CustomEvent', CustomEvent),
      put(scope, 'dispatchEvent', (event: Event) => events.dispatchEvent(event)),
    ];
    return () => removals.forEach((remove) => remove());
  },
};

/**
 * Installs the stand-ins of `hosts` in `scope` (a window, or a plain object for a Node run).
 * Returns their removal.
 */
export function installStandIns(
  scope: HostScope,
  hosts: readonly HostName[],
  receive: Receiver,
  names: ChannelNames = DEFAULTS,
): () => void {
  const removals = hosts.map((host) => {
    const remove = STAND_INS[host](scope, names, (payload) => receive(host, payload));
    if (adapters[host].find(scope, names) === undefined)
      throw new Error(`the ${host} stand-in is not where the ${host} adapter looks for its channel`);
    return remove;
  });
  return () => removals.forEach((remove) => remove());
}
