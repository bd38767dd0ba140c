import { describe, expect, it } from 'vitest';
import type { Api } from '../../../../bridge/backend/api.js';
import type { Outbox } from '../../../../bridge/backend/outbox.js';
import type { OutboxRecord } from '../../../../bridge/backend/outbox-record.js';
import type { CommandContext } from '../../../../bridge/dispatch/command-runner.js';
import { CHATWOOT_TYPES } from '../../../../bridge/protocol/service-rules.js';
import { createHostCommands } from '../../../../bridge/dispatch/host-commands.js';
import { failure } from '../../../helpers/failure.js';

/** An Api that records its calls and answers each with what it was called with. */
function recordingApi() {
  const calls: Array<[string, unknown]> = [];
  const api: Api = {
    init: async () => (calls.push(['init', undefined]), { inbox: 'Support' }),
    getConversation: async (contact) => (calls.push(['getConversation', contact]), { id: 1 }),
    createConversation: async (contact) => (calls.push(['createConversation', contact]), { id: 2 }),
    sendMessage: async (message: OutboxRecord) => (calls.push(['sendMessage', message]), { id: 3 }),
    reachable: async () => true,
  };
  return { api, calls };
}

const timers = { setTimeout: () => undefined, clearTimeout: () => undefined };

function setup() {
  const { api, calls } = recordingApi();
  const queued: Array<Omit<OutboxRecord, 'v'>> = [];
  const cancelled: string[] = [];
  const outbox: Outbox = {
    // The command's answer is the message's own outcome: here, at once.
    enqueue: async (message) => (queued.push(message), { delivered: message.messageId }),
    drain: () => undefined,
    list: async () => [],
    cancel: async (messageId) => (cancelled.push(messageId), messageId === 'waiting'),
    get size() {
      return queued.length;
    },
    destroy: () => undefined,
  };
  const commands = createHostCommands(api, outbox, 1000, timers);
  const controller = new AbortController();
  const context: CommandContext = { id: 'cmd-1', signal: controller.signal };
  /**
   * Runs a command as the runner does: params through the schema first, and a run that throws
   * before it returns its promise (sendMessage's rules) failing alike.
   */
  const run = (name: string, params: unknown = {}) => {
    const spec = commands[name];
    if (spec === undefined) throw new Error(`no command ${name}`);
    const parsed = spec.schema.safeParse(params);
    if (!parsed.success) throw new Error(`params refused: ${parsed.error.message}`);
    return new Promise<unknown>((resolve) => resolve(spec.run(parsed.data, context)));
  };
  return { run, calls, queued, cancelled, commands, controller };
}

