/**
 * The demo's command watch: which timeline lane each request goes to, and what reaches the
 * outbox panel.
 */
import { describe, expect, it } from 'vitest';
import { createCommandWatch } from '../../../demo-page/command-watch.js';

function watch() {
  const composed: Array<[string, string | undefined]> = [];
  const listed: unknown[] = [];
  const refused: Array<[string, unknown]> = [];
  const commands = createCommandWatch({
    composed: (messageId: string, content: string | undefined) => void composed.push([messageId, content]),
    seen: () => undefined,
    listed: (result: unknown) => void listed.push(result),
    refused: (messageId: string, error: unknown) => void refused.push([messageId, error]),
  });
  return { commands, composed, listed, refused };
}

describe('the demo command watch', () => {
  it('tells the outbox panel of a sendMessage the bridge refused, by its messageId; not of other failures', () => {
    const { commands, refused } = watch();
    const error = { type: 'error', code: 'file_too_large', message: '[POST /messages] 413: a.jpg is 9 bytes, over 5' };
    commands.sent({ id: 'c1', method: 'sendMessage', params: { content: 'hi', messageId: 'demo-1' } });
    commands.sent({ id: 'c2', method: 'init' });
    commands.sent({ id: 'c3', method: 'sendMessage', params: { content: 'ok', messageId: 'demo-3' } });
    commands.received({ type: 'response', id: 'c1', ok: false, error });
    commands.received({ type: 'response', id: 'c2', ok: false, error });
    commands.received({ type: 'response', id: 'c3', ok: true, result: {} });
    expect(refused).toEqual([['demo-1', error]]);
  });

  it("puts a request with an echo_id on its message's lane", () => {
    const { commands } = watch();
    expect(commands.laneOf('demo-1')).toBe('message demo-1');
  });

  it("puts a message's own config and conversation requests on the message's lane, not on a lane of its command id", () => {
    const { commands } = watch();
    commands.sent({ id: 'c1', method: 'sendMessage', params: { content: 'hi', messageId: 'demo-1' } });
    expect(commands.laneOf(undefined)).toBe('message demo-1');
  });

  it('gives a request without echo_id to the oldest other command before any waiting message', () => {
    const { commands } = watch();
    commands.sent({ id: 'c1', method: 'sendMessage', params: { content: 'hi', messageId: 'demo-1' } });
    commands.sent({ id: 'c2', method: 'init' });
    commands.sent({ id: 'c3', method: 'getConversation', params: {} });
    expect(commands.laneOf(undefined)).toBe('init c2');
    commands.received({ type: 'response', id: 'c2', ok: true, result: {} });
    expect(commands.laneOf(undefined)).toBe('getConversation c3');
    commands.received({ type: 'response', id: 'c3', ok: true, result: {} });
    expect(commands.laneOf(undefined)).toBe('message demo-1');
    commands.received({ type: 'response', id: 'c1', ok: true, result: {} });
    expect(commands.laneOf(undefined)).toBe('the bridge on its own');
  });

  it('names a message sent without a messageId by its command', () => {
    const { commands } = watch();
    commands.sent({ id: 'c1', method: 'sendMessage', params: { content: 'hi' } });
    expect(commands.laneOf(undefined)).toBe('sendMessage c1');
  });

  it("tells the outbox panel a message's text, and listOutbox's answer", () => {
    const { commands, composed, listed } = watch();
    commands.sent({ id: 'c1', method: 'sendMessage', params: { content: 'hi', messageId: 'demo-1' } });
    commands.sent({ id: 'c2', method: 'listOutbox' });
    commands.received({ type: 'response', id: 'c2', ok: true, result: { messages: [] } });
    expect(composed).toEqual([['demo-1', 'hi']]);
    expect(listed).toEqual([{ messages: [] }]);
  });
});
