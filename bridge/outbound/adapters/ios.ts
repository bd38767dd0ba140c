/**
 * iOS: `window.webkit.messageHandlers.<iosHandler>.postMessage(object)`. WKScriptMessage.body
 * receives a JavaScript object as an NSDictionary, so the message goes as an object, not text.
 */
import type { HostScope } from '../../environment.js';
import { postMessageOf, type HostAdapter } from '../channel.js';

export const iosAdapter: HostAdapter = {
  host: 'ios',
  encode: (message) => message,
  find: (scope, names) => postMessageOf((messageHandlers(scope) || {})[names.iosHandler]),
};

function messageHandlers(scope: HostScope): Record<string, unknown> | undefined {
  const webkit = scope['webkit'] as { messageHandlers?: Record<string, unknown> } | undefined;
  return typeof webkit === 'object' && webkit !== null ? webkit.messageHandlers : undefined;
}
