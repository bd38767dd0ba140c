/**
 * iOS: `window.webkit.messageHandlers.<iosHandler>.postMessage(object)`. WKScriptMessage.body
 * receives a JavaScript object as an NSDictionary, so the message goes as an object, not text.
 */
import { postMessageOf, type HostAdapter } from '../channel.js';

export const iosAdapter: HostAdapter = {
  encode: (message) => message,
  // Object(x) is x for an object, and an empty object for undefined or null: a missing `webkit`
  // or `messageHandlers` reads as no handler.
  find: (scope, names) =>
    postMessageOf((Object(Object(scope['webkit']).messageHandlers) as Record<string, unknown>)[names.iosHandler]),
};
