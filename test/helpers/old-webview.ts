/**
 * For the storage and lock specs under happy-dom (test/unit/bridge/browser-storage.spec.ts,
 * browser-locks.spec.ts): a window as a locked-down WebView (or iOS 12.2–15.3, for the locks) has
 * it, without IndexedDB or the Web Locks API, and a localStorage that is full.
 */

/** A window without IndexedDB or Web Locks (iOS 12.2–15.3), whose `pagehide` can be fired. */
export function oldWebView(): { win: Window; hide(): void } {
  const events = new EventTarget();
  const win = {
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
    setInterval: window.setInterval.bind(window),
    clearInterval: window.clearInterval.bind(window),
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    navigator: {},
  } as unknown as Window;
  return { win, hide: () => void events.dispatchEvent(new Event('pagehide')) };
}

/** A localStorage over quota: every write throws QuotaExceededError, and it holds nothing. */
export function fullStorage(): Storage {
  return {
    getItem: () => null,
    setItem: () => {
      throw new DOMException('full', 'QuotaExceededError');
    },
    removeItem: () => undefined,
  } as unknown as Storage;
}
