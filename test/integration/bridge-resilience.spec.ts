// @vitest-environment node
/**
 * The built bridge when the network misbehaves, against the reference backend: a backend that
 * never answers, a device that goes offline and back, and a page reload with messages still
 * waiting in the outbox. No command may wait forever and no message may be sent twice.
 */
import { describe, expect, it } from 'vitest';
import { createHarness, useReferenceBackend, type BridgeHarness } from '../helpers/bridge-harness.js';

const suite = useReferenceBackend();

const routes = () => suite.log().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
const responsesTo = (h: BridgeHarness, id: string) => h.responses().filter((response) => response.id === id);

describe('a backend that never answers', () => {
  it('answers init with network_error once requestTimeout passes', async () => {
    const h = suite.bridge({ options: { requestTimeout: 300 } });
    suite.backend.setFault('hang', true);
    const started = Date.now();

    const response = await h.send('init', undefined, 'init-1', 5000);

    expect(Date.now() - started).toBeLessThan(3000);
    expect(response).toMatchObject({ id: 'init-1', ok: false, error: { code: 'network_error' } });
    expect(response.ok ? '' : response.error.message).toMatch(/^\[GET \/config\] no answer within 300 ms/);
    expect(h.errors()).toHaveLength(1);
    // One request left and was never answered (whether the loaded backend logged it yet or not).
    expect(h.sent.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'GET /config undefined',
    ]);
    expect(suite.log().every((entry) => entry.path === '/config' && entry.status === null)).toBe(true);
  });

  it('answers a conversation command with network_error when commandTimeout passes first', async () => {
    const h = suite.bridge({ options: { requestTimeout: 5000, commandTimeout: 300 } });
    suite.backend.setFault('hang', true);

    const response = await h.send('getConversation', undefined, 'conv-1', 5000);

    expect(response).toMatchObject({ id: 'conv-1', ok: false, error: { code: 'network_error' } });
    expect(response.ok ? '' : response.error.message).toMatch(/no answer within 300 ms/);
    expect(h.bridge.stats().pendingCommands).toBe(0);
  });

  it('keeps a message whose POST hung in the outbox with a network_error event, and sends it once when back online', async () => {
    // The timeout is what turns the hung POST into network_error; it is generous so that on a
    // loaded machine the setup's own requests (config, conversation) are not the ones to time out.
    const h = suite.bridge({ options: { requestTimeout: 2500 } });
    expect(await h.send('createConversation')).toMatchObject({ ok: true });
    suite.backend.setFault('hang', true);

    h.bridge.receive({ id: 'msg-1', method: 'sendMessage', params: { content: 'slow network' } });
    await h.waitFor(() => h.errors().some((error) => error.code === 'network_error'), 'the network_error event');
    expect(responsesTo(h, 'msg-1')).toEqual([]);
    expect(h.bridge.stats().outbox).toBe(1);

    suite.backend.setFault('hang', false);
    h.te.setOnline(true);
    const response = await h.response('msg-1');

    expect(response).toMatchObject({ ok: true, result: { content: 'slow network' } });
    const echoIds = h.sent.filter((request) => request.path === '/messages').map((request) => request.echoId);
    expect(echoIds).toHaveLength(2);
    expect(new Set(echoIds).size).toBe(1);
    expect(await suite.storedMessages()).toMatchObject([{ content: 'slow network' }]);
  });
});

