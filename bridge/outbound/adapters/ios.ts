/**
 * iOS: `window.webkit.messageHandlers.<iosHandler>.postMessage(string)`. WKScriptMessage.body
 * would take an object too (as an NSDictionary), but the page's main thread pays for that
 * conversion: a frame's messages as an object cost WebKit about twice what the same JSON text
 * does (bench/README.md). So iOS gets JSON text, as every other app's channel does.
 */
import { postMessageOf, toJsonString, type HostAdapter } from '../channel.js';

export const iosAdapter: HostAdapter = {
  encode: toJsonString,
  // Object(x) is x for an object, and an empty object for undefined or null: a missing `webkit`
  // or `messageHandlers` reads as no handler.
  find: (scope, names) =>
    postMessageOf((Object(Object(scope['webkit']).messageHandlers) as Record<string, unknown>)[names.iosHandler]),
};
