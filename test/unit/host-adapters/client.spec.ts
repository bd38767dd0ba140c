/**
 * The host-side typed client: one command per call, settled by the response with its id.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorEvent } from '../../../bridge/protocol/errors.js';
import { NAME_MAX } from '../../../bridge/protocol/limits.js';
import {
  ChatBridgeError,
  createClient,
  DEFAULT_CLIENT_TIMEOUT,
  type ChatClient,
  type ClientTransport,
  type OutboundMessage,
} from '../../../host-adapters/client.js';
import { createBridge } from '../../../bridge/bridge.js';
import { normalizeOptions } from '../../../bridge/options.js';
import { createInMemoryEnvironment } from '../../../tools/testing/in-memory-environment.js';
import { startReferenceBackend } from '../../../reference-backend/server.mjs';
import { storedMessages } from '../../helpers/page-servers.js';

const WEBSITE_TOKEN = 'wt_typed_client_5e2b9d';

type Command = Parameters<ClientTransport['send']>[0];

function recordingTransport() {
  const sent: Command[] = [];
  return { sent, transport: { send: (command: Command) => void sent.push(command) } };
}

const validationError: ErrorEvent = {
  type: 'error',
  code: 'validation_error',
  retryable: false,
  message: '[POST /conversations] 422: email is invalid',
  status: 422,
  errors: { email: ['is invalid'] },
};

/** Command ids without their per-session part: `c1.k3x9a` -> `c1`. */
const withoutSession = (commands: Array<{ id: string }>) => commands.map((c) => ({ ...c, id: c.id.split('.')[0] }));

describe('createClient', () => {
  it('sends each call as one {id, method, params} command, omitting params when there are none', () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);

    void client.init();
    void client.sendMessage({ content: 'Hi', messageId: 'm-1' });
    void client.getConversation({ email: 'a@example.com' });
    void client.createConversation();
    void client.call('custom', { x: 1 });

    expect(withoutSession(sent)).toEqual([
      { id: 'c1', method: 'init' },
      { id: 'c2', method: 'sendMessage', params: { content: 'Hi', messageId: 'm-1' } },
      { id: 'c3', method: 'getConversation', params: { email: 'a@example.com' } },
      { id: 'c4', method: 'createConversation' },
      { id: 'c5', method: 'custom', params: { x: 1 } },
    ]);
    expect(Object.keys(sent[0] as object)).toEqual(['id', 'method']);
    expect(client.pending).toBe(5);
  });

  it('prefixes ids with the given prefix so two clients on one bridge do not collide', () => {
    const a = recordingTransport();
    const b = recordingTransport();
    void createClient(a.transport, 'rn-').init();
    void createClient(b.transport, 'web-').init();
    expect(a.sent[0]?.id).toMatch(/^rn-1\.[0-9a-z]+$/);
    expect(b.sent[0]?.id).toMatch(/^web-1\.[0-9a-z]+$/);
  });

  it('settles each call with the response carrying its id, whatever order responses arrive in', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const first = client.call('getConversation');
    const second = client.call('sendMessage', { content: 'Hi' });
    const third = client.init();
    const [id1, id2, id3] = sent.map((command) => command.id) as [string, string, string];

    expect(client.handle({ type: 'response', id: id3, ok: true, result: { config: { inbox: 1 } } })).toBe(true);
    expect(client.handle({ type: 'response', id: id1, ok: true, result: { id: 'conv-1' } })).toBe(true);
    expect(client.handle({ type: 'response', id: id2, ok: true, result: { id: 'msg-2' } })).toBe(true);

    await expect(first).resolves.toEqual({ id: 'conv-1' });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
    await expect(third).resolves.toEqual({ config: { inbox: 1 } });
    expect(client.pending).toBe(0);
  });

  it('rejects a failed call with a ChatBridgeError carrying code, status, errors and the event', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const call = client.createConversation({ email: 'not-an-email' });

    client.handle({ type: 'response', id: sent[0]?.id ?? '', ok: false, error: validationError });

    const error = await call.then(
      () => expect.unreachable('the call should have been rejected'),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ChatBridgeError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ChatBridgeError',
      message: validationError.message,
      code: 'validation_error',
      status: 422,
      errors: { email: ['is invalid'] },
      event: validationError,
    });
  });

  it('leaves status and errors undefined when the error event has none', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const call = client.init();
    client.handle({
      type: 'response',
      id: sent[0]?.id ?? '',
      ok: false,
      error: { type: 'error', code: 'network_error', retryable: true, message: '[GET /config] network failure' },
    });

    const error = (await call.catch((thrown: unknown) => thrown)) as ChatBridgeError;
    expect(error.code).toBe('network_error');
    expect(error.status).toBeUndefined();
    expect(error.errors).toBeUndefined();
  });

  it('returns false and settles nothing for a response to an id it never sent', () => {
    const { transport } = recordingTransport();
    const client = createClient(transport);
    void client.init();

    expect(client.handle({ type: 'response', id: 'someone-else-1', ok: true, result: null })).toBe(false);
    expect(client.pending).toBe(1);
  });

  it('returns false for events that are not responses', () => {
    const client = createClient(recordingTransport().transport);
    expect(client.handle({ type: 'ready' })).toBe(false);
    expect(client.handle({ type: 'widget', event: 'loaded', data: {} })).toBe(false);
    expect(client.handle(validationError)).toBe(false);
  });

  it('returns false for a second response to an id it already settled', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const call = client.init();
    const id = sent[0]?.id ?? '';

    expect(client.handle({ type: 'response', id, ok: true, result: { config: {} } })).toBe(true);
    expect(client.handle({ type: 'response', id, ok: false, error: validationError })).toBe(false);
    await expect(call).resolves.toEqual({ config: {} });
  });

  it('close() rejects every waiting call with code closed and ignores their later responses', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const calls = [client.init(), client.sendMessage({ content: 'Hi' })];

    client.close();

    for (const call of calls) await expect(call).rejects.toMatchObject({ name: 'ChatBridgeError', code: 'closed' });
    await expect(calls[0]).rejects.toThrow('[init] the chat-bridge client was closed');
    expect(client.pending).toBe(0);
    expect(client.handle({ type: 'response', id: sent[0]?.id ?? '', ok: true, result: null })).toBe(false);
  });

  it('rejects the call with network_error when the transport throws, and forgets it', async () => {
    const client = createClient({
      send() {
        throw new Error('the WebView is not mounted yet');
      },
    });

    await expect(client.init()).rejects.toMatchObject({
      code: 'network_error',
      message: '[init] could not be handed to the bridge: the WebView is not mounted yet',
    });
    expect(client.pending).toBe(0);
  });
});

