/**
 * `install` runs at document start, before the page's own scripts, on every page load. Building
 * the bridge there (its channels, redactor and listeners, and compiling the code that does it)
 * cost the page 3–5 ms before its first script ran. So `install` checks the options and returns
 * at once, and the bridge itself is built in the task after it, or as soon as anything needs it
 * (a command, a listener, `host`, `stats`), whichever comes first.
 *
 * Nothing is lost meanwhile: the window's `message`, `online` and `offline` events that come
 * before the bridge exists are kept in the global's buffer (early-buffer.ts), in order, and handed
 * to it as soon as it is built, ahead of anything later (a command that builds it included). `ready` is
 * sent when it is built, so it still comes before any other message.
 */
import { RECORDER_ALLOWED, VERSION, type Bridge } from '../bridge.js';
import { browserEnvironment, inboundMessage, type BrowserNetwork } from '../browser-environment.js';
import { noop, type Environment, type InboundMessage } from '../environment.js';
import type { EarlyBuffer } from './early-buffer.js';

/**
 * `build` makes the bridge from the window's environment, when it is needed; `buffer` keeps the
 * window's events until then, and hands them to it. `network`: fetch and uploads as taken at
 * document start (browser-environment.ts), before the page's scripts could wrap them.
 */
export function deferredBridge(
  win: Window & typeof globalThis,
  build: (env: Environment) => Bridge,
  buffer: EarlyBuffer,
  network?: BrowserNetwork,
): Bridge {
  let bridge: Bridge | undefined;
  /**
   * The bridge says `ready` as it is built, and a host may answer at once, before `build` has
   * returned: such commands wait in the buffer and are handed to it once built, after the kept
   * events, rather than building a second bridge.
   */
  let building = false;
  buffer.keep();

  const started = (): Bridge => {
    if (bridge) return bridge;
    const kept = buffer.take();
    // The bridge's own listeners, caught on their way in, so the kept events reach them.
    let onMessage: (message: InboundMessage) => void = noop;
    let onConnectivityChange: (online: boolean) => void = noop;
    const env = browserEnvironment(win, network);
    building = true;
    bridge = build({
      ...env,
      onMessage(listener: (message: InboundMessage) => void) {
        onMessage = listener;
        return env.onMessage(listener);
      },
      onConnectivityChange(listener: (online: boolean) => void) {
        onConnectivityChange = listener;
        return env.onConnectivityChange(listener);
      },
    });
    kept.events.forEach((event) =>
      event.type === 'message' ? onMessage(inboundMessage(event)) : onConnectivityChange(event.type === 'online'),
    );
    building = false;
    // The commands kept before (install's), then those sent while it was built (a host answering `ready`).
    kept.commands.concat(buffer.commands.splice(0)).forEach((data) => (bridge as Bridge).receive(data));
    return bridge;
  };
  // Commands kept before install build it at once, as a command handed to `receive` does; else it
  // is built in the next task.
  if (buffer.commands.length) started();
  else win.setTimeout(started, 0);

  // Destroying it builds it first, as a bridge that ran: what it has started is answered the same way.
  const deferred: Bridge = {
    version: VERSION,
    get host() {
      return started().host;
    },
    receive: (data) => (building ? buffer : started()).receive(data),
    on: (listener) => started().on(listener),
    // Without a recorder (dist/chat-bridge.js) there is nothing to build it for.
    recording: () => (RECORDER_ALLOWED ? started().recording() : ''),
    stats: () => started().stats(),
    destroy: (why) => started().destroy(why),
  };
  return deferred;
}
