// @vitest-environment happy-dom
/**
 * The lease in localStorage that stands in for the Web Locks API (iOS 12.2–15.3), in happy-dom's
 * window: let go at pagehide, lapsed when its end is further ahead than a lease (a clock set
 * back), not written over while another WebView holds it, and telling its holder that another
 * WebView waits. Two WebViews are two `browserLocks` over one localStorage; the Chromium and
 * WebKit delivery tests run the whole outbox over it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { browserLocks } from '../../../bridge/browser-locks.js';
import { fullStorage, oldWebView as oldWebViewWith } from '../../helpers/old-webview.js';

/** Its locks over the shared localStorage, in a WebView without Web Locks whose `pagehide` can be fired. */
function oldWebView() {
  const { win, hide } = oldWebViewWith();
  return { win, locks: browserLocks(Object.assign(win, { localStorage }), Math.random), hide };
}

/** The ends of works holding their lock until the test is over (a gone WebView's renewals go with it). */
const holders: Array<() => void> = [];
const holdForever = (locks: ReturnType<typeof browserLocks>, name: string) =>
  new Promise<void>(
    (granted) =>
      void locks.request(
        name,
        () =>
          new Promise<void>((end) => {
            holders.push(end);
            granted();
          }),
      ),
  );

afterEach(() => {
  holders.splice(0).forEach((end) => end());
  localStorage.clear();
});

describe('the lease that stands in for Web Locks', () => {
  it('is let go at pagehide, so another WebView takes over at once (a reload, a closed WebView)', async () => {
    const closing = oldWebView();
    const other = oldWebView();
    await holdForever(closing.locks, 'chat-bridge:page:a');
    expect(await other.locks.held()).toContain('chat-bridge:page:a');
    closing.hide();
    expect(await other.locks.held()).not.toContain('chat-bridge:page:a');
    await expect(other.locks.request('chat-bridge:page:a', async () => 'ran')).resolves.toBe('ran');
  });

  it("grants a page's own lock (asked for by no other WebView) as it is written, with no pause to read back", async () => {
    const { locks } = oldWebView();
    let ran = false;
    void locks.request('chat-bridge:page:mine', async () => void (ran = true), true);
    // Granted within the same task's microtasks: a reload right after a message finds its record.
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toBe(true);
    expect(await locks.held()).toEqual([]);
  });

  it('counts as lapsed when it ends further ahead than a lease: written before the clock was set back', async () => {
    localStorage.setItem('chat-bridge:lease:send', `gone ${Date.now() + 600_000}`);
    const { locks } = oldWebView();
    expect(await locks.held()).toEqual([]);
    await expect(locks.request('send', async () => 'ran')).resolves.toBe('ran');
  });

  it('tells its holder that another WebView waits, and lets the waiting one in when the work ends', async () => {
    const first = oldWebView();
    const second = oldWebView();
    let release = () => {};
    const held = first.locks.request('send', () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await first.locks.waiting?.('send')).toBe(false);
    const later = second.locks.request('send', async () => 'second ran');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await first.locks.waiting?.('send')).toBe(true);
    release();
    await held;
    await expect(later).resolves.toBe('second ran');
    expect(await first.locks.waiting?.('send')).toBe(false);
  });

  it('announces a WebView to the others once, through a storage key they hear of', async () => {
    const { locks } = oldWebView();
    await locks.request('a', async () => undefined);
    const told = localStorage.getItem('chat-bridge:lease:');
    await locks.request('b', async () => undefined);
    expect(told).not.toBeNull();
    expect(localStorage.getItem('chat-bridge:lease:')).toBe(told);
  });

  it('runs the work unlocked rather than never when localStorage is full', async () => {
    const win = {
      ...oldWebView().win,
      setTimeout: window.setTimeout.bind(window),
      localStorage: fullStorage(),
    } as Window;
    await expect(browserLocks(win, Math.random).request('send', async () => 'ran')).resolves.toBe('ran');
  });

  it('reads no localStorage before its first call (install stays cheap)', async () => {
    let reads = 0;
    const win = Object.defineProperty(oldWebViewWith().win, 'localStorage', {
      get() {
        reads++;
        return localStorage;
      },
    });
    const locks = browserLocks(win, Math.random);
    expect(reads).toBe(0);
    await locks.held();
    expect(reads).toBeGreaterThan(0);
  });

  it('lets one holder at a time run, across two WebViews sharing localStorage, and lists the held lease', async () => {
    const first = oldWebView().locks;
    const second = oldWebView().locks;
    const log: string[] = [];
    let release = () => {};
    const held = first?.request('send', async () => {
      log.push('first in');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('first out');
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const waiting = second?.request('send', async () => void log.push('second in'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(log).toEqual(['first in']);
    expect(await second?.held()).toEqual(['send']);
    release();
    await held;
    await waiting;
    expect(log).toEqual(['first in', 'first out', 'second in']);
    expect(await first?.held()).toEqual([]);
  });

  it('takes over a lease whose holder went away without releasing it (expired)', async () => {
    localStorage.setItem('chat-bridge:lease:send', `gone ${Date.now() - 1}`);
    const locks = oldWebView().locks;
    expect(await locks?.held()).toEqual([]);
    await expect(locks?.request('send', async () => 'ran')).resolves.toBe('ran');
  });
});