describe('command ids across reloads', () => {
  it("gives each page a different id session, so a new page never reuses an earlier page's ids", () => {
    const first = recordingTransport();
    const second = recordingTransport();
    void createClient(first.transport, { idPrefix: 'c', random: () => 0.25 }).init();
    void createClient(second.transport, { idPrefix: 'c', random: () => 0.75 }).init();
    expect(first.sent[0]?.id).not.toBe(second.sent[0]?.id);
    expect(first.sent[0]?.id).toMatch(/^c1\./);
  });

  it('starts each client at a random session by default', () => {
    const ids = new Set(
      Array.from({ length: 50 }, () => {
        const { sent, transport } = recordingTransport();
        void createClient(transport).init();
        return sent[0]?.id;
      }),
    );
    expect(ids.size).toBe(50);
  });
});

/** A transport that records what it was handed and can refuse (`false`) or throw on demand. */
function controllableTransport() {
  const sent: Array<{ command: Command; json: string }> = [];
  const state = { accept: true as boolean, failure: undefined as unknown };
  return {
    sent,
    state,
    methods: () => sent.map((entry) => entry.command.method),
    transport: {
      send(command: Command, json: string) {
        if (state.failure !== undefined) throw state.failure;
        if (!state.accept) return false;
        sent.push({ command, json });
        return true;
      },
    },
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<ChatBridgeError> {
  const error = await promise.then(
    () => expect.unreachable('the call should have been rejected'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChatBridgeError);
  return error as ChatBridgeError;
}

const response = (id: string | undefined, result: unknown = null) => ({ type: 'response', id, ok: true, result });

describe('every call settles exactly once', () => {
  it('rejects a call whose response has no "ok" with parse_error instead of throwing or leaving it pending', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const call = client.init();

    expect(client.handle({ type: 'response', id: sent[0]?.id })).toBe(true);

    const error = await rejectionOf(call);
    expect(error.code).toBe('parse_error');
    expect(error.message).toMatch(/^\[init\] .*"ok"/);
    expect(client.pending).toBe(0);
  });

  it('settles a call whose answer arrives before send returns (a synchronous channel)', async () => {
    const client: ReturnType<typeof createClient> = createClient({
      send: (command) => void client.handle({ type: 'response', id: command.id, ok: true, result: 'at once' }),
    });
    await expect(client.init()).resolves.toBe('at once');
    expect(client.pending).toBe(0);
  });

  it('rejects with parse_error when ok:false carries no usable error event', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const call = client.init();
    client.handle({ type: 'response', id: sent[0]?.id, ok: false, error: 'boom' });
    expect((await rejectionOf(call)).code).toBe('parse_error');
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'response'],
    ['a number', 7],
    ['a response without id', { type: 'response', ok: true }],
    ['a response with a numeric id', { type: 'response', id: 1, ok: true }],
    ['a message event without messageId', { type: 'message', state: 'sent' }],
  ])('returns false for %s, without throwing, and settles nothing', (_, message) => {
    const client = createClient(recordingTransport().transport);
    void client.init();
    expect(client.handle(message)).toBe(false);
    expect(client.pending).toBe(1);
  });
});

