/**
 * Large attachments sent in chunks (`appendAttachment`, docs/attachments.md), by
 * the real bundle in headless Chromium against the reference backend, which keeps the sha256 of
 * every file that arrives: the bytes must be identical, straight away and after a reload while
 * the message waits offline (IndexedDB). The page plays a native host: one `ChatBridge.receive`
 * per chunk, each after the answer to the one before.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { logLines, useBrowserHarness, type BridgePage, type OpenOptions } from '../helpers/browser-harness.js';
import { closingAfterEach } from '../helpers/opened-pages.js';
import { CHUNK_MAX } from '../../bridge/protocol/limits.js';
import { HAS_FROM_BASE64_JS, expectChunkGroupsChecked } from '../helpers/chunk-groups.js';
import { RECORD_COUNT_JS, waitForRecordCount } from '../helpers/stored-records.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(!requireChromium())('attachments in chunks (real bundle in Chromium, reference backend)', () => {
  const harness = useBrowserHarness();
  const open = closingAfterEach(
    (options: OpenOptions) => harness.open(options),
    () => harness.backend.reset(),
  );

  /** Sends `bytes` as chunks of at most CHUNK_MAX base64 characters, each awaited; returns the answers. */
  const upload = async (tab: BridgePage, uploadId: string, bytes: Buffer) => {
    const text = bytes.toString('base64');
    const answers = [];
    for (let index = 0; index * CHUNK_MAX < text.length; index++) {
      const data = text.slice(index * CHUNK_MAX, (index + 1) * CHUNK_MAX);
      answers.push(await tab.call('appendAttachment', { uploadId, index, data }));
    }
    return answers;
  };

  it('uploads a 5 MiB photo sent in chunks with its bytes identical, answering each chunk with the size so far', async () => {
    const tab = await open({ host: 'android' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    const photo = randomBytes(5 * 1024 * 1024);
    const answers = await upload(tab, 'photo-1', photo);
    expect(answers).toHaveLength(14);
    expect(answers.at(0)).toMatchObject({ ok: true, result: { size: (CHUNK_MAX / 4) * 3 } });
    expect(answers.at(-1)).toMatchObject({ ok: true, result: { size: photo.length } });
    const sent = await tab.call(
      'sendMessage',
      { content: 'beach', attachments: [{ name: 'beach.jpg', type: 'image/jpeg', uploadId: 'photo-1' }] },
      20_000,
    );
    expect(sent).toMatchObject({ ok: true, result: { attachments: [{ name: 'beach.jpg', size: photo.length }] } });
    const [stored] = await harness.storedMessages();
    expect(stored?.attachments).toEqual([
      { name: 'beach.jpg', type: 'image/jpeg', size: photo.length, sha256: sha256(photo) },
    ]);
    expect((await tab.messages()).filter((message) => message.type === 'error')).toEqual([]);
  });

  it("checks a chunk's 4-character groups where Chromium decodes it natively: wrapped and padded chunks taken, a cut one refused", async () => {
    const tab = await open({ host: 'android' });
    expect(await tab.page.evaluate(HAS_FROM_BASE64_JS)).toBe(true);
    await expectChunkGroupsChecked(tab, () => harness.storedMessages());
  });

  it('refuses the chunk that takes an upload past maxFileSize with file_too_large on its id, and sends nothing', async () => {
    const tab = await open({ host: 'browser', settings: { maxFileSize: 500_000 } });
    const text = randomBytes(800_000).toString('base64');
    const chunk = (index: number) => ({
      uploadId: 'big',
      index,
      data: text.slice(index * CHUNK_MAX, (index + 1) * CHUNK_MAX),
    });
    expect(await tab.call('appendAttachment', chunk(0))).toMatchObject({ ok: true, result: { size: 393_216 } });
    expect(await tab.call('appendAttachment', chunk(1))).toMatchObject({
      ok: false,
      error: {
        code: 'file_too_large',
        message: '[POST /messages] 413: upload "big" is 786432 bytes, over 500000',
      },
    });
    expect(
      await tab.call('sendMessage', { attachments: [{ name: 'v.mp4', type: 'video/mp4', uploadId: 'big' }] }),
    ).toMatchObject({
      ok: false,
      error: { code: 'parse_error', message: '[sendMessage] unknown upload "big"' },
    });
    expect(logLines(harness.backend).filter((line) => line.startsWith('POST /messages'))).toEqual([]);
  });

  it('keeps a photo sent in chunks and queued offline through a reload (IndexedDB), then uploads it once, bytes identical', async () => {
    const tab = await open({ host: 'react-native' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);
    const photo = randomBytes(2 * 1024 * 1024 + 1);
    await upload(tab, 'offline-photo', photo);
    await tab.send('sendMessage', {
      content: 'sent offline',
      messageId: 'offline-1',
      attachments: [{ name: 'photo.jpg', type: 'image/jpeg', uploadId: 'offline-photo' }],
    });
    await tab.waitFor({ type: 'message', messageId: 'offline-1', state: 'queued' });
    // Queued is said at once; reload once the record (its Blob too) is in IndexedDB.
    await waitForRecordCount(() => tab.page.evaluate(RECORD_COUNT_JS) as Promise<number>, 1);

    await tab.reload();
    await tab.waitFor({ type: 'message', messageId: 'offline-1', state: 'sending' });
    await tab.setOffline(false);
    await tab.waitFor({ type: 'message', messageId: 'offline-1', state: 'sent' }, { timeoutMs: 15_000 });
    const stored = await harness.storedMessages();
    expect(stored.map((message) => [message.content, message.attachments])).toEqual([
      ['sent offline', [{ name: 'photo.jpg', type: 'image/jpeg', size: photo.length, sha256: sha256(photo) }]],
    ]);
    expect(logLines(harness.backend).filter((line) => line.startsWith('POST /messages'))).toEqual([
      'POST /messages 200',
    ]);
  });

  it('the typed client in the page sends a big attachment in chunks on its own, bytes identical', async () => {
    const tab = await open({ host: 'browser' });
    const photo = randomBytes(3 * 1024 * 1024);
    await tab.page.addScriptTag({
      type: 'module',
      content: "import { createClient } from '/dist/esm/client.js'; window.__createClient = createClient;",
    });
    await tab.page.waitForFunction(() => '__createClient' in window);
    const { methods, result } = await tab.page.evaluate(async (data) => {
      const { __createClient: createClient } = window as unknown as { __createClient: (transport: object) => any };
      const bridge = (window as unknown as { ChatBridge: { receive(command: unknown): void } }).ChatBridge;
      const methods: string[] = [];
      const client = createClient({
        send: (command: { method: string }) => {
          methods.push(command.method);
          bridge.receive(command);
        },
      });
      addEventListener('chatbridge', (event) => client.handle((event as CustomEvent).detail));
      const result = await client.sendMessage({
        content: 'via the client',
        attachments: [{ name: 'p.jpg', type: 'image/jpeg', data }],
      });
      return { methods, result };
    }, photo.toString('base64'));
    expect(methods).toEqual([...Array(8).fill('appendAttachment'), 'sendMessage']);
    expect(result).toMatchObject({ content: 'via the client' });
    const [stored] = await harness.storedMessages();
    expect(stored?.attachments).toEqual([
      { name: 'p.jpg', type: 'image/jpeg', size: photo.length, sha256: sha256(photo) },
    ]);
  });
});
