/**
 * What a browser scenario needs from a page running the bundle, whatever the engine: Chromium
 * (browser-harness.ts, playwright) or WebKit (webkit-harness.ts, the GJS host). Scenarios written
 * against this run in both.
 */
import type { OutboundMessage, ResponseMessage } from '../../bridge/protocol/messages.js';
import type { HostName } from '../../bridge/protocol/bridge-options.js';

export interface ScenarioPage {
  readonly host: HostName;
  /** Every payload the native channel received since the page (re)loaded, exactly as received. */
  payloads(): Promise<unknown[]>;
  /**
   * How many messages arrived so far (a payload may carry several): a mark to wait from, and an
   * index into `messages()`.
   */
  mark(): Promise<number>;
  /** Sends a command (as text, like evaluateJavascript) and waits for its response. */
  call(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<ResponseMessage>;
  /** Waits for a message with these fields (from message index `since`, default 0). */
  waitFor(pattern: Record<string, unknown>, options?: { since?: number; timeoutMs?: number }): Promise<OutboundMessage>;
  /** `ChatBridge.install(options)` in the page (replaces the running bridge). */
  install(options?: Record<string, unknown>): Promise<void>;
  /** `window.postMessage(text, location.origin)` in the page, as the widget's frame posts to its parent. */
  postWindowMessage(text: string): Promise<void>;
  /** Hands raw text to `ChatBridge.receive`, as a host's evaluateJavascript would. */
  receiveText(text: string): Promise<void>;
}