describe('commands refused before sending', () => {
  it('rejects params that cannot be serialised (a cycle, a BigInt) with parse_error and sends nothing', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const cyclic: Record<string, unknown> = { content: 'hi' };
    cyclic['self'] = cyclic;

    const cycleError = await rejectionOf(client.call('sendMessage', cyclic));
    const bigintError = await rejectionOf(client.call('custom', { n: 10n }));

    expect(cycleError.code).toBe('parse_error');
    expect(cycleError.message).toMatch(/^\[sendMessage\] params cannot be serialised as JSON/);
    expect(bigintError.code).toBe('parse_error');
    expect(sent).toEqual([]);
    expect(client.pending).toBe(0);
  });

  it("rejects a call whose id would be longer than the bridge's id limit with parse_error and sends nothing", async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport, { idPrefix: 'x'.repeat(NAME_MAX) });

    const error = await rejectionOf(client.init());

    expect(error.code).toBe('parse_error');
    expect(error.message).toMatch(/over the bridge's 128/);
    expect(sent).toEqual([]);
  });

  it('hands the transport the command as JSON text too, the same command it checked', () => {
    const { sent, transport } = controllableTransport();
    void createClient(transport).sendMessage({ content: 'Hi', messageId: 'm-9' });
    expect(JSON.parse(sent[0]?.json ?? '')).toEqual(sent[0]?.command);
  });
});

describe('close()', () => {
  it('rejects waiting calls with code closed, drops held ones unsent, and rejects later calls at once', async () => {
    const { sent, transport } = controllableTransport();
    const client = createClient(transport);
    const sentCall = client.init();
    client.hold();
    const heldCall = client.sendMessage({ content: 'never sent' });

    client.close();
    client.release();
    const later = client.getConversation();

    for (const call of [sentCall, heldCall, later]) expect((await rejectionOf(call)).code).toBe('closed');
    expect(sent.map((entry) => entry.command.method)).toEqual(['init']);
    expect(client.pending).toBe(0);
  });
});

describe('the client-side deadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('rejects an unanswered call with timeout a little after the bridge would have answered it', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const call = client.init();
    const settled = vi.fn();
    call.then(settled, settled);

    expect(DEFAULT_CLIENT_TIMEOUT).toBe(55_000);
    await vi.advanceTimersByTimeAsync(54_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);

    const error = await rejectionOf(call);
    expect(error.code).toBe('timeout');
    expect(error.message).toBe('[init] no answer within 55000 ms');
    expect(client.pending).toBe(0);
    expect(client.handle(response(sent[0]?.id))).toBe(false);
  });

  it('takes its deadline from the timeout option; Infinity means none', async () => {
    const short = createClient(recordingTransport().transport, { timeout: 100 });
    const never = createClient(recordingTransport().transport, { timeout: Infinity });
    const shortCall = rejectionOf(short.init());
    void never.init();

    await vi.advanceTimersByTimeAsync(3_600_000);

    expect((await shortCall).code).toBe('timeout');
    expect(never.pending).toBe(1);
  });

  it('times out a held call too, which is then never sent', async () => {
    const { sent, transport } = controllableTransport();
    const client = createClient(transport, { timeout: 1_000 });
    client.hold();
    const call = rejectionOf(client.init());

    await vi.advanceTimersByTimeAsync(1_000);
    client.release();

    expect((await call).code).toBe('timeout');
    expect(sent).toEqual([]);
  });
});

