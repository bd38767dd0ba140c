/**
 * Recordings made in a real page replay as the host saw them: sessions recorded with the debug
 * bundle (dist/chat-bridge.debug.js) in headless Chromium against the reference backend, each
 * replayed by `chat-bridge replay`'s engine, must give the host the same payloads in the same
 * order (same codes, same texts) as it received live, and use up every answer they recorded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostName } from '../../bridge/protocol/bridge-options.js';
import { parseFixture, replay } from '../../tools/replay/index.js';
import { requireChromium } from '../helpers/chromium.js';
import { decodePayloads, useBrowserHarness, WEBSITE_TOKEN, type BridgePage } from '../helpers/browser-harness.js';

describe.skipIf(!requireChromium())('recordings made in Chromium replay to the same deliveries', () => {
  const harness = useBrowserHarness();
  let tab: BridgePage | undefined;

  afterEach(async () => {
    await tab?.close();
    tab = undefined;
    harness.backend.reset();
  });

  /** A page with the debug bundle, recording from install. */
  async function recordingPage(host: HostName, settings: Record<string, unknown> = {}): Promise<BridgePage> {
    tab = await harness.open({ host, path: '/bridge-debug.html', settings: { record: true, ...settings } });
    return tab;
  }

  /** Takes the page's recording, replays it and compares what the host got, payload for payload. */
  async function expectFaithfulReplay(page: BridgePage): Promise<string> {
    const recording = await page.page.evaluate(() =>
      (window as unknown as { ChatBridge: { recording(): string } }).ChatBridge.recording(),
    );
    expect(recording).not.toContain(WEBSITE_TOKEN);
    for (const token of harness.authTokens) expect(recording).not.toContain(token);
    const warnings: string[] = [];
    const output = await replay(recording, {
      host: page.host,
      name: 'chromium-recording',
      onWarning: (warning) => warnings.push(warning),
    });
    const replayed = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { kind: string; payload?: unknown })
      .filter((line) => line.kind === 'deliver')
      .map((line) => line.payload);
    // The same messages in the same order; a native channel's calls may group them differently,
    // since the replay does not play again what made the page wait a task (Web Locks, IndexedDB).
    const messagesOf = (payloads: unknown[]) => payloads.flatMap((payload) => decodePayloads(page.host, payload));
    expect(messagesOf(replayed)).toEqual(messagesOf(await page.payloads()));
    expect(warnings).toEqual([]);
    return recording;
  }

  const steps = (recording: string) => parseFixture(recording, 'recording').map((step) => step.step);

  it('a hung backend: the timed-out request is recorded as hang and replays as "[init] no answer within 800 ms"', async () => {
    harness.backend.setFault('hang', true);
    const page = await recordingPage('android', { requestTimeout: 1500, commandTimeout: 800 });
    const response = await page.call('init');
    expect(response).toMatchObject({
      ok: false,
      error: { code: 'network_error', message: '[init] no answer within 800 ms' },
    });
    // Let the request itself run into requestTimeout, so the recording holds an aborted request.
    await new Promise((resolve) => setTimeout(resolve, 900));
    const recording = await expectFaithfulReplay(page);
    expect(steps(recording)).toContain('hang');
    expect(steps(recording)).not.toContain('fail');
  });

  it("an offline spell by Chromium's offline mode: the message waits, goes out on online, and replays so", async () => {
    const page = await recordingPage('ios');
    expect(await page.call('init')).toMatchObject({ ok: true });
    await page.context.setOffline(true);
    const since = await page.mark();
    const id = await page.send('sendMessage', { content: 'sent from a tunnel' });
    await page.waitFor({ type: 'error', code: 'network_error' }, { since });
    await page.context.setOffline(false);
    expect(await page.waitFor({ type: 'response', id })).toMatchObject({ ok: true });
    const recording = await expectFaithfulReplay(page);
    expect(steps(recording)).toEqual(expect.arrayContaining(['offline', 'online']));
  });

  it('an offline spell by a fetch wrapper, navigator.onLine staying true (the demo Offline switch)', async () => {
    const page = await recordingPage('react-native');
    expect(await page.call('init')).toMatchObject({ ok: true });
    await page.setOffline(true, true);
    expect(await page.page.evaluate(() => navigator.onLine)).toBe(true);
    const since = await page.mark();
    const id = await page.send('sendMessage', { content: 'sent in a lift' });
    await page.waitFor({ type: 'error', code: 'network_error' }, { since });
    await page.setOffline(false, true);
    expect(await page.waitFor({ type: 'response', id })).toMatchObject({ ok: true });
    const recording = await expectFaithfulReplay(page);
    // The failed attempt fell while the recording says offline: the replay fails it by itself.
    expect(steps(recording)).not.toContain('fail');
  });

  it('a 429 with Retry-After: the retry waits the server’s second and succeeds, in the replay too', async () => {
    const page = await recordingPage('flutter');
    harness.backend.setFault('rate-limited', true);
    const since = await page.mark();
    const id = await page.send('init');
    await new Promise((resolve) => setTimeout(resolve, 500));
    harness.backend.setFault('rate-limited', false);
    expect(await page.waitFor({ type: 'response', id }, { since })).toMatchObject({ ok: true });
    const recording = await expectFaithfulReplay(page);
    expect(recording).toMatch(/"status":429,.*"headers":\{"Retry-After":"1"\}/);
  });

  it('an upload: the attachment is recorded by name, type and size, and the replay sends a file that size', async () => {
    const page = await recordingPage('browser');
    const data = Buffer.from('a small text file, uploaded from the app\n'.repeat(40)).toString('base64');
    const response = await page.call('sendMessage', {
      content: 'with a file',
      attachments: [{ name: 'notes.txt', type: 'text/plain', data }],
    });
    expect(response).toMatchObject({ ok: true });
    const recording = await expectFaithfulReplay(page);
    expect(recording).toContain('{"name":"notes.txt","type":"text/plain","size":1640}');
    expect(recording).not.toContain(data.slice(0, 40));
  });

  it('a reload: each page records its own session, which replays to what that page got; messages an earlier page left are noted', async () => {
    const page = await recordingPage('android');
    expect(await page.call('init')).toMatchObject({ ok: true });
    expect(await page.call('sendMessage', { content: 'before the reload' })).toMatchObject({ ok: true });
    await expectFaithfulReplay(page);
    // A sent message's record is removed after its answer; a reload before that removal would
    // have the next page send it again (at least once, same echo_id), which is not this test.
    await expect
      .poll(async () => ((await page.call('listOutbox')) as { result?: unknown }).result, { timeout: 10_000 })
      .toEqual({ messages: [] });

    await page.reload();
    expect(await page.call('sendMessage', { content: 'after the reload' })).toMatchObject({ ok: true });
    const second = await expectFaithfulReplay(page);
    expect(second).not.toContain('before the reload');

    // A message left in the outbox: the next page sends it at install, which no fixture step can
    // say, so its recording says so in a note instead of replaying something else in silence.
    await page.setOffline(true, true);
    const since = await page.mark();
    await page.send('sendMessage', { content: 'left behind' });
    await page.waitFor({ type: 'error', code: 'network_error' }, { since });
    await page.setOffline(false, false);
    await page.reload();
    // The earlier page's command is gone: its message is reported by its state, never as a
    // response under an id the host may have reused.
    expect(await page.waitFor({ type: 'message', state: 'sent' })).toMatchObject({ type: 'message', state: 'sent' });
    const third = await page.page.evaluate(() =>
      (window as unknown as { ChatBridge: { recording(): string } }).ChatBridge.recording(),
    );
    expect(third).toContain(
      '// 1 message(s) an earlier page left in the outbox were waiting at install; a replay starts without them',
    );
  });
});
