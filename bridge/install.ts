/**
 * `ChatBridge.install` / `receive`: fills the environment from the real WebView and keeps at
 * most one bridge running per window.
 */
import { checkRecorder, createBridge, VERSION, type Bridge, type CreateBridgeSettings } from './bridge.js';
import { deferredBridge } from './deferred-start.js';
import { normalizeOptions, type BridgeOptions } from './options.js';

/** Host commands received before `install` are kept (up to this many) and handled once it runs. */
const EARLY_COMMAND_LIMIT = 100;

export interface ChatBridgeGlobal {
  readonly version: string;
  /**
   * Starts the bridge, with these options over any `window.chatBridgeSettings`. A second call
   * replaces the running bridge, so there is never more than one set of listeners; the commands
   * the old one was running are answered (`network_error`, "the bridge was reinstalled") first.
   */
  install(options?: Partial<BridgeOptions>): Bridge;
  /** Hands the bridge one host command (for hosts that use `evaluateJavascript` / `runJavaScript`). */
  receive(data: unknown): void;
  /** The recording so far (fixture JSON Lines), when installed with `record: true` (debug bundle only). */
  recording(): string;
  /** The running bridge, if any. */
  readonly bridge: Bridge | undefined;
  /** Stops the running bridge, answering its running commands (`network_error`, "the bridge was destroyed"). */
  destroy(): void;
}

/** What a bundle adds to every bridge it installs: the debug bundle, its recorder. */
export type GlobalPlugins = Pick<CreateBridgeSettings, 'recorder'>;

export function createGlobal(win: Window & typeof globalThis, plugins: GlobalPlugins = {}): ChatBridgeGlobal {
  let current: Bridge | undefined;
  const early: unknown[] = [];

  return {
    version: VERSION,
    install(options = {}) {
      const injected = (win as { chatBridgeSettings?: unknown }).chatBridgeSettings;
      const merged = Object.assign({}, typeof injected === 'object' && injected !== null ? injected : {}, options);
      const resolved = normalizeOptions(merged, win.location.origin);
      const settings = Object.assign({ rawOptions: merged }, plugins);
      checkRecorder(resolved, settings); // before the running bridge is replaced, as for other bad options
      if (current) current.destroy('reinstalled');
      const bridge = deferredBridge(win, (env) => createBridge(resolved, env, settings));
      current = bridge;
      early.splice(0).forEach((data) => bridge.receive(data));
      return bridge;
    },
    receive(data) {
      if (current !== undefined) current.receive(data);
      else if (early.length < EARLY_COMMAND_LIMIT) early.push(data);
    },
    recording: () => (current ? current.recording() : ''),
    get bridge() {
      return current;
    },
    destroy() {
      if (current) current.destroy();
      current = undefined;
    },
  };
}

/**
 * What the injected scripts run (`global.ts`, `global.debug.ts`): defines `window.ChatBridge`
 * and nothing else. Hosts re-inject scripts (on navigation, or through both an "before content"
 * and an "after load" hook), so a second evaluation finds the first one and does nothing: one
 * set of listeners, one delivery per event.
 */
export function exposeGlobal(plugins: GlobalPlugins): void {
  const win = window as Window & typeof globalThis & { ChatBridge?: unknown; chatBridgeSettings?: unknown };
  if (win.ChatBridge !== undefined) return;
  const chatBridge = createGlobal(win, plugins);
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