describe('hold() and release()', () => {
  it('keeps calls while held and sends them in order at release, later ones straight away', () => {
    const { methods, transport } = controllableTransport();
    const client = createClient(transport);
    client.hold();
    void client.init();
    void client.getConversation();
    expect(methods()).toEqual([]);

    client.release();
    void client.createConversation();

    expect(methods()).toEqual(['init', 'getConversation', 'createConversation']);
  });

  it('keeps a call the transport cannot take now (false), and every later one, in order, for the next release', () => {
    const { methods, state, transport } = controllableTransport();
    const client = createClient(transport);
    state.accept = false;
    void client.init();
    state.accept = true;
    void client.getConversation(); // held behind init, not overtaking it
    expect(methods()).toEqual([]);

    client.release();

    expect(methods()).toEqual(['init', 'getConversation']);
    expect(client.pending).toBe(2);
  });

  it('rejects the call with network_error naming what the transport threw, Error or not', async () => {
    const { state, transport } = controllableTransport();
    const client = createClient(transport);
    state.failure = new Error('the native bridge is gone');
    const first = rejectionOf(client.init());
    state.failure = 'plain string';
    const second = rejectionOf(client.init());

    expect(await first).toMatchObject({
      code: 'network_error',
      message: '[init] could not be handed to the bridge: the native bridge is gone',
    });
    expect((await second).message).toBe('[init] could not be handed to the bridge: plain string');
    expect(client.pending).toBe(0);
  });
});

describe('a page that went away', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('rejects the calls it took with page_gone, and leaves held calls for the next page', async () => {
    const { sent, methods, transport } = controllableTransport();
    const client = createClient(transport);
    const taken = client.init();
    client.hold();
    const held = client.getConversation();

    client.pageGone();
    client.release();

    const error = await rejectionOf(taken);
    expect(error.code).toBe('page_gone');
    expect(error.message).toBe('[init] the page that took it went away before answering');
    expect(methods()).toEqual(['init', 'getConversation']);
    client.handle(response(sent[1]?.command.id, { id: 3 }));
    await expect(held).resolves.toEqual({ id: 3 });
  });

  it('does not fail a sendMessage: the next page settles it from its message events (sent resolves)', async () => {
    const { sent, transport } = controllableTransport();
    const client = createClient(transport);
    const message = client.sendMessage({ content: 'Hi', messageId: 'm-1' });

    client.pageGone();
    const settled = vi.fn();
    message.then(settled, settled);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).not.toHaveBeenCalled();

    const event = { type: 'message', messageId: 'm-1', state: 'sent', attempt: 1, result: { id: 42 } };
    // Still an event for the app's UI, after settling the call.
    expect(client.handle(event)).toBe(false);
    await expect(message).resolves.toEqual({ id: 42 });
    expect(sent[0]?.command).toMatchObject({ method: 'sendMessage', params: { messageId: 'm-1' } });
  });

  it('rejects a followed sendMessage with the error of its failed event', async () => {
    const client = createClient(controllableTransport().transport);
    const message = client.sendMessage({ content: 'Hi', messageId: 'm-2' });
    client.pageGone();
    client.handle({
      type: 'message',
      messageId: 'm-2',
      state: 'failed',
      attempt: 3,
      error: { type: 'error', code: 'server_error', retryable: true, message: '[POST /messages] 500', status: 500 },
    });
    expect(await rejectionOf(message)).toMatchObject({ code: 'server_error', status: 500 });
  });

  it('keeps following a message its outbox holds past any deadline, asking the next page with listOutbox', async () => {
    const { sent, transport } = controllableTransport();
    const client = createClient(transport);
    const kept = client.sendMessage({ content: 'kept', messageId: 'm-kept' });
    const lost = client.sendMessage({ content: 'lost', messageId: 'm-lost' });

    client.pageGone();
    const ask = sent.at(-1)?.command;
    expect(ask).toMatchObject({ method: 'listOutbox' });
    client.handle(response(ask?.id, { messages: [{ messageId: 'm-kept', state: 'queued', attempt: 1 }] }));

    const error = await rejectionOf(lost);
    expect(error.code).toBe('page_gone');
    expect(error.message).toMatch(/resend with the same messageId/);
    await vi.advanceTimersByTimeAsync(10 * DEFAULT_CLIENT_TIMEOUT);
    expect(client.pending).toBe(1);
    client.handle({ type: 'message', messageId: 'm-kept', state: 'sent', attempt: 2, result: 'ok' });
    await expect(kept).resolves.toBe('ok');
  });

  it('lets the deadline decide when the next page cannot list its outbox', async () => {
    const { sent, transport } = controllableTransport();
    const client = createClient(transport);
    const message = rejectionOf(client.sendMessage({ content: 'Hi', messageId: 'm-3' }));
    client.pageGone();
    const ask = sent.at(-1)?.command;
    client.handle({
      type: 'response',
      id: ask?.id,
      ok: false,
      error: {
        type: 'error',
        code: 'unknown_method',
        retryable: false,
        message: '[host command] unknown method "listOutbox"',
      },
    });

    await vi.advanceTimersByTimeAsync(DEFAULT_CLIENT_TIMEOUT);
    expect((await message).code).toBe('timeout');
  });
});

