/**
 * The delivery issue's WebKit cases (WebKitGTK, the engine of WKWebView), with the Web Locks API
 * and without it (removed before the bridge runs, as on iOS 12.2–15.3, where the outbox's lease
 * in localStorage stands in): messages queued before a reload are sent after it, and a closed
 * WebView's messages are sent by a live one within seconds, with no event. Two views opened in
 * one web context share storage and locks, as two WKWebViews of one app do.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { requireWebKit } from '../helpers/webkit.js';
import { useWebKitHarness, type WebKitPage } from '../helpers/webkit-harness.js';
import { errorCodes, sendMessage as send, messageState as state } from '../helpers/delivery-steps.js';
import { RECORD_IDS_JS } from '../helpers/stored-records.js';
import { OTHER_WEBSITE_TOKEN, WEBSITE_TOKEN } from '../helpers/browser-harness.js';
import { expectEachInboxOnce, interleavedSteps, playStepsJs, sendCommand } from '../helpers/interleaved-installs.js';

/** The message ids whose records are in the view's IndexedDB now. */
const IN_STORAGE = `return await ${RECORD_IDS_JS};`;

describe.skipIf(!requireWebKit())('outbox delivery cases in WebKit', () => {
  const harness = useWebKitHarness();
  const views: WebKitPage[] = [];
  const storedContents = async () => (await harness.storedMessages()).map((message) => message.content);
  afterEach(async () => {
    for (const view of views.splice(0)) await view.close();
    harness.backend.setFault('service-unavailable', false);
    harness.backend.reset();
  });

  describe.each([
    ['Web Locks', false],
    ['lease, no Web Locks', true],
  ] as const)('[webkit ios, %s]', (_, noWebLocks) => {
    const open = async (beside?: WebKitPage) => {
      const view = await harness.open({ host: 'ios', noWebLocks, ...(beside && { shareWith: beside }) });
      views.push(view);
      // The mode is what it claims: WebKitGTK has Web Locks, and the init script removes them.
      expect(await view.evaluate('return typeof navigator.locks;')).toBe(noWebLocks ? 'undefined' : 'object');
      return view;
    };
    const stored = async (view: WebKitPage, count: number) =>
      expect.poll(async () => ((await view.evaluate(IN_STORAGE)) as string[]).length, { timeout: 10_000 }).toBe(count);

    it('sends two messages queued before a reload after it, within seconds, in order, each once', async () => {
      const view = await open();
      expect(await view.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true);
      await send(view, 'first');
      await send(view, 'second');
      await state(view, 'first', 'sending');
      await stored(view, 2);
      await view.reload();
      harness.backend.setFault('service-unavailable', false);
      const started = Date.now();
      await state(view, 'first', 'sent', 15_000);
      await state(view, 'second', 'sent', 15_000);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(await storedContents()).toEqual(['first', 'second']);
    });

    it("sends a closed WebView's messages from a live one within a few seconds, in their order, with no event", async () => {
      const live = await open();
      const closing = await open(live);
      expect(await live.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true);
      await send(closing, 'closed1');
      await send(closing, 'closed2');
      await state(closing, 'closed1', 'sending');
      await stored(closing, 2);
      await closing.close();
      harness.backend.setFault('service-unavailable', false);
      const started = Date.now();
      await state(live, 'closed1', 'sent', 15_000);
      await state(live, 'closed2', 'sent', 15_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await storedContents()).toEqual(['closed1', 'closed2']);
    });

    it('sends a message queued in the same moment the bridge is installed for another inbox, once back on its own', async () => {
      // The page lock asked for as the message is queued is granted after the bridge is replaced:
      // it must still go, or no later bridge of this view would take the record in.
      const view = await open();
      expect(await view.call('getConversation')).toMatchObject({ ok: true });
      // Queued and installed again in one task.
      const steps = [
        { wait: 0, send: sendCommand('racing', 'raced') },
        { wait: 0, install: OTHER_WEBSITE_TOKEN },
      ];
      await view.evaluate(playStepsJs(steps, harness.backend.url));
      expect(await view.waitFor({ type: 'response', id: 'racing' })).toMatchObject({
        ok: false,
        error: { code: 'inbox_switched' },
      });
      await stored(view, 1);
      await view.install({ baseUrl: harness.backend.url, websiteToken: WEBSITE_TOKEN });
      await state(view, 'raced', 'sent');
      expect(await storedContents()).toEqual(['raced']);
      expect(await harness.storedMessages(OTHER_WEBSITE_TOKEN)).toEqual([]);
    });

    it('sends by itself a message queued in the same moment the bridge is installed again, with no other event', async () => {
      // Its command is the replaced bridge's; the new one sends the record that bridge wrote.
      const view = await open();
      expect(await view.call('getConversation')).toMatchObject({ ok: true });
      // Queued and installed again in one task.
      const steps = [
        { wait: 0, send: sendCommand('racing', 'again') },
        { wait: 0, install: WEBSITE_TOKEN },
      ];
      await view.evaluate(playStepsJs(steps, harness.backend.url));
      await state(view, 'again', 'sent');
      expect(await storedContents()).toEqual(['again']);
    });

    it('loses no message and sends none twice when sends and installs for two inboxes interleave', async () => {
      const inboxes = { A: WEBSITE_TOKEN, B: OTHER_WEBSITE_TOKEN } as const;
      const { steps, expected } = interleavedSteps(3, inboxes);
      const view = await open();
      expect(await view.call('getConversation')).toMatchObject({ ok: true });
      await view.evaluate(playStepsJs(steps, harness.backend.url));
      await expectEachInboxOnce(view, harness.backend.url, inboxes, expected, harness.storedMessages);
    });

    it("sends a closed WebView's message from a live one within seconds when it sent others before it, then was idle", async () => {
      // The page lock is kept while a page lives (Web Locks): its next record after an idle spell
      // must still tell the live view to watch for the page to go.
      const live = await open();
      const closing = await open(live);
      expect(await live.call('getConversation')).toMatchObject({ ok: true });
      await send(closing, 'earlier');
      await state(closing, 'earlier', 'sent');
      await stored(closing, 0);
      // The live view's look prompted by the first record has ended by now.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      harness.backend.setFault('service-unavailable', true);
      await send(closing, 'later');
      await state(closing, 'later', 'sending');
      await stored(closing, 1);
      await closing.close();
      harness.backend.setFault('service-unavailable', false);
      const started = Date.now();
      await state(live, 'later', 'sent', 15_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await storedContents()).toEqual(['earlier', 'later']);
    });

    it('where IndexedDB is refused, sends from memory, says so once, and keeps no record in localStorage', async () => {
      const view = await harness.open({ host: 'ios', noWebLocks, noIndexedDb: true });
      views.push(view);
      expect(await view.call('getConversation')).toMatchObject({ ok: true });
      const since = await view.mark();
      await send(view, 'volatile');
      expect(await view.waitFor({ type: 'error', code: 'storage_error' }, { since })).toMatchObject({
        message: expect.stringContaining('volatile not stored'),
      });
      await state(view, 'volatile', 'sent');
      expect(
        await view.evaluate(`return Object.keys(localStorage).map((key) => localStorage.getItem(key));`),
      ).not.toEqual(expect.arrayContaining([expect.stringContaining('volatile')]));
      // Past the time a failed write is tried again: nothing more to say (no storage_restored either).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await errorCodes(view)).toEqual(['storage_error']);
      expect(await storedContents()).toEqual(['volatile']);
    });
  });
});
