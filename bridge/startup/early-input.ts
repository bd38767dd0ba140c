/**
 * What a `ChatBridge` global takes in before its bridge exists, shared by the bundle (install.ts,
 * deferred-start.ts) and the starter (starter.ts): the window events kept for the bridge, the
 * global itself, the options merge and its check, and the install a native host asks for by
 * injecting settings.
 */
import { normalizeOptions } from '../options.js';

/** Host commands kept at most before `install` (the bundle) or before the bundle comes (the starter). */
export const EARLY_COMMAND_LIMIT = 100;

/**
 * Keeps the window's `message`, `online` and `offline` events (and `message` on the document,
 * see environment.ts), in order, those `admit` lets in, until `stop`. A Set, because a bubbling
 * message event may pass both document and window. `earlier` go first.
 */
export function keepWindowEvents(win: Window, earlier: Event[] = [], admit = (_event: Event) => true) {
  const events = new Set<Event>(earlier);
  const keep = (event: Event) => void (!events.has(event) && admit(event) && events.add(event));
  const listen = (add: boolean) => {
    const method = add ? 'addEventListener' : 'removeEventListener';
    ['message', 'online', 'offline'].forEach((type) => win[method](type, keep));
    win.document[method]('message', keep);
  };
  listen(true);
  return { events, stop: () => listen(false) };
}

/**
 * Defines `window.ChatBridge`: not writable, so a page cannot swap it by assignment, but
 * configurable, so the bundle can take a starter's place (and tests can clean up).
 */
export function defineGlobal(win: Window, value: object): void {
  Object.defineProperty(win, 'ChatBridge', { value, enumerable: true, configurable: true, writable: false });
}

/** The global's `install` options over any `window.chatBridgeSettings`, and their check (an OptionsError is thrown). */
export function installOptions(win: Window, options: object) {
  const injected = (win as { chatBridgeSettings?: unknown }).chatBridgeSettings;
  const merged = Object.assign({}, typeof injected === 'object' && injected !== null ? injected : {}, options);
  return { merged: merged as Record<string, unknown>, resolved: normalizeOptions(merged, win.location.origin) };
}

/**
 * A native host that injected settings before the script wants the bridge running at once. Bad
 * ones go where a developer looks; the global stays usable.
 */
export function installInjected(install: (settings: object) => unknown, settings: unknown): void {
  if (typeof settings !== 'object' || settings === null) return;
  try {
    install(settings);
  } catch (error) {
    console.error(error);
  }
}
