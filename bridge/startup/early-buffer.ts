/**
 * The one buffer for what reaches a `ChatBridge` global before its bridge is built and says
 * `ready`: the window's `message`, `online` and `offline` events, and the host commands handed to
 * `receive`. The starter (starter.ts) keeps in one until the bundle comes, and hands what it
 * kept over; the bundle's global (install.ts) keeps in one what the starter handed over and the
 * commands that come before `install`, and from `install` on the window's events, until the bridge
 * is built (deferred-start.ts). Whatever builds it hands it the events first, in order, then the
 * commands: install hands the commands to the new bridge, whose first command builds it, and the
 * build takes the events.
 *
 * Bounded, so a page where the bridge never comes does not grow without end: at most
 * EARLY_COMMAND_LIMIT commands, and, with `withinLimits`, as many events and characters of message
 * data as it is told. What comes past a limit is dropped and counted (the starter hands the count
 * over, and the bridge says it once, right after `ready`).
 */
import { listen, noop } from '../environment.js';
import { toJsonText } from '../protocol/safe-json.js';

/** Host commands kept at most before `install` (the bundle) or before the bundle comes (the starter). */
export const EARLY_COMMAND_LIMIT = 100;

/** What a buffer holds, and hands over in this order: window events, then host commands. */
export interface Kept {
  events: Event[];
  commands: unknown[];
  /** Events and commands dropped over the limits. */
  dropped: number;
}

export interface EarlyBuffer {
  /**
   * Keeps the window's `message`, `online` and `offline` events (and `message` on the document,
   * see environment.ts) until `take`.
   */
  keep(): void;
  /**
   * Keeps a host command, or counts it dropped past EARLY_COMMAND_LIMIT (named as a bridge's
   * `receive`, so that either takes a command).
   */
  receive(data: unknown): void;
  /** The commands kept so far, in order (the bundle's global hands them to a bridge as it installs it). */
  readonly commands: unknown[];
  /** Stops listening and hands over what was kept, leaving the buffer empty. */
  take(): Kept;
}

/**
 * Whether the buffer keeps an event (true), drops it over a limit (false, counted), or leaves it
 * alone as none of the bridge's business (undefined: it uses up no limit and is not counted).
 */
export type Admit = (event: Event) => boolean | undefined;

/** @param earlier what another buffer handed over, kept first. */
export function createEarlyBuffer(
  win: Window,
  earlier?: Pick<Kept, 'events' | 'commands'>,
  admit: Admit = () => true,
): EarlyBuffer {
  // A Set, because a bubbling message event may pass both document and window.
  const events = new Set<Event>(earlier && earlier.events);
  const commands = earlier ? earlier.commands : [];
  let dropped = 0;

  const keep = (event: Event) => {
    if (events.has(event)) return;
    const verdict = admit(event);
    if (verdict) events.add(event);
    else if (verdict === false) dropped++;
  };
  let stop = noop;

  return {
    // `online` and `offline` come to the window alone: listening for them on the document too is harmless.
    keep: () => (stop = listen([win, win.document], ['message', 'online', 'offline'], keep)),
    receive(data) {
      if (commands.length < EARLY_COMMAND_LIMIT) commands.push(data);
      else dropped++;
    },
    commands,
    take() {
      stop();
      const kept = { events: [...events], commands: commands.splice(0), dropped };
      events.clear();
      dropped = 0;
      return kept;
    },
  };
}

/**
 * The limits of a buffer that may wait long (the starter's, until the bundle comes): at most
 * `eventLimit` events and `textLimit` characters of message data, as JSON for anything but text.
 * An admit for events `relevant` lets in; a bundle's own buffer, emptied within a task, needs none.
 */
export function withinLimits(eventLimit: number, textLimit: number, relevant: (event: Event) => boolean): Admit {
  let count = 0;
  let text = 0;
  return (event) => {
    if (!relevant(event)) return undefined;
    const size = sizeOf((event as MessageEvent).data);
    const fits = count < eventLimit && text + size <= textLimit;
    if (fits) {
      count++;
      text += size;
    }
    return fits;
  };
}

/** Characters a message's data holds, as JSON for anything but text (0 for what JSON cannot write). */
function sizeOf(data: unknown): number {
  return typeof data === 'string' ? data.length : (toJsonText(data) || '').length;
}
