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
 */
import { defineGlobal, EARLY_COMMAND_LIMIT, installInjected, installOptions, keepWindowEvents } from './early-input.js';

/** What a starter hands the bundle: the options it was installed with (if any), and what it kept. */
export interface StarterHandover {
  options: Record<string, unknown> | undefined;
  events: Event[];
  commands: unknown[];
}

/** The starter's hook on `window.ChatBridge`, found and called by the bundle. */
export const TAKE_OVER = 'takeOver';

/** Kept at most until the bundle comes, so a page where it never comes does not grow without bound. */
export const STARTER_EVENT_LIMIT = 1000;

export function exposeStarter(): void {
  const win = window as Window & typeof globalThis & { ChatBridge?: unknown; chatBridgeSettings?: unknown };
  // The bundle, or another starter, came first: it has the page.
  if (win.ChatBridge !== undefined) return;
  let options: Record<string, unknown> | undefined;
  const kept = keepWindowEvents(win, [], STARTER_EVENT_LIMIT);
  const commands: unknown[] = [];

  const starter = {
    version: 'starter',
    install(given: object = {}) {
      options = installOptions(win, given).merged;
    },
    receive(data: unknown) {
      if (commands.length < EARLY_COMMAND_LIMIT) commands.push(data);
    },
    recording: () => '',
    bridge: undefined,
    // Nothing runs, nothing waits: a bundle coming after has nothing to take over.
    destroy() {
      kept.stop();
      options = undefined;
      kept.events.clear();
      commands.length = 0;
    },
    [TAKE_OVER](): StarterHandover {
      kept.stop();
      return { options, events: [...kept.events], commands: commands.splice(0) };
    },
  };
  defineGlobal(win, starter);
  installInjected(starter.install, win.chatBridgeSettings);
}
