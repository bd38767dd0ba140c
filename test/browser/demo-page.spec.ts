/**
 * The demo page as `npm start` serves it (the page and the reference backend on two ports),
 * in headless Chromium: it loads cleanly, its commands reach the backend cross-origin, a fault
 * shows the matching error in each platform's own form, recent events survive a reload, and
 * received text is never inserted as HTML. Ends with a screenshot for a human to look at (the
 * phone's tabs are demo-layout.spec.ts's).
 */
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../bridge/protocol/errors.js';
import { requireChromium } from '../helpers/chromium.js';
import { switchFaultInBar } from '../helpers/demo-controls.js';
import { useDemoInChromium } from '../helpers/demo-in-chromium.js';

const SCREENSHOT = fileURLToPath(new URL('./screenshots/demo-page.png', import.meta.url));
const SCREENSHOT_FULL = fileURLToPath(new URL('./screenshots/demo-page-full.png', import.meta.url));
const WAIT = { timeout: 10_000 };

interface DemoTab {
  /** A fresh browser context per tab: no localStorage carried over from another test. */
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors, as text. */
  problems: string[];
  /** Chromium's own "Failed to load resource" reports of the backend's 4xx/5xx answers. */
  networkReports: string[];
}

describe.skipIf(!requireChromium())('the demo page in Chromium', () => {
  const running = useDemoInChromium();
  const tabs: DemoTab[] = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0)) {
      // Whatever a test provoked, the page itself never threw and never logged an error of its own.
      expect(tab.problems).toEqual([]);
      await tab.context.close();
    }
    running.demo.backend.reset();
  });

  /** Opens the page as printed by `npm start`, for one host, and waits for the bridge. `phone`: 390 × 844, touch. */
  async function open(host: string, { phone = false } = {}): Promise<DemoTab> {
    const context = await running.chromium.browser.newContext(
      phone
        ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
        : { viewport: { width: 1440, height: 900 } },
    );
    const page = await context.newPage();
    const tab: DemoTab = { context, page, problems: [], networkReports: [] };
    tabs.push(tab);
    page.on('pageerror', (error) => tab.problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium reports every 4xx/5xx answer to fetch in the console; the page cannot stop that.
      const fromBackend = message.location().url.startsWith(running.demo.backendUrl);
      if (
        fromBackend &&
        /^Failed to load resource: the server responded with a status of [45]\d\d/.test(message.text())
      ) {
        tab.networkReports.push(message.text());
      } else tab.problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`${running.demo.pageUrl}&host=${host}`);
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);
    await page
      .locator('#faults li')
      .first()
      .waitFor({ ...WAIT, state: 'attached' });
    return tab;
  }

  const received = (page: Page, text: string) => page.locator('#events .received .native', { hasText: text }).first();
  const request = (page: Page, text: string) => page.locator('#requests .request', { hasText: text }).first();

  async function switchFault(page: Page, name: string, on: boolean) {
    await switchFaultInBar(page, name, on);
    await expect.poll(() => running.demo.backend.faults().find((fault) => fault.name === name)?.on, WAIT).toBe(on);
  }

  it('prints a page URL on another port than the backend, naming the backend', () => {
    const page = new URL(running.demo.pageUrl);
    const backend = new URL(running.demo.backendUrl);
    expect(page.hostname).toBe('127.0.0.1');
    expect(page.port).not.toBe(backend.port);
    expect(page.searchParams.get('backend')).toBe(running.demo.backendUrl);
  });

  it('loads with no console errors, lists every backend fault and shows the ready event', async () => {
    const { page, networkReports } = await open('react-native');

    await received(page, 'onEvent({type: "ready"})').waitFor(WAIT);
    expect(await page.locator('#faults input[type=checkbox]').count()).toBe(running.demo.backend.faults().length);
    expect(await page.locator('#platform-name').textContent()).toBe('React Native');
    expect(networkReports).toEqual([]);
  });

  it('explains in its legend how to see each error code the bridge has', async () => {
    const { page } = await open('react-native');

    const rows = await page.locator('#legend tr').evaluateAll((trs) => trs.map((tr) => tr.id));
    expect(rows.sort()).toEqual(
      Object.values(ErrorCode)
        .map((code) => `code-${code}`)
        .sort(),
    );
  });

  it('runs init and getConversation, showing the cross-origin requests with their preflight and the onEvent responses', async () => {
    const { page } = await open('react-native');

    await page.click('#cmd-init');
    await received(page, 'onEvent({type: "response"').waitFor(WAIT);
    expect(await received(page, 'onEvent({type: "response"').textContent()).toContain('ok: true');
    await request(page, 'GET /config?website_token=<redacted>').waitFor(WAIT);

    await page.click('#cmd-get-conversation');
    // The backend's 404 is answered by creating the conversation, as the contract says.
    await request(page, 'POST /conversations').waitFor(WAIT);
    await request(page, 'OPTIONS /conversations').waitFor(WAIT);
    expect(await request(page, 'OPTIONS /conversations').textContent()).toContain('CORS preflight');
    await received(page, 'status: "open"').waitFor(WAIT);
    // The page is on another origin than the backend: every logged request carries the page's Origin.
    const origins = new Set(running.demo.backend.requests.map((entry) => entry.headers['origin']));
    expect([...origins]).toEqual([new URL(running.demo.pageUrl).origin]);
  });

  it("shows auth_failed in each platform's own form once rotated-website-token is switched on", async () => {
    const { page, networkReports } = await open('react-native');
    await switchFault(page, 'rotated-website-token', true);

    const forms: Record<string, string> = {
      'react-native': 'onEvent({type: "error", code: "auth_failed", message: "[GET /config] 401: Invalid website token',
      android: 'ChatEvent.Error(code = "auth_failed", message = "[GET /config] 401: Invalid website token',
      ios: '.error(code: "auth_failed", message: "[GET /config] 401: Invalid website token',
      flutter: "onError(ChatError(code: 'auth_failed', message: '[GET /config] 401: Invalid website token",
      browser: `'chatbridge' event, detail = {type: "error", code: "auth_failed"`,
    };
    for (const [host, form] of Object.entries(forms)) {
      // Switching host re-installs the bridge behind that platform's stand-in channel.
      await page.selectOption('#host', host);
      await page.locator('#status', { hasText: `installed for` }).waitFor(WAIT);
      await page.click('#cmd-init');
      await received(page, form).waitFor(WAIT);
    }
    await request(page, 'GET /config?website_token=<redacted>')
      .locator('.status-code', { hasText: '401' })
      .waitFor(WAIT);
    // Every app's channel gets JSON text, iOS's included; the browser page gets the object.
    expect(await page.locator('#events .raw-kind', { hasText: 'postMessage(string)' }).count()).toBeGreaterThan(0);
    expect(await page.locator('#events .raw-kind', { hasText: 'postMessage(object)' }).count()).toBe(0);
    expect(await page.locator('#events .raw-kind', { hasText: 'event.detail (object)' }).count()).toBeGreaterThan(0);
    expect(networkReports.length).toBeGreaterThan(0);
  });

  it('shows bad_request when the backend answers sendMessage 400 under the bad-request fault', async () => {
    const { page } = await open('react-native');
    const fault = page.locator('#faults li', { has: page.locator('#fault-bad-request') });
    expect(await fault.locator('.effect').textContent()).toContain('bad_request');
    // With a conversation already there, the message itself is what the backend refuses.
    await page.click('#cmd-get-conversation');
    await received(page, 'status: "open"').waitFor(WAIT);
    await switchFault(page, 'bad-request', true);

    await page.click('#cmd-send');
    await received(
      page,
      'onEvent({type: "error", code: "bad_request", message: "[POST /messages] 400: Malformed request body"',
    ).waitFor(WAIT);
    await request(page, 'POST /messages').locator('.status-code', { hasText: '400' }).waitFor(WAIT);
  });

  it('shows not_found on getConversation once the not-found fault is switched on, after trying to create one', async () => {
    const { page } = await open('android');
    await switchFault(page, 'not-found', true);

    await page.click('#cmd-get-conversation');
    await received(page, 'ChatEvent.Error(code = "not_found", message = "[POST /conversations] 404').waitFor(WAIT);
    // The contract's recovery ran first: the GET's 404 was answered by creating a conversation.
    await request(page, 'GET /conversations').locator('.status-code', { hasText: '404' }).waitFor(WAIT);
    await request(page, 'POST /conversations').locator('.status-code', { hasText: '404' }).waitFor(WAIT);
  });

  it('keeps the recent events across a reload, in the form of the host that received them', async () => {
    const { page } = await open('android');
    await switchFault(page, 'server-error', true);
    await page.click('#cmd-init');
    await received(page, 'ChatEvent.Error(code = "server_error"').waitFor(WAIT);

    await page.reload();
    await page.locator('#status', { hasText: 'installed for Android' }).waitFor(WAIT);

    const kept = page.locator('#events .received', { hasText: 'ChatEvent.Error(code = "server_error"' }).first();
    await kept.waitFor(WAIT);
    expect(await kept.locator('.meta').textContent()).toContain('before reload');
  });

  it('shows the page-side errors: a malformed widget message, six files, an invalid e-mail, an unknown method', async () => {
    const { page } = await open('ios');
    const before = running.demo.backend.requests.length;

    await page.click('#try-parse-error');
    await received(page, '.error(code: "parse_error"').waitFor(WAIT);
    await page.click('#try-too-many-files');
    await received(page, '.error(code: "too_many_files"').waitFor(WAIT);
    await page.click('#try-invalid-email');
    await received(page, '.error(code: "validation_error"').waitFor(WAIT);
    expect(await received(page, '.error(code: "validation_error"').textContent()).toContain('errors: ["email": [');
    await page.click('#try-unknown-method');
    await received(page, '.error(code: "unknown_method"').waitFor(WAIT);
    // All refused inside the bridge: nothing reached the backend.
    expect(running.demo.backend.requests.length).toBe(before);
  });

  it('reaches not_found through a wrong baseUrl path, restoring baseUrl after, and network_error through the offline switch', async () => {
    const { page } = await open('flutter');
    const baseUrl = await page.locator('#base-url').inputValue();

    await page.click('#try-wrong-path');
    await received(page, "onError(ChatError(code: 'not_found'").waitFor(WAIT);
    await request(page, 'GET /no-such-api/config').waitFor(WAIT);
    // The shortcut puts back the baseUrl it changed: the next init goes to the real API again.
    await page.locator('#status', { hasText: `baseUrl ${baseUrl} ` }).waitFor(WAIT);
    expect(await page.locator('#base-url').inputValue()).toBe(baseUrl);
    await page.click('#cmd-init');
    await received(page, 'onResponse(ChatResponse(id: ').filter({ hasText: 'ok: true' }).waitFor(WAIT);
    const configRequests = running.demo.backend.requests.filter(
      (entry) => entry.method === 'GET' && entry.path === '/config',
    );
    expect(configRequests.length).toBeGreaterThan(0);

    await page.locator('#offline').check();
    const before = running.demo.backend.requests.length;
    await page.click('#cmd-init');
    await received(page, "onError(ChatError(code: 'network_error'").waitFor(WAIT);
    expect(running.demo.backend.requests.length).toBe(before);

    await page.locator('#offline').uncheck();
    await page.click('#cmd-init');
    await received(page, 'onResponse(ChatResponse(id: ').filter({ hasText: 'result:' }).waitFor(WAIT);
  });

  it("draws each command's requests on the timeline: a rate-limit storm's Retry-After waits, an offline spell", async () => {
    const { page } = await open('react-native');
    await switchFault(page, 'rate-limited', true);
    await page.click('#cmd-init');
    // The bridge's four 429 retries, each after the server's Retry-After: 1.
    await received(page, 'rate_limited').waitFor({ timeout: 20_000 });
    const storm = page.locator('#timeline .lane', { hasText: 'init ' }).first();
    await expect.poll(() => storm.locator('.bar.s4xx').count(), WAIT).toBe(5);
    expect(await storm.locator('.lane-name').textContent()).toContain('5 requests');
    expect((await storm.locator('.waits').textContent())?.match(/Retry-After: 1 → 1\.\d s/g)).toHaveLength(4);
    // The row's time axis is the storm's own: its first 429 at the left end, its last at the right.
    const ends = await storm.locator('.bar').evaluateAll((bars) => {
      const track = bars[0]!.parentElement!.getBoundingClientRect();
      const at = (bar: Element) => (bar.getBoundingClientRect().left - track.left) / track.width;
      return [at(bars[0]!), (bars.at(-1)!.getBoundingClientRect().right - track.left) / track.width];
    });
    expect(ends[0]).toBeLessThan(0.02);
    expect(ends[1]).toBeGreaterThan(0.98);
    await switchFault(page, 'rate-limited', false);

    await page.locator('#offline').check();
    await page.click('#cmd-get-conversation');
    await received(page, 'network_error').waitFor(WAIT);
    await page.locator('#offline').uncheck();
    const offline = page.locator('#timeline .lane', { hasText: 'getConversation ' }).first();
    await offline.locator('.bar.failed').first().waitFor(WAIT);
    expect(await offline.locator('.offline').count()).toBe(1);
    expect(await offline.locator('.bar').first().getAttribute('title')).toMatch(/^GET \/.*config → no answer$/);
  });

  it('lists the outbox from the message events it receives: state, attempt, countdown to the next try, then the tick', async () => {
    const { page } = await open('android');
    // What the bridge posts for a message waiting after a failed attempt, through the real stand-in channel.
    const post = (message: object) =>
      page.evaluate(
        (text) =>
          (
            window as unknown as { ChatBridgeAndroid: { postMessage(text: string): void } }
          ).ChatBridgeAndroid.postMessage(text),
        JSON.stringify(message),
      );
    const error = {
      type: 'error',
      code: 'network_error',
      retryable: true,
      message: '[POST /messages] network error: no HTTP answer',
    };
    await post({
      type: 'message',
      messageId: 'm-demo',
      state: 'queued',
      attempt: 1,
      nextAttemptAt: Date.now() + 30_000,
      error,
    });

    const row = page.locator('#outbox .outbox-row', { hasText: 'm-demo' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toMatch(/○ queued m-demo.*attempt 1 · next try in (29|30) s · last network_error/);
    await received(page, 'ChatEvent.Message(messageId = "m-demo", state = MessageState.QUEUED, attempt = 1').waitFor(
      WAIT,
    );

    await post({ type: 'message', messageId: 'm-demo', state: 'sending', attempt: 2 });
    await page.locator('#outbox .outbox-row.sending', { hasText: 'm-demo' }).waitFor(WAIT);
    await post({ type: 'message', messageId: 'm-demo', state: 'sent', attempt: 2, result: { id: 9 } });
    await page.locator('#outbox .outbox-row.sent', { hasText: 'm-demo' }).waitFor(WAIT);
    expect(await row.textContent()).toMatch(/✓ sent m-demo.*attempt 2$/);
    expect(await page.locator('#outbox .outbox-row').count()).toBe(1);
  });

  it('never inserts received text as HTML', async () => {
    const { page } = await open('browser');

    await page.evaluate(() =>
      window.postMessage(
        'chatwoot-widget:{"event":"error","message":"<img id=injected src=x>"}',
        window.location.origin,
      ),
    );
    await received(page, 'widget_error').waitFor(WAIT);

    expect(await page.locator('#injected').count()).toBe(0);
    expect(await received(page, 'widget_error').textContent()).toContain('<img id=injected src=x>');
  });

  it('reads well: a screenshot of a session with requests, responses and errors', async () => {
    const { page } = await open('android');
    await page.click('#cmd-init');
    await received(page, 'ChatEvent.Response').waitFor(WAIT);
    // A file picked from disk goes out as multipart.
    await page
      .locator('#message-files')
      .setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from disk') });
    await page.click('#cmd-send');
    await request(page, 'content-type: multipart/form-data').waitFor(WAIT);
    await received(page, 'hello.txt').waitFor(WAIT);
    await switchFault(page, 'rotated-website-token', true);
    await page.click('#cmd-init');
    await received(page, 'ChatEvent.Error(code = "auth_failed"').waitFor(WAIT);
    await page.click('#try-file-too-large');
    await received(page, 'ChatEvent.Error(code = "file_too_large"').waitFor(WAIT);

    mkdirSync(fileURLToPath(new URL('./screenshots/', import.meta.url)), { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: SCREENSHOT });
    await page.screenshot({ path: SCREENSHOT_FULL, fullPage: true });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
  });
});
