/**
 * Flutter: a webview_flutter `JavaScriptChannel`, `window.<flutterChannel>.postMessage(String)`;
 * its `onMessageReceived` gets `JavaScriptMessage.message`, a string. flutter_inappwebview has
 * no such object but `window.flutter_inappwebview.callHandler(name, ...args)`, created late.
 */
import type { HostScope } from '../../environment.js';
import { postMessageOf, toJsonString, type HostAdapter, type Poster } from '../channel.js';

export const flutterAdapter: HostAdapter = {
  encode: toJsonString,
  find: (scope, names) =>
    postMessageOf(scope[names.flutterChannel]) || inAppWebViewHandler(scope, names.flutterChannel),
};

function inAppWebViewHandler(scope: HostScope, name: string): Poster | undefined {
  // Object(x) is x for an object, and an empty object for undefined or null.
  const inApp = Object(scope['flutter_inappwebview']) as { callHandler?: unknown };
  const callHandler = inApp.callHandler;
  return typeof callHandler === 'function' ? (payload) => void callHandler.call(inApp, name, payload) : undefined;
}
