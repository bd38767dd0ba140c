/**
 * The host-side typed client: one command per call, settled by the response with its id.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '../../../bridge/outbound/errors.js';
import { ChatBridgeError, createClient, type ClientTransport } from '../../../host-adapters/client.js';

type Command = Parameters<ClientTransport['send']>[0];

function recordingTransport() {
  const sent: Command[] = [];
  return { sent, transport: { send: (command: Command) => void sent.push(command) } };
}

const validationError: ErrorEvent = {
  type: 'error',
  code: 'validation_error',
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
      error: { type: 'error', code: 'network_error', message: '[GET /config] network failure' },
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

  it('close() rejects every waiting call and ignores their later responses', async () => {
    const { sent, transport } = recordingTransport();
    const client = createClient(transport);
    const calls = [client.init(), client.sendMessage({ content: 'Hi' })];

    client.close();

    for (const call of calls) await expect(call).rejects.toThrow('chat-bridge client closed');
    expect(client.pending).toBe(0);
    expect(client.handle({ type: 'response', id: sent[0]?.id ?? '', ok: true, result: null })).toBe(false);
  });

  it('rejects the call with the error a throwing transport raised, and forgets it', async () => {
    const failure = new Error('the WebView is not mounted yet');
    const client = createClient({
      send() {
        throw failure;
      },
    });

    await expect(client.init()).rejects.toBe(failure);
    expect(client.pending).toBe(0);
  });

  it('wraps a non-Error thrown by the transport in an Error', async () => {
    const client = createClient({
      send() {
        throw 'native bridge gone';
      },
    });

    const error = await client.init().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('native bridge gone');
  });
});

describe('command ids across reloads', () => {
  it("gives each page a different id session, so a new page never reuses an earlier page's ids", () => {
    const first = recordingTransport();
    const second = recordingTransport();
    void createClient(first.transport, 'c', () => 0.25).init();
    void createClient(second.transport, 'c', () => 0.75).init();
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