describe('sendMessage and its messageId', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives each message its own messageId when the app gives none, and keeps one it gives', () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    void client.sendMessage({ content: 'a' });
    void client.sendMessage({ content: 'b' });
    void client.sendMessage({ content: 'c', messageId: 'mine' });

    const ids = sent.map((command) => (command.params as { messageId: string }).messageId);
    expect(ids[2]).toBe('mine');
    expect(ids[0]).not.toBe(ids[1]);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(NAME_MAX);
  });

  it('has no deadline once the bridge reports the message queued in its outbox', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const message = client.sendMessage({ content: 'offline', messageId: 'm-4' });
    client.handle({ type: 'message', messageId: 'm-4', state: 'queued', attempt: 0 });

    await vi.advanceTimersByTimeAsync(10 * DEFAULT_CLIENT_TIMEOUT);
    expect(client.pending).toBe(1);

    expect(client.handle(response(sent[0]?.id, { id: 5 }))).toBe(true);
    await expect(message).resolves.toEqual({ id: 5 });
    // The sent event that follows the response finds nothing left to settle.
    expect(client.handle({ type: 'message', messageId: 'm-4', state: 'sent', attempt: 1, result: { id: 5 } })).toBe(
      false,
    );
  });

  it('cancelMessage sends {method: "cancelMessage", params: {messageId}}', () => {
    const { sent, transport } = recordingTransport();
    void createClient(transport).cancelMessage({ messageId: 'm-5' });
    expect(sent[0]).toMatchObject({ method: 'cancelMessage', params: { messageId: 'm-5' } });
  });

  it('listOutbox sends {method: "listOutbox"} without params and resolves with the records', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const listed = client.listOutbox();
    expect(Object.keys(sent[0] as object)).toEqual(['id', 'method']);
    expect(sent[0]?.method).toBe('listOutbox');
    const messages = [{ messageId: 'm-6', state: 'queued', attempt: 0 }];
    expect(client.handle({ type: 'response', id: sent[0]?.id, ok: true, result: { messages } })).toBe(true);
    await expect(listed).resolves.toEqual({ messages });
  });
});