describe('host commands', () => {
  it('are exactly init, getConversation, createConversation, sendMessage, appendAttachment, listOutbox and cancelMessage', () => {
    expect(Object.keys(setup().commands)).toEqual([
      'init',
      'getConversation',
      'createConversation',
      'sendMessage',
      'appendAttachment',
      'listOutbox',
      'cancelMessage',
    ]);
  });

  it('sendMessage is untimed: it is answered when its message is, not by the command timeout', () => {
    expect(setup().commands['sendMessage']?.untimed).toBe(true);
    expect(setup().commands['getConversation']?.untimed).toBeUndefined();
  });

  it('listOutbox answers {messages}; cancelMessage answers {cancelled}', async () => {
    const t = setup();
    expect(await t.run('listOutbox')).toEqual({ messages: [] });
    expect(await t.run('cancelMessage', { messageId: 'waiting' })).toEqual({ cancelled: true });
    expect(await t.run('cancelMessage', { messageId: 'gone' })).toEqual({ cancelled: false });
    expect(t.cancelled).toEqual(['waiting', 'gone']);
  });

  it('init answers {config} with what the API gives', async () => {
    expect(await setup().run('init')).toEqual({ config: { inbox: 'Support' } });
  });

  it('getConversation and createConversation hand the contact to the API once its rules are met', async () => {
    const t = setup();
    await t.run('getConversation', { name: 'Ada', email: 'ada@example.com' });
    await t.run('createConversation', { identifier: 'user-1' });
    expect(t.calls).toEqual([
      ['getConversation', { name: 'Ada', email: 'ada@example.com' }],
      ['createConversation', { identifier: 'user-1' }],
    ]);
  });

  it.each([
    ['getConversation', '[getConversation] 422: invalid email'],
    ['createConversation', '[createConversation] 422: invalid email'],
    ['sendMessage', '[sendMessage] 422: invalid email'],
  ])('%s refuses an invalid e-mail with validation_error before any API call', async (name, message) => {
    const t = setup();
    const event = await failure(t.run(name, { email: 'not-an-email', content: 'Hi' }));
    expect(event).toMatchObject({ code: 'validation_error', status: 422, message });
    expect(t.calls).toEqual([]);
    expect(t.queued).toEqual([]);
  });

  it('sendMessage refuses a message that breaks a service rule before anything is queued', async () => {
    const t = setup();
    expect(await failure(t.run('sendMessage', { content: '  ' }))).toMatchObject({ code: 'empty_message' });
    expect(
      await failure(t.run('sendMessage', { attachments: [{ name: 'big.png', type: 'image/png', size: 1001 }] })),
    ).toMatchObject({ code: 'file_too_large', status: 413 });
    expect(t.queued).toEqual([]);
  });

  it("sendMessage enqueues one message under the messageId it came with and answers with that message's own outcome", async () => {
    const t = setup();
    // Minted as the command came in, when the host gave none (bridge.ts, protocol/message-ids.ts).
    const result = await t.run('sendMessage', { content: 'Hello', name: 'Ada', messageId: 'generated-1' });
    expect(t.queued).toEqual([
      { messageId: 'generated-1', content: 'Hello', files: undefined, contact: { name: 'Ada' } },
    ]);
    expect(result).toEqual({ delivered: 'generated-1' });
  });

  it('sendMessage turns base64 attachments into bytes for storage and upload', async () => {
    const t = setup();
    await t.run('sendMessage', { attachments: [{ name: 'a.txt', type: 'text/plain', data: 'aGk=' }] });
    const file = t.queued[0]?.files?.[0];
    expect(file?.data).toBeInstanceOf(ArrayBuffer);
    expect(new TextDecoder().decode(file?.data as ArrayBuffer)).toBe('hi');
  });

  it('appendAttachment answers each chunk with the size so far; sendMessage sends the assembled upload by uploadId', async () => {
    const t = setup();
    expect(await t.run('appendAttachment', { uploadId: 'up', index: 0, data: 'aGVs' })).toEqual({ size: 3 });
    expect(await t.run('appendAttachment', { uploadId: 'up', index: 1, data: 'bG8=' })).toEqual({ size: 5 });
    await t.run('sendMessage', {
      content: 'photo',
      attachments: [
        { name: 'inline.txt', type: 'text/plain', data: 'aGk=' },
        { name: 'hello.txt', type: 'text/plain', uploadId: 'up' },
      ],
    });
    const files = t.queued[0]?.files ?? [];
    // Inline base64 becomes an ArrayBuffer; an upload, a Blob made of its chunks.
    expect(files[1]?.data).toBeInstanceOf(Blob);
    const text = (data: ArrayBuffer | Blob | undefined) =>
      data instanceof Blob ? data.text() : new TextDecoder().decode(data as ArrayBuffer);
    expect(await Promise.all(files.map(async (file) => [file.name, await text(file.data)]))).toEqual([
      ['inline.txt', 'hi'],
      ['hello.txt', 'hello'],
    ]);
  });

  it('sendMessage naming an unknown upload is refused with parse_error, and nothing is queued', async () => {
    const t = setup();
    const event = await failure(
      t.run('sendMessage', { attachments: [{ name: 'a.png', type: 'image/png', uploadId: 'never-sent' }] }),
    );
    expect(event).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: '[sendMessage] unknown upload "never-sent"',
    });
    expect(t.queued).toEqual([]);
  });

  it('sendMessage refused by a rule (an unsupported type) keeps its uploads for a corrected message', async () => {
    const t = setup();
    await t.run('appendAttachment', { uploadId: 'kept', index: 0, data: 'aGk=' });
    const event = await failure(
      t.run('sendMessage', { attachments: [{ name: 'a.exe', type: 'application/x-msdownload', uploadId: 'kept' }] }),
    );
    expect(event.code).toBe('unsupported_file_type');
    await t.run('sendMessage', { attachments: [{ name: 'a.txt', type: 'text/plain', uploadId: 'kept' }] });
    expect(t.queued).toHaveLength(1);
  });

  it('getConversation hands the API the command signal, so its work stops once the command is answered', async () => {
    const t = setup();
    let seen: AbortSignal | undefined;
    const commands = createHostCommands(
      { ...recordingApi().api, getConversation: async (_contact, signal) => ((seen = signal), {}) },
      {} as Outbox,
      1,
      timers,
    );
    await commands['getConversation']?.run({}, { id: 'c', signal: t.controller.signal });
    expect(seen).toBe(t.controller.signal);
  });

  it('sendMessage keeps a messageId the host gave, so a resend carries the same echo_id', async () => {
    const t = setup();
    await t.run('sendMessage', { content: 'Hello', messageId: 'host-7' });
    expect(t.queued[0]?.messageId).toBe('host-7');
  });
});

describe("the backend's file types", () => {
  it("checks sendMessage's attachments against the types it is given (Chatwoot's), the service's without", async () => {
    const zip = { attachments: [{ name: 'logs.zip', type: 'application/zip', size: 10 }] };
    const enqueued: unknown[] = [];
    const outbox = { enqueue: async (record: unknown) => (enqueued.push(record), record) } as unknown as Outbox;
    const context = { id: 'z', signal: new AbortController().signal };
    const chatwoot = createHostCommands(recordingApi().api, outbox, 1000, timers, CHATWOOT_TYPES);
    await chatwoot['sendMessage']?.run({ ...zip, messageId: 'm-1' }, context);
    expect(enqueued).toHaveLength(1);
    const contract = createHostCommands(recordingApi().api, outbox, 1000, timers);
    expect(() => contract['sendMessage']?.run({ ...zip, messageId: 'm-2' }, context)).toThrow(
      expect.objectContaining({ event: expect.objectContaining({ code: 'unsupported_file_type' }) }),
    );
    expect(enqueued).toHaveLength(1);
  });
});
