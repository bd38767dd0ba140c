/**
 * A record that cannot be stored fails alone, in real Chromium against the reference backend, with
 * the Web Locks API and without it (the lease): with the origin's quota at 1.5 MB, offline, a 3 MB
 * photo and two texts sent in one task (their writes share one transaction, which the photo
 * aborts), the texts are stored all the same and the host is told the photo is not
 * (`storage_error` naming it); after the WebView is closed (an app killed) and another opens
 * online, the texts are delivered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { NO_WEB_LOCKS_JS, useBrowserHarness, type BridgePage } from '../helpers/browser-harness.js';
import { messageState as state } from '../helpers/delivery-steps.js';
import { RECORD_IDS_JS } from '../helpers/stored-records.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';

/** In the page: the three sendMessage commands in one task, the photo first (3 MB of random bytes, base64). */
const SEND_IN_ONE_TASK = `(() => {
  const bytes = new Uint8Array(3_000_000);
  for (let at = 0; at < bytes.length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  let binary = '';
  for (let at = 0; at < bytes.length; at += 8_192) binary += String.fromCharCode(...bytes.subarray(at, at + 8_192));
  const attachments = [{ name: 'photo.jpg', type: 'image/jpeg', data: btoa(binary) }];
  const commands = [
    { id: 'c-photo', method: 'sendMessage', params: { messageId: 'photo', content: 'photo', attachments } },
    { id: 'c-text1', method: 'sendMessage', params: { messageId: 'text1', content: 'text1' } },
    { id: 'c-text2', method: 'sendMessage', params: { messageId: 'text2', content: 'text2' } },
  ];
  for (const command of commands) ChatBridge.receive(JSON.stringify(command));
})()`;

describe.skipIf(!requireChromium())('a record over the quota (real bundle in Chromium, reference backend)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await tab.context.close();
    harness.backend.reset();
  });

  it.each([
    ['Web Locks', false],
    ['lease, no Web Locks', true],
  ] as const)(
    '[%s] stores the texts sent in one task with a photo over the quota, names the photo, and delivers the texts after a relaunch',
    async (_, noWebLocks) => {
      const context = await harness.browser.newContext();
      if (noWebLocks) await context.addInitScript(NO_WEB_LOCKS_JS);
      const open = async () => {
        const tab = await harness.open({ host: 'react-native', context, settings: { maxFileSize: 5_000_000 } });
        tabs.push(tab);
        return tab;
      };
      // The origin's quota, set before its storage is first opened (Chromium holds it from then on).
      const blank = await context.newPage();
      const cdp = await context.newCDPSession(blank);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin: harness.pageOrigin, quotaSize: 1_500_000 });
      const tab = await open();
      expect(await tab.call('getConversation')).toMatchObject({ ok: true });
      await tab.setOffline(true);
      await tab.page.evaluate(SEND_IN_ONE_TASK);
      for (const id of ['photo', 'text1', 'text2']) await state(tab, id, 'queued');
      await expect
        .poll(async () => ((await tab.page.evaluate(RECORD_IDS_JS)) as string[]).sort(), { timeout: 10_000 })
        .toEqual(['text1', 'text2']);
      // The host is told which message is not durable, and only that one.
      const storageErrors = () =>
        tab
          .messages()
          .then((messages) =>
            messages.flatMap((m: OutboundMessage) =>
              m.type === 'error' && m.code === 'storage_error' ? [m.message] : [],
            ),
          );
      await expect.poll(storageErrors, { timeout: 10_000 }).toContainEqual(expect.stringContaining('photo not stored'));
      expect((await storageErrors()).filter((message) => /text[12]/.test(message))).toEqual([]);
      // The app is killed with all three waiting, and opened again online.
      await tab.page.close();
      const relaunched = await open();
      await state(relaunched, 'text1', 'sent', 15_000);
      await state(relaunched, 'text2', 'sent', 15_000);
      expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['text1', 'text2']);
    },
    60_000,
  );
});