describe('sendMessage onProgress', () => {
  const sending = (messageId: string, sentBytes?: number) => ({
    type: 'message',
    messageId,
    state: 'sending',
    attempt: 1,
    ...(sentBytes === undefined ? {} : { progress: { sentBytes, totalBytes: 1000 } }),
  });

  it("is told this message's upload progress reports, in order, and no other message's", () => {
    const { transport } = recordingTransport();
    const client = createClient(transport);
    const reports: unknown[] = [];
    void client.sendMessage({ content: 'photo', messageId: 'm-up' }, { onProgress: (p) => reports.push(p) });
    void client.sendMessage({ content: 'other', messageId: 'm-other' });

    client.handle(sending('m-up')); // the attempt starts: no progress yet
    client.handle(sending('m-up', 400));
    client.handle(sending('m-other', 100));
    // Still an event for the app's onEvent: handle says it was not a response.
    expect(client.handle(sending('m-up', 1000))).toBe(false);

    expect(reports).toEqual([
      { sentBytes: 400, totalBytes: 1000 },
      { sentBytes: 1000, totalBytes: 1000 },
    ]);
  });

  it('a callback that throws does not stop handle: the error is thrown apart, and the message still settles', async () => {
    vi.useFakeTimers();
    try {
      const client = createClient(recordingTransport().transport);
      const message = client.sendMessage(
        { content: 'photo', messageId: 'm-throws' },
        {
          onProgress: () => {
            throw new Error('the app broke');
          },
        },
      );

      expect(client.handle(sending('m-throws', 10))).toBe(false);
      client.handle({ type: 'message', messageId: 'm-throws', state: 'sent', attempt: 1, result: { id: 7 } });
      await expect(message).resolves.toEqual({ id: 7 });
      expect(() => vi.runOnlyPendingTimers()).toThrow('the app broke');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('handle: what a native channel delivers, one message or an array', () => {
  it('takes an array in order and answers with one flag per message', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const init = client.init();
    const outbox = client.listOutbox();
    const [first, second] = sent;
    const event = { type: 'widget', event: 'loaded', data: {} };

    expect(
      client.handle([
        { type: 'response', id: first?.id, ok: true, result: { config: {} } },
        event,
        'not a message',
        { type: 'response', id: second?.id, ok: true, result: { messages: [] } },
      ]),
    ).toEqual([true, false, false, true]);
    await expect(init).resolves.toEqual({ config: {} });
    await expect(outbox).resolves.toEqual({ messages: [] });
    expect(client.handle([])).toEqual([]);
    expect(client.handle(event)).toBe(false);
  });

  // The custom transport of docs/typed-client.md ("A custom transport on a native channel"), on
  // the real bridge's Android channel against the reference backend: the bridge sends a message's
  // state events with its response, in one call as an array, and every call still settles.
  it('settles every call of a custom transport on a native channel, whose calls carry arrays', async () => {
    const backend = await startReferenceBackend({ websiteTokens: [WEBSITE_TOKEN] });
    const payloads: unknown[] = [];
    const events: OutboundMessage[] = [];
    // What the native side forwards to the app: the channel's JSON text, as the docs' onChannelMessage takes it.
    const onChannelMessage = (text: string) => {
      const parsed: unknown = JSON.parse(text);
      const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
      client.handle(messages).forEach((consumed, index) => {
        if (!consumed) events.push(messages[index] as OutboundMessage);
      });
    };
    const te = createInMemoryEnvironment({
      channels: ['android'],
      onDelivery: ({ payload }) => {
        payloads.push(payload);
        // The native side hands it on in a later task, as a WebView's channel does.
        setTimeout(() => onChannelMessage(String(payload)), 0);
      },
    });
    const options = normalizeOptions(
      { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'android' },
      te.env.pageOrigin,
    );
    const bridge = createBridge(options, te.env);
    // The docs' transport: a script evaluated in the page, calling ChatBridge.receive with the JSON.
    const evaluateInWebView = (script: string): void =>
      void setTimeout(() => new Function('window', script)({ ChatBridge: bridge }), 0);
    const literal = (json: string) =>
      JSON.stringify(json)
        .replace(/\u2028/g, '\\u2028')
        .replace(/\u2029/g, '\\u2029');
    const client: ChatClient = createClient({
      send: (_command, json) => evaluateInWebView(`window.ChatBridge.receive(${literal(json)});true;`),
    });
    try {
      const calls = [
        client.init(),
        client.createConversation({ email: 'ada@example.com' }),
        client.sendMessage({ content: 'one', messageId: 'm-one' }),
        client.sendMessage({ content: 'two\u2028lines', messageId: 'm-two' }),
        client.listOutbox(),
      ];
      const settled = await Promise.allSettled(calls);
      expect(settled.map((outcome) => outcome.status)).toEqual(Array(calls.length).fill('fulfilled'));
      expect(client.pending).toBe(0);
      // The channel did carry arrays, and what the client did not consume reached the app.
      expect(payloads.some((payload) => Array.isArray(JSON.parse(String(payload))))).toBe(true);
      await vi.waitFor(() =>
        expect(events.filter((event) => event.type === 'message' && event.state === 'sent')).toHaveLength(2),
      );
      expect(events.some((event) => event.type === 'response')).toBe(false);
    } finally {
      bridge.destroy();
      await backend.close();
    }
  });
});

describe('resendMessage: a failed message sent again under its messageId (issue 35)', () => {
  const failedResponse = (id: string | undefined, error: Record<string, unknown>) => ({
    type: 'response',
    id,
    ok: false,
    error: { type: 'error', message: `[POST /messages] ${String(error['code'])}`, ...error },
  });
  const sendCommands = (sent: Command[]) => sent.filter((command) => command.method === 'sendMessage');

  it('sends the params the failed sendMessage was given, under the same messageId, and settles as sendMessage', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const params = {
      content: 'a photo',
      messageId: 'm-r1',
      attachments: [{ name: 'p.jpg', type: 'image/jpeg', data: 'AAAA' }],
    };
    const first = client.sendMessage(params);
    client.handle(failedResponse(sent[0]?.id, { code: 'server_error', retryable: true, status: 500 }));
    expect(await rejectionOf(first)).toMatchObject({ code: 'server_error', retryable: true });

    const progress: unknown[] = [];
    const again = client.resendMessage('m-r1', { onProgress: (report) => progress.push(report) });
    const [one, two] = sendCommands(sent);
    expect(two?.params).toEqual(one?.params);
    expect(two?.params).toEqual(params);
    expect(two?.id).not.toBe(one?.id);
    client.handle({
      type: 'message',
      messageId: 'm-r1',
      state: 'sending',
      attempt: 1,
      progress: { sentBytes: 1, totalBytes: 2 },
    });
    client.handle(response(two?.id, { id: 9, content: 'a photo' }));
    await expect(again).resolves.toEqual({ id: 9, content: 'a photo' });
    expect(progress).toEqual([{ sentBytes: 1, totalBytes: 2 }]);
  });

  it("keeps a message failed by its message-state event (a later page's outbox), and one whose page went", async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const first = client.sendMessage({ content: 'Hi', messageId: 'm-r2' });
    client.handle({
      type: 'message',
      messageId: 'm-r2',
      state: 'failed',
      attempt: 1,
      error: { type: 'error', code: 'upload_refused', retryable: false, message: '[POST /messages] refused' },
    });
    expect(await rejectionOf(first)).toMatchObject({ code: 'upload_refused', retryable: false });
    void client.resendMessage('m-r2');
    expect(sendCommands(sent).map((command) => command.params)).toEqual([
      { content: 'Hi', messageId: 'm-r2' },
      { content: 'Hi', messageId: 'm-r2' },
    ]);
  });

  it('rejects with not_kept, sending nothing, for a message it holds none of: unknown, sent, or resent already', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    expect(await rejectionOf(client.resendMessage('m-never'))).toMatchObject({
      code: 'not_kept',
      retryable: false,
      message: expect.stringContaining('sendMessage and the same messageId'),
    });

    const ok = client.sendMessage({ content: 'fine', messageId: 'm-ok' });
    client.handle(response(sent[0]?.id, { id: 1 }));
    await ok;
    expect((await rejectionOf(client.resendMessage('m-ok'))).code).toBe('not_kept');

    const failed = client.sendMessage({ content: 'once', messageId: 'm-once' });
    client.handle(failedResponse(sent[1]?.id, { code: 'rate_limited', retryable: true, status: 429 }));
    await rejectionOf(failed);
    // A double tap on the retry button: the second finds the first under way, and sends nothing.
    void client.resendMessage('m-once');
    expect((await rejectionOf(client.resendMessage('m-once'))).code).toBe('not_kept');
    expect(sendCommands(sent)).toHaveLength(3);
  });

  it('is kept again when the resend fails too, and forgotten when the app sends the messageId itself', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const first = client.sendMessage({ content: 'v1', messageId: 'm-r3' });
    client.handle(failedResponse(sent[0]?.id, { code: 'validation_error', retryable: false, status: 422 }));
    await rejectionOf(first);
    const again = client.resendMessage('m-r3');
    client.handle(failedResponse(sent[1]?.id, { code: 'validation_error', retryable: false, status: 422 }));
    await rejectionOf(again);
    // The app changed the text and sent it under the same messageId: that is what a resend sends now.
    const v2 = client.sendMessage({ content: 'v2', messageId: 'm-r3' });
    client.handle(failedResponse(sent[2]?.id, { code: 'validation_error', retryable: false, status: 422 }));
    await rejectionOf(v2);
    void client.resendMessage('m-r3');
    expect(sendCommands(sent).map((command) => (command.params as { content: string }).content)).toEqual([
      'v1',
      'v1',
      'v2',
      'v2',
    ]);
  });

  it('never keeps a message failed with inbox_switched (it stays queued for its own inbox), and forgets all at close()', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const switched = client.sendMessage({ content: 'for inbox A', messageId: 'm-a' });
    client.pageGone(true);
    expect((await rejectionOf(switched)).code).toBe('inbox_switched');
    expect((await rejectionOf(client.resendMessage('m-a'))).code).toBe('not_kept');

    const failed = client.sendMessage({ content: 'x', messageId: 'm-x' });
    client.handle(failedResponse(sent[1]?.id, { code: 'server_error', retryable: true, status: 500 }));
    await rejectionOf(failed);
    client.close();
    expect((await rejectionOf(client.resendMessage('m-x'))).code).toBe('not_kept');
    expect(sendCommands(sent)).toHaveLength(2);
  });

  it('works taken off the client (no `this`), as a button handler holds it', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const { sendMessage, resendMessage } = client;
    const first = sendMessage({ content: 'Hi', messageId: 'm-r4' });
    client.handle(failedResponse(sent[0]?.id, { code: 'server_error', retryable: true, status: 503 }));
    await rejectionOf(first);
    const again = resendMessage('m-r4');
    expect(sendCommands(sent).map((command) => command.params)).toEqual([
      { content: 'Hi', messageId: 'm-r4' },
      { content: 'Hi', messageId: 'm-r4' },
    ]);
    client.handle(response(sent[1]?.id, { id: 2 }));
    await expect(again).resolves.toEqual({ id: 2 });
  });

  // The real bridge (in-memory page, its Android channel) against the reference backend: a 422
  // fails the message for good; resent once the server takes it, it is stored once, under its echo_id.
  it('sends a message the server refused again through the real bridge: stored once, with the same echo_id', async () => {
    const backend = await startReferenceBackend({ websiteTokens: [WEBSITE_TOKEN] });
    const te = createInMemoryEnvironment({
      channels: ['android'],
      onDelivery: ({ payload }) => void setTimeout(() => client.handle(JSON.parse(String(payload))), 0),
    });
    const bridge = createBridge(
      normalizeOptions({ baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'android' }, te.env.pageOrigin),
      te.env,
    );
    const client: ChatClient = createClient({ send: (_command, json) => void bridge.receive(json) });
    try {
      await client.createConversation();
      backend.setFault('validation-422', true);
      const error = await rejectionOf(client.sendMessage({ content: 'refused, then taken', messageId: 'm-real' }));
      expect(error).toMatchObject({ code: 'validation_error', retryable: false, status: 422 });
      backend.setFault('validation-422', false);
      await expect(client.resendMessage('m-real')).resolves.toMatchObject({ content: 'refused, then taken' });
      const posts = backend.requests.filter((entry) => entry.method === 'POST' && entry.path.endsWith('/messages'));
      expect(posts.map((entry) => entry.status)).toEqual([422, 200]);
      const stored = await storedMessages(backend, WEBSITE_TOKEN);
      expect(stored.map((message) => [message.content, message.echo_id])).toEqual([['refused, then taken', 'm-real']]);
    } finally {
      bridge.destroy();
      await backend.close();
    }
  });
});
