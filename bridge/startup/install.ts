/**
 * `ChatBridge.install` / `receive`: fills the environment from the real WebView and keeps at
 * most one bridge running per window.
 */
import {
  checkRecorder,
  createBridge,
  RECORDER_ALLOWED,
  VERSION,
  type Bridge,
  type CreateBridgeSettings,
} from '../bridge.js';
import { deferredBridge } from './deferred-start.js';
import { inboxPrefix } from '../backend/outbox-record.js';
import { INBOX_SWITCHED } from '../dispatch/command-runner.js';
import { browserNetwork } from '../browser-environment.js';
import type { HostScope } from '../environment.js';
import { adapters, detectHost } from '../outbound/adapters/index.js';
import type { BridgeOptions } from '../protocol/bridge-options.js';
import { defineGlobal, installInjected, installOptions } from './early-input.js';
import { createEarlyBuffer } from './early-buffer.js';
import { TAKE_OVER, type StarterHandover } from './starter.js';

export interface ChatBridgeGlobal {
  readonly version: string;
  /**
   * Starts the bridge, with these options over any `window.chatBridgeSettings`. A second call
   * replaces the running bridge, so there is never more than one set of listeners; the commands
   * the old one was running are answered (`network_error`, "the bridge was reinstalled") first,
   * and, when the new options name another inbox, its waiting `sendMessage` commands too
   * (`inbox_switched`: their messages stay queued for their own inbox).
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

/**
 * `handover`: what a starter kept (starter.ts), kept on for the first bridge installed, which
 * also says how many events and commands the starter dropped.
 */
export function createGlobal(
  win: Window & typeof globalThis,
  plugins: GlobalPlugins = {},
  handover?: StarterHandover,
): ChatBridgeGlobal {
  let current: Bridge | undefined;
  // Before `install`, host commands; from it until its bridge is built, window events (deferred-start.ts).
  const buffer = createEarlyBuffer(win, handover);
  // Only the starter's drops are told: commands past the limit before `install` never were.
  let starterDropped = handover ? handover.dropped : 0;
  // Taken now, as the bundle runs at document start: the page's scripts have not run yet.
  const network = browserNetwork(win);
  /**
   * The inbox (its outbox's key prefix) of the bridge installed last, running or destroyed since:
   * installed for another while it runs, its waiting messages are answered.
   */
  let inbox: string | undefined;

  return {
    version: VERSION,
    install(options = {}) {
      const { merged, resolved } = installOptions(win, options);
      // `replaces`: a bridge ran in this window before (running, or destroyed), and may still write a message it was queuing.
      const settings = { rawOptions: merged, dropped: starterDropped, replaces: !!inbox, ...plugins };
      starterDropped = 0;
      checkRecorder(resolved, settings); // before the running bridge is replaced, as for other bad options
      const next = inboxPrefix(resolved.baseUrl, resolved.websiteToken);
      if (current) current.destroy(next === inbox ? 'reinstalled' : INBOX_SWITCHED);
      inbox = next;
      // The channel's postMessage, found now, before the page's scripts can replace it (channel.ts).
      const scope = win as unknown as HostScope;
      if (resolved.host) adapters[resolved.host].find(scope, resolved);
      else detectHost(scope, resolved);
      // Commands kept (before the first install, or since `destroy`) build it here, before `current`
      // is set: a command a host sends as it hears `ready` is kept too, behind them (deferred-start.ts).
      current = deferredBridge(win, (env) => createBridge(resolved, env, settings), buffer, network);
      return current;
    },
    receive: (data) => (current || buffer).receive(data),
    recording: () => (RECORDER_ALLOWED && current ? current.recording() : ''),
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
 * set of listeners, one delivery per event. A starter (starter.ts) is the exception: the bundle
 * takes its place, its options and what it kept.
 */
export function exposeGlobal(plugins: GlobalPlugins): void {
  const win = window as Window & typeof globalThis & { ChatBridge?: unknown; chatBridgeSettings?: unknown };
  const starter = win.ChatBridge as { [TAKE_OVER]?: () => StarterHandover } | undefined;
  if (starter !== undefined && typeof starter[TAKE_OVER] !== 'function') return;
  const handover = starter && (starter[TAKE_OVER] as () => StarterHandover)();
  const chatBridge = createGlobal(win, plugins, handover);
  defineGlobal(win, chatBridge);
  // Settings injected before the bundle, or the options its starter was installed with.
  installInjected(chatBridge.install, handover ? handover.options : win.chatBridgeSettings);
}
