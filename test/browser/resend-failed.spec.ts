/**
 * Re-sending a failed message (issue 35): the React Native host's typed client, run here in Node as
 * the app runs it, against the real bundle in Chromium and the reference backend. A message the
 * server refused for good (a 422; a photo's 500) fails with its error event; the app's retry button
 * calls `resendMessage(messageId)`, and the message arrives once, under its one `echo_id`, its
 * attachment's bytes those the app first gave. The page's `ReactNativeWebView.postMessage` reaches
 * the host's `onMessage` through a CDP binding, commands go in through `Runtime.evaluate`, as in
 * process-gone.spec.ts.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness } from '../helpers/browser-harness.js';
import type { ReactNativeHost } from '../../host-adapters/react-native-host.js';
import { ChatBridgeError } from '../../host-adapters/client.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { openReactNativeWebView } from '../helpers/react-native-webview.js';

/** 3 KiB of photo bytes, as an app reads them from its picker, in base64. */
const PHOTO = Buffer.from(Array.from({ length: 3072 }, (_, i) => (i * 31) % 256));

async function rejectionOf(promise: Promise<unknown>): Promise<ChatBridgeError> {
  const error = await promise.then(
    () => expect.unreachable('the send should have failed'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChatBridgeError);
  return error as ChatBridgeError;
}

describe.skipIf(!requireChromium())('re-sending a failed message under the React Native host (Chromium)', () => {
  const harness = useBrowserHarness();
  let context: BrowserContext | undefined;

  afterEach(async () => {
    await context?.close().catch(() => undefined);
    for (const fault of ['validation-422', 'server-error']) harness.backend.setFault(fault, false);
    harness.backend.reset();
  });

  async function openHost(): Promise<{ host: ReactNativeHost; events: OutboundMessage[] }> {
    context = await harness.browser.newContext();
    const { host, events, load } = await openReactNativeWebView(context);
    await load(harness.pageOrigin, harness.backend.url);
    await host.client.init();
    await host.client.createConversation();
    return { host, events };
  }

  const messagePosts = () =>
    harness.backend.requests
      .filter((entry) => entry.method === 'POST' && entry.path.endsWith('/messages'))
      .map((entry) => entry.status);

  it('sends a message the server refused (422) again with resendMessage: stored once, under the same echo_id', async () => {
    const { host, events } = await openHost();
    harness.backend.setFault('validation-422', true);
    const error = await rejectionOf(
      host.client.sendMessage({ content: 'refused, then taken', messageId: 'resend-422' }),
    );
    expect(error).toMatchObject({ code: 'validation_error', status: 422, retryable: false });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'message', messageId: 'resend-422', state: 'failed' }),
    );

    // The server now takes it (its rule changed); the app's retry button.
    harness.backend.setFault('validation-422', false);
    await expect(host.client.resendMessage('resend-422')).resolves.toMatchObject({ content: 'refused, then taken' });
    expect(messagePosts()).toEqual([422, 200]);
    const stored = await harness.storedMessages();
    expect(stored.map((message) => [message.content, message.echo_id])).toEqual([
      ['refused, then taken', 'resend-422'],
    ]);
    // Nothing left to resend: a second tap sends nothing.
    expect((await rejectionOf(host.client.resendMessage('resend-422'))).code).toBe('not_kept');
    expect(messagePosts()).toEqual([422, 200]);
    expect(host.client.pending).toBe(0);
  }, 60_000);

  it('sends a photo that failed with a 500 (final, retryable) again: its bytes arrive once, under the same echo_id', async () => {
    const { host } = await openHost();
    harness.backend.setFault('server-error', true);
    const photo = { name: 'photo.jpg', type: 'image/jpeg', data: PHOTO.toString('base64') };
    const error = await rejectionOf(
      host.client.sendMessage({ content: 'a photo', messageId: 'resend-500', attachments: [photo] }),
    );
    expect(error).toMatchObject({ code: 'server_error', status: 500, retryable: true });
    expect(messagePosts()).toEqual([500]);

    harness.backend.setFault('server-error', false);
    const progress: number[] = [];
    await expect(
      host.client.resendMessage('resend-500', { onProgress: ({ sentBytes }) => void progress.push(sentBytes) }),
    ).resolves.toMatchObject({ content: 'a photo' });
    expect(messagePosts()).toEqual([500, 200]);
    expect(progress.length).toBeGreaterThan(0);
    const stored = await harness.storedMessages();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ content: 'a photo', echo_id: 'resend-500' });
    expect(stored[0]?.attachments).toEqual([
      expect.objectContaining({
        name: 'photo.jpg',
        size: PHOTO.length,
        sha256: createHash('sha256').update(PHOTO).digest('hex'),
      }),
    ]);
  }, 60_000);
});
