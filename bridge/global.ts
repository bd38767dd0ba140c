/**
 * Entry of the injectable bundle, `dist/chat-bridge.js`. Defines `window.ChatBridge` and
 * nothing else. Hosts re-inject scripts (on navigation, or through both an "before content"
 * and an "after load" hook), so a second evaluation finds the first one and does nothing:
 * one set of listeners, one delivery per event.
 */
import { createGlobal } from './install.js';

const win = window as Window & typeof globalThis & { ChatBridge?: unknown; chatBridgeSettings?: unknown };

if (win.ChatBridge === undefined) {
  const chatBridge = createGlobal(win);
  Object.defineProperty(win, 'ChatBridge', {
    value: chatBridge,
    enumerable: true,
    configurable: true,
    writable: false,
  });
  // A native host that injected settings before the bundle wants the bridge running at once.
  if (typeof win.chatBridgeSettings === 'object' && win.chatBridgeSettings !== null) {
    try {
      chatBridge.install();
    } catch (error) {
      // Bad injected settings: say so where a developer looks, keep the global usable.
      console.error(error);
    }
  }
}