describe('offline, then online', () => {
  it('holds messages sent offline and delivers each exactly once, in order, when the device is back online', async () => {
    const h = suite.bridge();
    await h.send('createConversation');
    suite.clearRequests();
    h.te.setOnline(false);

    h.bridge.receive({ id: 'off-1', method: 'sendMessage', params: { content: 'first' } });
    h.bridge.receive({ id: 'off-2', method: 'sendMessage', params: { content: 'second' } });
    await h.waitFor(() => h.errors().length > 0, 'a network_error event');

    expect(h.errors().every((error) => error.code === 'network_error')).toBe(true);
    expect(h.errors()[0]?.message).toMatch(/; 2 queued$/);
    expect([...responsesTo(h, 'off-1'), ...responsesTo(h, 'off-2')]).toEqual([]);
    expect(h.bridge.stats().outbox).toBe(2);
    expect(suite.log()).toEqual([]);

    h.te.setOnline(true);
    await h.waitFor(() => h.responses().length === 3, 'both responses');

    expect(
      h
        .responses()
        .slice(1)
        .map((response) => [response.id, response.ok]),
    ).toEqual([
      ['off-1', true],
      ['off-2', true],
    ]);
    expect(routes()).toEqual(['POST /messages 200', 'POST /messages 200']);
    expect(new Set(h.sent.map((request) => request.echoId)).size).toBe(2);
    // Nothing more goes out later (no duplicate from a second drain), and no command is answered twice.
    h.te.setOnline(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(routes()).toEqual(['POST /messages 200', 'POST /messages 200']);
    expect((await suite.storedMessages()).map((message) => message.content)).toEqual(['first', 'second']);
    expect(responsesTo(h, 'off-1')).toHaveLength(1);
    expect(responsesTo(h, 'off-2')).toHaveLength(1);
    expect(h.bridge.stats()).toMatchObject({ pendingCommands: 0, outbox: 0 });
  });

  it('sends what waited offline before a message sent right after coming back', async () => {
    const h = suite.bridge();
    h.te.setOnline(false);
    h.bridge.receive({ id: 'early', method: 'sendMessage', params: { content: 'written offline' } });
    await h.waitFor(() => h.errors().length > 0, 'a network_error event');

    h.te.setOnline(true);
    const late = await h.send('sendMessage', { content: 'written online' }, 'late');
    const early = await h.response('early');

    expect(early.ok && late.ok).toBe(true);
    expect((await suite.storedMessages()).map((message) => message.content)).toEqual([
      'written offline',
      'written online',
    ]);
  });
});

describe('a host resending a queued message with the same messageId', () => {
  it('answers both commands exactly once and the backend stores the message once', async () => {
    const h = suite.bridge();
    await h.send('createConversation');
    h.te.setOnline(false);
    h.bridge.receive({ id: 'send-a', method: 'sendMessage', params: { content: 'hello?', messageId: 'host-msg-7' } });
    h.bridge.receive({ id: 'send-b', method: 'sendMessage', params: { content: 'hello?', messageId: 'host-msg-7' } });
    await h.waitFor(() => h.errors().length > 0, 'a network_error event');

    h.te.setOnline(true);
    await h.waitFor(() => responsesTo(h, 'send-a').length > 0 && responsesTo(h, 'send-b').length > 0, 'both responses');
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(responsesTo(h, 'send-a')).toMatchObject([{ ok: true, result: { content: 'hello?' } }]);
    expect(responsesTo(h, 'send-b')).toMatchObject([{ ok: true, result: { content: 'hello?' } }]);
    expect(h.bridge.stats()).toMatchObject({ pendingCommands: 0, outbox: 0 });
    expect(await suite.storedMessages()).toMatchObject([{ content: 'hello?', echo_id: 'host-msg-7' }]);
  });
});

describe('reload with messages in the outbox', () => {
  it('sends them exactly once from the new bridge on install, reporting them by messageId, never as responses to old command ids', async () => {
    const before = suite.bridge();
    before.te.setOnline(false);
    before.bridge.receive({
      id: 'queued-1',
      method: 'sendMessage',
      params: { content: 'before reload 1', messageId: 'm-1' },
    });
    before.bridge.receive({
      id: 'queued-2',
      method: 'sendMessage',
      params: { content: 'before reload 2', messageId: 'm-2' },
    });
    await before.waitFor(() => before.errors().length > 0, 'a network_error event');
    expect(before.bridge.stats().outbox).toBe(2);
    before.destroy();
    expect(suite.log()).toEqual([]);

    // The reloaded page: same storage, device online.
    const after = createHarness(suite.backend, { storage: before.te.storage });
    try {
      const sent = () =>
        after.te.messages().filter((message) => message['type'] === 'message' && message['state'] === 'sent');
      await after.waitFor(() => sent().length === 2, 'both messages sent after the reload');

      expect(sent()).toMatchObject([
        { messageId: 'm-1', result: { content: 'before reload 1' } },
        { messageId: 'm-2', result: { content: 'before reload 2' } },
      ]);
      // The old page's command ids may be reused by the new page's host: never answered.
      expect(after.responses()).toEqual([]);
      const echoIds = after.sent.filter((request) => request.path === '/messages').map((request) => request.echoId);
      // 404 for the fresh contact, conversation created, the first message retried with its own echo_id.
      expect(routes()).toEqual([
        'GET /config 200',
        'POST /messages 404',
        'POST /conversations 200',
        'POST /messages 200',
        'POST /messages 200',
      ]);
      expect(echoIds[0]).toBe(echoIds[1]);
      expect(echoIds[2]).not.toBe(echoIds[0]);
      expect(after.bridge.stats().outbox).toBe(0);
      expect(before.te.storage.size).toBe(0);

      // The old page's environment coming online must not wake the destroyed bridge.
      before.te.setOnline(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(routes()).toHaveLength(5);
      expect(before.sent).toEqual([]);
      expect((await suite.storedMessages()).map((message) => message.content)).toEqual([
        'before reload 1',
        'before reload 2',
      ]);
    } finally {
      after.destroy();
    }
  });
});
