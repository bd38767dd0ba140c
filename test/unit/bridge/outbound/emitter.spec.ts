/**
 * The emitter: every message for the host scrubbed once, then to each channel and each listener;
 * a response with its error event; a listener that throws never stops the others.
 */
import { describe, expect, it } from 'vitest';
import type { HostScope } from '../../../../bridge/environment.js';
import { createEmitter } from '../../../../bridge/outbound/emitter.js';
import { createRedactor } from '../../../../bridge/outbound/redact.js';
import { DEFAULTS, type HostName } from '../../../../bridge/protocol/bridge-options.js';
import { errorEvent } from '../../../../bridge/protocol/errors.js';
import type { OutboundMessage } from '../../../../bridge/protocol/messages.js';
import { REDACTED } from '../../../../bridge/protocol/limits.js';
import { installStandIns } from '../../../../tools/testing/stand-in-channels.js';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

const TOKEN = 'at_secret_0123456789';

/** An emitter over the shared stand-ins of the android, ios and browser channels, and what each received. */
function setUp(hosts: HostName[] = ['android', 'ios', 'browser']) {
  const received: Record<string, unknown[]> = { android: [], ios: [], browser: [] };
  const scope: HostScope = {};
  installStandIns(scope, ['android', 'ios', 'browser'], (host, payload) => void received[host]?.push(payload));
  const clock = createVirtualClock();
  const redactor = createRedactor(clock.now);
  redactor.add(TOKEN, 'auth');
  const emitter = createEmitter(hosts, scope, DEFAULTS, clock, redactor);
  return { emitter, received, clock };
}

describe('createEmitter', () => {
  it('hands each message, scrubbed of every known token, to every channel in its own encoding', () => {
    const { emitter, received } = setUp();
    emitter.emit(errorEvent('auth_failed', `[GET /config] 401: ${TOKEN} expired`));

    const scrubbed = {
      type: 'error',
      code: 'auth_failed',
      message: `[GET /config] 401: ${REDACTED} expired`,
      retryable: false,
    };
    expect(received['android']).toEqual([JSON.stringify(scrubbed)]);
    expect(received['ios']).toEqual([JSON.stringify(scrubbed)]);
    expect(received['browser']).toEqual([scrubbed]);
  });

  it('gives listeners the scrubbed message, and stops at their unsubscribe', () => {
    const { emitter } = setUp();
    const heard: OutboundMessage[] = [];
    const unsubscribe = emitter.on((message) => heard.push(message));
    emitter.emit({ type: 'widget', event: 'loaded', data: { note: TOKEN } });
    unsubscribe();
    emitter.emit({ type: 'ready' });

    expect(heard).toEqual([{ type: 'widget', event: 'loaded', data: { note: REDACTED } }]);
  });

  it('calls a function added twice once per message, as EventTarget does, until its unsubscribe', () => {
    const { emitter } = setUp();
    const heard: string[] = [];
    const listener = (message: OutboundMessage) => void heard.push(message.type);
    emitter.on(listener);
    const unsubscribe = emitter.on(listener);
    emitter.emit({ type: 'ready' });
    unsubscribe();
    emitter.emit({ type: 'ready' });

    expect(heard).toEqual(['ready']);
  });

  it('answers a failed command with its response and then its error event', () => {
    const { emitter, received } = setUp(['ios']);
    const error = errorEvent('not_found', '[getConversation] 404: no conversation');
    emitter.answer('c1', { ok: false, error });
    emitter.answer('c2', { ok: true, result: { id: 7 } });

    expect(received['ios']).toEqual([
      JSON.stringify({ type: 'response', id: 'c1', ok: false, error }),
      JSON.stringify(error),
      JSON.stringify({ type: 'response', id: 'c2', ok: true, result: { id: 7 } }),
    ]);
  });

  it('delivers the conversation token unscrubbed to the channels and to no listener', () => {
    const { emitter, received } = setUp(['ios']);
    const heard: OutboundMessage[] = [];
    emitter.on((message) => heard.push(message));
    emitter.deliver({ type: 'conversationToken', token: TOKEN });

    expect(received['ios']).toEqual([JSON.stringify({ type: 'conversationToken', token: TOKEN })]);
    expect(heard).toEqual([]);
  });

  it('reports a throwing listener in a microtask of its own and still runs the others', async () => {
    const { emitter, received } = setUp(['ios']);
    const heard: string[] = [];
    emitter.on(() => {
      throw new Error('host listener bug');
    });
    emitter.on((message) => heard.push(message.type));
    const reported = new Promise((resolve) => process.once('uncaughtException', resolve));
    emitter.emit({ type: 'ready' });

    expect(String(await reported)).toContain('host listener bug');
    expect(heard).toEqual(['ready']);
    expect(received['ios']).toEqual(['{"type":"ready"}']);
  });

  it('counts what waits for a missing channel, and drops it and every listener on destroy', () => {
    const { emitter, clock } = setUp(['flutter']);
    const heard: OutboundMessage[] = [];
    emitter.on((message) => heard.push(message));
    emitter.emit({ type: 'ready' });
    expect(emitter.undelivered).toBe(1);

    emitter.destroy();
    expect(emitter.undelivered).toBe(0);
    expect(clock.pending).toBe(0);
    emitter.emit({ type: 'ready' });
    expect(heard).toHaveLength(1);
  });
});
