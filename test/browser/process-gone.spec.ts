/**
 * A WebView whose process dies (issue 35): the React Native host, run here in Node as the app runs
 * it, against the real bundle in Chromium. The page's `ReactNativeWebView.postMessage` reaches the
 * host's `onMessage` (through a Playwright binding, as react-native-webview's bridge would), its
 * commands go in through `injectJavaScript` (CDP's `Runtime.evaluate`), and the renderer is
 * crashed with CDP's `Page.crash`; CDP's `Inspector.targetCrashed` stands in for
 * react-native-webview's `onRenderProcessGone`, and `Page.reload` for the WebView ref's `reload()`. The page must come back, the messages the dead page had
 * queued arrive once, and no call stays unanswered. With the Web Locks API and without it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { requireChromium } from '../helpers/chromium.js';
import { NO_WEB_LOCKS_JS, useBrowserHarness } from '../helpers/browser-harness.js';
import type { ReactNativeHost } from '../../host-adapters/react-native-host.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { openReactNativeWebView } from '../helpers/react-native-webview.js';
import { RECORD_COUNT_JS, waitForRecordCount } from '../helpers/stored-records.js';

const until = async (check: () => boolean, what: string, timeoutMs = 20_000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.skipIf(!requireChromium()).each([
  ['Web Locks', false],
  ['lease, no Web Locks', true],
] as const)('a renderer that dies under the React Native host (Chromium) [%s]', (_, noWebLocks) => {
  const harness = useBrowserHarness();
  let context: BrowserContext | undefined;

  afterEach(async () => {
    await context?.close().catch(() => undefined);
    harness.backend.setFault('service-unavailable', false);
    harness.backend.reset();
  });

  async function openHost(): Promise<{
    host: ReactNativeHost;
    events: OutboundMessage[];
    crash(): void;
    stored(): Promise<number>;
  }> {
    context = await harness.browser.newContext();
    const { host, events, cdp, load } = await openReactNativeWebView(context, noWebLocks ? [NO_WEB_LOCKS_JS] : []);
    cdp.on('Inspector.targetCrashed', () => host.onRenderProcessGone({ nativeEvent: { didCrash: true } }));
    await load(harness.pageOrigin, harness.backend.url);
    const stored = async () =>
      ((await cdp.send('Runtime.evaluate', { expression: RECORD_COUNT_JS, awaitPromise: true, returnByValue: true }))
        .result.value as number) ?? -1;
    return { host, events, crash: () => void cdp.send('Page.crash').catch(() => undefined), stored };
  }

  it('reloads the page, tells the app once, answers every call and sends what the dead page queued, once', async () => {
    const { host, events, crash, stored: storedCount } = await openHost();
    await host.client.init();
    const readies = () => events.filter((event) => event.type === 'ready').length;

    // The server is away: both messages stay queued in the page's outbox (IndexedDB).
    harness.backend.setFault('service-unavailable', true);
    const first = host.client.sendMessage({ content: 'before the crash 1', messageId: 'crash-1' });
    const second = host.client.sendMessage({ content: 'before the crash 2', messageId: 'crash-2' });
    await until(
      () =>
        events.some((event) => event.type === 'message' && event.messageId === 'crash-2' && event.state === 'queued'),
      'crash-2 queued',
    );
    // Queued is told before the record is written (it waits for the page's lock): the page dies
    // once both are stored, as a page does that dies a moment later.
    await waitForRecordCount(storedCount, 2);
    const readyBefore = readies();

    crash();
    await until(() => events.some((event) => event.type === 'error' && event.code === 'webview_restarted'), 'told');
    // A call made while the page is gone waits for the new one.
    const listed = host.client.listOutbox();
    harness.backend.setFault('service-unavailable', false);
    const settled = await Promise.allSettled([first, second, listed]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(settled[0]).toMatchObject({ value: { content: 'before the crash 1' } });
    expect(settled[1]).toMatchObject({ value: { content: 'before the crash 2' } });
    // The page came back: a new bridge said ready.
    expect(readies()).toBeGreaterThan(readyBefore);
    expect(host.client.pending).toBe(0);

    const told = events.filter((event) => event.type === 'error' && event.code === 'webview_restarted');
    expect(told).toEqual([expect.objectContaining({ type: 'error', code: 'webview_restarted', retryable: true })]);
    // Every message once, under its own echo_id.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stored = (await harness.storedMessages()).map((message) => message.content);
    expect(stored.sort()).toEqual(['before the crash 1', 'before the crash 2']);
  }, 60_000);
});
