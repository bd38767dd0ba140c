/**
 * The typed client sends large attachments in chunks on its own (host-adapters/attachment-chunks.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_MAX } from '../../../bridge/protocol/limits.js';
import { createClient, type ChatClient, type ClientCommand } from '../../../host-adapters/client.js';

/** A bridge on the other side of an asynchronous channel: answers each command a tick later, as `answer` says. */
function asyncBridge(answer: (command: ClientCommand) => { ok: true; result: unknown } | { ok: false; error: object }) {
  const sent: ClientCommand[] = [];
  const transport = {
    send(command: ClientCommand) {
      sent.push(command);
      setTimeout(() => client.handle({ type: 'response', id: command.id, ...answer(command) }), 0);
    },
  };
  const client: ChatClient = createClient(transport);
  return { client, sent };
}

const okAll = () => ({ ok: true as const, result: { fine: true } });
const params = (command: ClientCommand | undefined) => command?.params as Record<string, any>;
const bigBase64 = (bytes: number) =>
  Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 7) & 255)).toString('base64');

describe('the typed client sends large attachments in chunks', () => {
  afterEach(() => vi.useRealTimers());

  it('sends a file over one chunk as appendAttachment chunks in order, then the message naming the upload', async () => {
    const { client, sent } = asyncBridge(okAll);
    const data = bigBase64(1_000_000); // 1,333,336 characters: three chunks
    await client.sendMessage({
      content: 'photo',
      messageId: 'm1',
      attachments: [
        { name: 'small.txt', type: 'text/plain', data: 'aGk=' },
        { name: 'big.jpg', type: 'image/jpeg', data },
      ],
    });
    const chunks = sent.filter((command) => command.method === 'appendAttachment').map(params);
    expect(chunks.map((chunk) => [chunk['index'], chunk['data'].length])).toEqual([
      [0, CHUNK_MAX],
      [1, CHUNK_MAX],
      [2, data.length - 2 * CHUNK_MAX],
    ]);
    expect(chunks.map((chunk) => chunk['data']).join('')).toBe(data);
    const uploadId = chunks[0]?.['uploadId'];
    expect(chunks.every((chunk) => chunk['uploadId'] === uploadId)).toBe(true);
    expect(sent.at(-1)).toMatchObject({
      method: 'sendMessage',
      params: {
        content: 'photo',
        messageId: 'm1',
        attachments: [
          { name: 'small.txt', type: 'text/plain', data: 'aGk=' },
          { name: 'big.jpg', type: 'image/jpeg', uploadId },
        ],
      },
    });
    expect(params(sent.at(-1))['attachments'][1]).not.toHaveProperty('data');
    expect(client.pending).toBe(0);
  });

  it('drops the line breaks of wrapped base64 before cutting it, so every chunk is whole 4-character groups', async () => {
    const { client, sent } = asyncBridge(okAll);
    const plain = bigBase64(600_000);
    const wrapped = (plain.match(/.{1,76}/g) as string[]).join('\n');
    await client.sendMessage({ content: '', attachments: [{ name: 'a.png', type: 'image/png', data: wrapped }] });
    const chunks = sent.filter((command) => command.method === 'appendAttachment').map((c) => params(c)['data']);
    expect(chunks.join('')).toBe(plain);
    expect(chunks.every((chunk: string) => chunk.length % 4 === 0)).toBe(true);
  });

  it('sends small attachments, and data that is not base64, inline and at once, as before', () => {
    const { client, sent } = asyncBridge(okAll);
    void client.sendMessage({ content: 'a', attachments: [{ name: 'a.txt', type: 'text/plain', data: 'aGk=' }] });
    const notBase64 = '*'.repeat(CHUNK_MAX + 4);
    void client.sendMessage({ content: 'b', attachments: [{ name: 'b.txt', type: 'text/plain', data: notBase64 }] });
    expect(sent.map((command) => [command.method, params(command)['attachments'][0]['data'].length])).toEqual([
      ['sendMessage', 4],
      ['sendMessage', CHUNK_MAX + 4],
    ]);
  });

  it('keeps messages in the order they were called: a text sent after a photo waits for the photo to be handed over', async () => {
    const { client, sent } = asyncBridge(okAll);
    const photo = client.sendMessage({
      content: 'photo',
      attachments: [{ name: 'p.jpg', type: 'image/jpeg', data: bigBase64(800_000) }],
    });
    const text = client.sendMessage({ content: 'and a caption' });
    await Promise.all([photo, text]);
    const messages = sent.filter((command) => command.method === 'sendMessage').map((c) => params(c)['content']);
    expect(messages).toEqual(['photo', 'and a caption']);
    expect(sent.findIndex((command) => params(command)?.['content'] === 'and a caption')).toBe(sent.length - 1);
  });

  it("rejects the message with a refused chunk's error and does not send it; the next message still goes", async () => {
    const refusal = {
      type: 'error',
      code: 'file_too_large',
      retryable: false,
      message: '[POST /messages] 413: upload "x" is too big',
    };
    const { client, sent } = asyncBridge((command) =>
      command.method === 'appendAttachment' && params(command)['index'] === 1 ? { ok: false, error: refusal } : okAll(),
    );
    const big = client.sendMessage({
      content: 'video',
      attachments: [{ name: 'v.mp4', type: 'video/mp4', data: bigBase64(1_000_000) }],
    });
    const next = client.sendMessage({ content: 'next' });
    await expect(big).rejects.toMatchObject({ name: 'ChatBridgeError', code: 'file_too_large' });
    await expect(next).resolves.toEqual({ fine: true });
    expect(sent.filter((command) => command.method === 'appendAttachment')).toHaveLength(2);
    expect(sent.filter((command) => command.method === 'sendMessage').map((c) => params(c)['content'])).toEqual([
      'next',
    ]);
  });

  it('gives the page a task boundary between chunks when the bridge answers on the same thread (a browser page)', async () => {
    vi.useFakeTimers();
    const sent: ClientCommand[] = [];
    const client: ChatClient = createClient({
      // As ChatBridge.receive in a browser page: the answer comes in a microtask of the same task.
      send(command) {
        sent.push(command);
        queueMicrotask(() => client.handle({ type: 'response', id: command.id, ok: true, result: {} }));
      },
    });
    const done = client.sendMessage({
      content: '',
      attachments: [{ name: 'p.jpg', type: 'image/jpeg', data: bigBase64(1_000_000) }],
    });
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(sent.map((command) => command.method)).toEqual(['appendAttachment']);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((command) => command.method)).toEqual(['appendAttachment', 'appendAttachment']);
    await vi.runAllTimersAsync();
    await done;
    expect(sent.map((command) => command.method)).toEqual([
      'appendAttachment',
      'appendAttachment',
      'appendAttachment',
      'sendMessage',
    ]);
  });
});
