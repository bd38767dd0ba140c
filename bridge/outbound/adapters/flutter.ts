/**
 * Flutter: a webview_flutter `JavaScriptChannel`, `window.<flutterChannel>.postMessage(String)`;
 * its `onMessageReceived` gets `JavaScriptMessage.message`, a string. flutter_inappwebview has
 * no such object but `window.flutter_inappwebview.callHandler(name, ...args)`, created late.
 */
import type { HostScope } from '../../environment.js';
import { postMessageOf, toJsonString, type HostAdapter, type Poster } from '../channel.js';

export const flutterAdapter: HostAdapter = {
  host: 'flutter',
  encode: toJsonString,
  find: (scope, names) =>
    postMessageOf(scope[names.flutterChannel]) || inAppWebViewHandler(scope, names.flutterChannel),
};

function inAppWebViewHandler(scope: HostScope, name: string): Poster | undefined {
  const inApp = scope['flutter_inappwebview'] as { callHandler?: unknown } | undefined;
  if (typeof inApp !== 'object' || inApp === null || typeof inApp.callHandler !== 'function') return undefined;
  const callHandler = inApp.callHandler as (name: string, payload: unknown) => unknown;
  return (payload) => void callHandler.call(inApp, name, payload);
}
