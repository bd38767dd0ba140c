/**
 * `ChatBridge.install` / `receive`: fills the environment from the real WebView and keeps at
 * most one bridge running per window.
 */
import { createBridge, VERSION, type Bridge } from './bridge.js';
import { browserEnvironment } from './environment.js';
import { normalizeOptions, type BridgeOptions } from './options.js';

/** Host commands received before `install` are kept (up to this many) and handled once it runs. */
const EARLY_COMMAND_LIMIT = 100;

export interface ChatBridgeGlobal {
  readonly version: string;
  /**
   * Starts the bridge, with these options over any `window.chatBridgeSettings`. A second call
   * replaces the running bridge, so there is never more than one set of listeners.
   */
  install(options?: Partial<BridgeOptions>): Bridge;
  /** Hands the bridge one host command (for hosts that use `evaluateJavascript` / `runJavaScript`). */
  receive(data: unknown): void;
  /** The recording so far (fixture JSON Lines), when installed with `record: true`. */
  recording(): string;
  /** The running bridge, if any. */
  readonly bridge: Bridge | undefined;
  destroy(): void;
}

export function createGlobal(win: Window & typeof globalThis): ChatBridgeGlobal {
  let current: Bridge | undefined;
  const early: unknown[] = [];

  return {
    version: VERSION,
    install(options = {}) {
      const injected = (win as { chatBridgeSettings?: unknown }).chatBridgeSettings;
      const merged = { ...(typeof injected === 'object' && injected !== null ? injected : {}), ...options };
      const resolved = normalizeOptions(merged, win.location.origin);
      current?.destroy();
      const bridge = createBridge(resolved, browserEnvironment(win), { rawOptions: merged });
      current = bridge;
      early.splice(0).forEach((data) => bridge.receive(data));
      return bridge;
    },
    receive(data) {
      if (current !== undefined) current.receive(data);
      else if (early.length < EARLY_COMMAND_LIMIT) early.push(data);
    },
    recording: () => current?.recording() ?? '',
    get bridge() {
      return current;
    },
    destroy() {
      current?.destroy();
      current = undefined;
    },
  };
}
