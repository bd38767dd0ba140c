import { describe, expect, it } from 'vitest';
import type { Api, OutgoingMessage } from '../../../bridge/backend/api.js';
import type { Outbox, OutboxEntry } from '../../../bridge/backend/outbox.js';
import type { CommandContext } from '../../../bridge/dispatch/command-runner.js';
import { createHostCommands } from '../../../bridge/dispatch/host-commands.js';
import { isBridgeError } from '../../../bridge/outbound/errors.js';

/** An Api that records its calls and answers each with what it was called with. */
function recordingApi() {
  const calls: Array<[string, unknown]> = [];
  const api: Api = {
    init: async () => (calls.push(['init', undefined]), { inbox: 'Support' }),
    getConversation: async (contact) => (calls.push(['getConversation', contact]), { id: 1 }),
    createConversation: async (contact) => (calls.push(['createConversation', contact]), { id: 2 }),
    sendMessage: async (message: OutgoingMessage) => (calls.push(['sendMessage', message]), { id: 3 }),
  };
  return { api, calls };
}

function setup() {
  const { api, calls } = recordingApi();
  const queued: OutboxEntry[] = [];
  let drains = 0;
  const outbox: Outbox = {
    enqueue: (entry) => void queued.push(entry),
    drain: async () => void drains++,
    get size() {
      return queued.length;
    },
    destroy: () => undefined,
  };
  const settled: OutboxEntry[] = [];
  const commands = createHostCommands({
    api,
    outbox,
    maxFileSize: 1000,
    newMessageId: () => 'generated-1',
    awaitSettled: async (entry) => (settled.push(entry), { delivered: entry.messageId }),
  });
  let detached = 0;
  const context: CommandContext = { id: 'cmd-1', detach: () => void detached++ };
  /** Runs a command as the runner does: params through the schema first. */
  const run = (name: string, params: unknown = {}) => {
    const spec = commands[name];
    if (spec === undefined) throw new Error(`no command ${name}`);
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) throw new Error(`params refused: ${parsed.error.message}`);
    return spec.run(parsed.data, context);
  };
  return { run, calls, queued, settled, commands, drains: () => drains, detached: () => detached };
}

async function refusal(promise: Promise<unknown>) {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isBridgeError(thrown)) throw new Error(`expected a BridgeError, got ${String(thrown)}`);
  return thrown.event;
}

describe('host commands', () => {
  it('are exactly init, getConversation, createConversation and sendMessage', () => {
    expect(Object.keys(setup().commands)).toEqual(['init', 'getConversation', 'createConversation', 'sendMessage']);
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
    ['createConversation', '[POST /conversations] 422: invalid email'],
    ['sendMessage', '[sendMessage] 422: invalid email'],
  ])('%s refuses an invalid e-mail with validation_error before any API call', async (name, message) => {
    const t = setup();
    const event = await refusal(t.run(name, { email: 'not-an-email', content: 'Hi' }));
    expect(event).toMatchObject({ code: 'validation_error', status: 422, message });
    expect(t.calls).toEqual([]);
    expect(t.queued).toEqual([]);
  });

  it('sendMessage refuses a message that breaks a service rule before anything is queued', async () => {
    const t = setup();
    expect(await refusal(t.run('sendMessage', { content: '  ' }))).toMatchObject({ code: 'empty_message' });
    expect(
      await refusal(t.run('sendMessage', { attachments: [{ name: 'big.png', type: 'image/png', size: 1001 }] })),
    ).toMatchObject({ code: 'file_too_large', status: 413 });
    expect(t.queued).toEqual([]);
  });

  it('sendMessage queues one entry under the command id with a generated messageId, then drains', async () => {
    const t = setup();
    const result = await t.run('sendMessage', { content: 'Hello', name: 'Ada' });
    expect(t.queued).toEqual([
      {
        commandId: 'cmd-1',
        messageId: 'generated-1',
        content: 'Hello',
        attachments: undefined,
        contact: { name: 'Ada' },
      },
    ]);
    expect(t.settled[0]).toBe(t.queued[0]);
    expect(result).toEqual({ delivered: 'generated-1' });
    expect(t.drains()).toBe(1);
    expect(t.detached()).toBe(1);
  });

  it('sendMessage keeps a messageId the host gave, so a resend carries the same echo_id', async () => {
    const t = setup();
    await t.run('sendMessage', { content: 'Hello', messageId: 'host-7' });
    expect(t.queued[0]?.messageId).toBe('host-7');
  });
});
