/**
 * What a `ChatBridge` global takes in before its bridge exists, shared by the bundle (install.ts)
 * and the starter (starter.ts): the global itself, the options merge and its check, and the
 * install a native host asks for by injecting settings. What arrives before the bridge (window
 * events, host commands) is kept in early-buffer.ts.
 */
import { normalizeOptions } from '../options.js';

/**
 * Defines `window.ChatBridge`: not writable, so a page cannot swap it by assignment, but
 * configurable, so the bundle can take a starter's place (and tests can clean up).
 */
export function defineGlobal(win: Window, value: object): void {
  Object.defineProperty(win, 'ChatBridge', { value, enumerable: true, configurable: true, writable: false });
}

/** Each window's injected `channelSecret`, taken out of its settings where the page's scripts would read it. */
const secrets = new WeakMap<Window, unknown>();

/**
 * The global's `install` options over any `window.chatBridgeSettings`, and their check (an
 * OptionsError is thrown). An injected `channelSecret` is taken out of the settings object at the
 * first install (at document start, before the page's scripts) and kept here for later installs.
 */
export function installOptions(win: Window, options: object) {
  const injected = (win as { chatBridgeSettings?: unknown }).chatBridgeSettings;
  // `channelSecret` is not among the names the bundle shortens (INTERNAL_PROPERTIES): the host's object has it.
  const settings = Object(injected) as { channelSecret?: unknown };
  if (settings === injected && settings.channelSecret !== undefined) {
    secrets.set(win, settings.channelSecret);
    delete settings.channelSecret;
  }
  // Object.assign passes over a null source, and `false` has no fields; a string's characters would become fields.
  const merged = { channelSecret: secrets.get(win), ...(typeof injected === 'object' && injected), ...options };
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
