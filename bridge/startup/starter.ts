/**
 * The starter, `dist/chat-bridge.start.js`: for hosts that can inject two scripts, a small one at
 * document start and the bundle once the page has loaded. Evaluating a script costs the page in
 * proportion to its size (V8 scans all of it), and at document start it runs before the page's
 * own scripts, on every load: the starter is about a tenth of the bundle.
 *
 * It defines the same `window.ChatBridge`, whose `install` checks the options (a bad one throws
 * at once, as the bundle's does) and whose `receive` keeps commands; from its evaluation on, it
 * keeps the window's `message`, `online` and `offline` events. When the bundle is evaluated it
 * takes all that over (`takeOver`, in install.ts): installs with the starter's options, then
 * hands over the events and commands kept, in order. Until then there is no bridge, and no
 * `ready`: hosts send commands after `ready`, as they do with the bundle alone.
 *
 * It keeps them in the same buffer as the bundle's global (early-buffer.ts), limited as the bridge
 * would limit them: message events from allowed origins only (the bridge's rule,
 * inbound/origin.ts), at most STARTER_EVENT_LIMIT events, STARTER_TEXT_LIMIT characters and
 * EARLY_COMMAND_LIMIT commands. What it drops over the limits is counted, and the bridge says how
 * many in one `channel_error` right after `ready`.
 */
import { defineGlobal, installInjected, installOptions } from './early-input.js';
import { createEarlyBuffer, withinLimits, type Kept } from './early-buffer.js';
import { fromAllowedOrigin } from '../inbound/origin.js';

/**
 * What a starter hands the bundle: the options it was installed with (if any), and what it kept
 * (`dropped`: what it had to drop, over its limits, which the bridge says after `ready`). Plain
 * data, read by a bundle built apart from the starter.
 */
export interface StarterHandover extends Kept {
  options: Record<string, unknown> | undefined;
}

/** The starter's hook on `window.ChatBridge`, found and called by the bundle: once. */
export const TAKE_OVER = 'takeOver';

/** Events kept at most until the bundle comes, so a page where it never comes does not grow without bound. */
export const STARTER_EVENT_LIMIT = 1000;
/**
 * Characters of message data kept at most (eight widget messages at their default 1 MiB cap):
 * a count alone would admit a thousand messages of any size.
 */
export const STARTER_TEXT_LIMIT = 8 * 1024 * 1024;

export function exposeStarter(): void {
  const win = window as Window & typeof globalThis & { ChatBridge?: unknown; chatBridgeSettings?: unknown };
  // The bundle, or another starter, came first: it has the page.
  if (win.ChatBridge !== undefined) return;
  let options: Record<string, unknown> | undefined;
  // Until `install` says otherwise, the default rule as far as it is known here: the page's own
  // origin (the bridge adds its baseUrl's, which only the options name).
  let allowed: ReadonlySet<string> | '*' = new Set([win.location.origin]);
  // Frames of other origins are ignored as the bridge ignores them: they neither use up the
  // limits nor count as dropped.
  const buffer = createEarlyBuffer(
    win,
    undefined,
    withinLimits(
      STARTER_EVENT_LIMIT,
      STARTER_TEXT_LIMIT,
      (event) => event.type !== 'message' || fromAllowedOrigin(originOf(event as MessageEvent), allowed),
    ),
  );
  buffer.keep();

  const starter = {
    version: 'starter',
    install(given: object = {}) {
      const checked = installOptions(win, given);
      options = checked.merged;
      allowed = checked.resolved.allowedOrigins;
    },
    receive: buffer.receive,
    recording: () => '',
    bridge: undefined,
    // Nothing runs, nothing waits: a bundle coming after has nothing to take over.
    destroy() {
      starter[TAKE_OVER]();
    },
    // A second call gets nothing and changes nothing: what was kept goes to one bundle, once.
    [TAKE_OVER](): StarterHandover {
      const handover = { options, ...buffer.take() };
      options = undefined;
      return handover;
    },
  };
  defineGlobal(win, starter);
  installInjected(starter.install, win.chatBridgeSettings);
}

const originOf = ({ origin }: MessageEvent) => (typeof origin === 'string' ? origin : '');
