import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createCommandRunner,
  INBOX_SWITCHED,
  type CommandContext,
  type CommandTable,
} from '../../../../bridge/dispatch/command-runner.js';
import { bridgeError, type ErrorEvent } from '../../../../bridge/protocol/errors.js';
import type { ResponseMessage } from '../../../../bridge/protocol/messages.js';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

const TIMEOUT = 50_000;

interface Deferred {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  context: CommandContext;
}

/** Lets async work that is already settled finish (promise callbacks), without moving any clock. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const clock = createVirtualClock();
  const responses: ResponseMessage[] = [];
  const errors: ErrorEvent[] = [];
  const calls: Deferred[] = [];
  const commands: CommandTable = {
    echo: {
      schema: z.object({ text: z.string() }),
      run: async (params: { text: string }) => ({ echoed: params.text }),
    },
    manual: {
      schema: z.object({}),
      run: (_params: unknown, context: CommandContext) =>
        new Promise((resolve, reject) => calls.push({ resolve, reject, context })),
    },
    throwsSync: {
      schema: z.object({}),
      run: () => {
        throw new TypeError('x is not a function');
      },
    },
    untimed: {
      schema: z.object({}),
      untimed: true,
      run: (_params: unknown, context: CommandContext) =>
        new Promise((resolve, reject) => calls.push({ resolve, reject, context })),
    },
    rejectsString: { schema: z.object({}), run: () => Promise.reject('plain string failure') },
    rejectsNumber: { schema: z.object({}), run: () => Promise.reject(42) },
    rejectsBridge: {
      schema: z.object({}),
      run: async () => {
        throw bridgeError('not_found', '[GET /conversations] 404: nope', 404);
      },
    },
  };
  // What the bridge does with an answer: the response, and the error event for a failure.
  const runner = createCommandRunner(commands, TIMEOUT, clock, (id, outcome) => {
    responses.push(
      outcome.ok
        ? { type: 'response', id, ok: true, result: outcome.result }
        : { type: 'response', id, ok: false, error: outcome.error },
    );
    if (!outcome.ok) errors.push(outcome.error);
  });
  return { clock, runner, responses, errors, calls };
}

describe('dispatch', () => {
  it('answers a known command with ok:true and its result', async () => {
    const { runner, responses, errors } = setup();
    runner.run({ id: 'a', method: 'echo', params: { text: 'hi' } });
    await settle();
    expect(responses).toEqual([{ type: 'response', id: 'a', ok: true, result: { echoed: 'hi' } }]);
    expect(errors).toEqual([]);
  });

  it('answers an unknown method with unknown_method and emits one error event', () => {
    const { runner, responses, errors } = setup();
    runner.run({ id: 'u', method: 'launchRockets' });
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({
      type: 'response',
      id: 'u',
      ok: false,
      error: { type: 'error', code: 'unknown_method' },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe('unknown_method');
    expect(errors[0]?.message).toContain('launchRockets');
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])(
    'treats the inherited name %s as an unknown command',
    (method) => {
      const { runner, responses } = setup();
      runner.run({ id: 'p', method });
      expect(responses[0]).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    },
  );

  it('answers bad params with a parse_error response and event naming the field', () => {
    const { runner, responses, errors } = setup();
    runner.run({ id: 'b', method: 'echo', params: { text: 5 } });
    expect(responses).toEqual([
      { type: 'response', id: 'b', ok: false, error: expect.objectContaining({ code: 'parse_error' }) },
    ]);
    const [event] = errors;
    expect(event?.code).toBe('parse_error');
    expect(event?.message).toMatch(/^\[echo\] .*text/);
    expect(runner.pending).toBe(0);
  });

  it('treats absent params as {}', async () => {
    const { runner, responses } = setup();
    runner.run({ id: 'e', method: 'echo' });
    expect(responses[0]).toMatchObject({ ok: false, error: { code: 'parse_error' } });
    runner.run({ id: 'm', method: 'manual' });
    expect(runner.pending).toBe(1);
  });
});

describe('failures', () => {
  it('wraps a synchronous throw of a plain Error, keeping its message', async () => {
    const { runner, responses, errors } = setup();
    runner.run({ id: 't', method: 'throwsSync' });
    await settle();
    expect(responses).toEqual([
      { type: 'response', id: 't', ok: false, error: expect.objectContaining({ type: 'error', code: 'server_error' }) },
    ]);
    expect(errors[0]?.message).toBe('[throwsSync] x is not a function');
  });

  it('wraps a rejection with a non-Error value', async () => {
    const { runner, errors } = setup();
    runner.run({ id: 's', method: 'rejectsString' });
    runner.run({ id: 'n', method: 'rejectsNumber' });
    await settle();
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['server_error', '[rejectsString] plain string failure'],
      ['server_error', '[rejectsNumber] unknown failure'],
    ]);
  });

  it("passes a BridgeError's own event through unchanged", async () => {
    const { runner, responses, errors } = setup();
    runner.run({ id: 'nf', method: 'rejectsBridge' });
    await settle();
    const event = {
      type: 'error',
      code: 'not_found',
      retryable: false,
      message: '[GET /conversations] 404: nope',
      status: 404,
    };
    expect(responses).toEqual([{ type: 'response', id: 'nf', ok: false, error: event }]);
    expect(errors).toEqual([event]);
  });
});

describe('timeouts', () => {
  it('answers network_error when the command is still running at the timeout, and ignores the late result', async () => {
    const { clock, runner, responses, errors, calls } = setup();
    runner.run({ id: 'slow', method: 'manual' });
    clock.advance(TIMEOUT - 1);
    expect(responses).toEqual([]);
    clock.advance(1);
    expect(responses).toEqual([
      { type: 'response', id: 'slow', ok: false, error: expect.objectContaining({ code: 'network_error' }) },
    ]);
    expect(errors.map((e) => e.code)).toEqual(['network_error']);
    expect(errors[0]?.message).toContain(`${TIMEOUT} ms`);
    expect(runner.pending).toBe(0);

    calls[0]?.resolve('too late');
    await settle();
    expect(responses).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });

  it('ignores a late failure after the timeout as well', async () => {
    const { clock, runner, responses, errors, calls } = setup();
    runner.run({ id: 'slow', method: 'manual' });
    clock.advance(TIMEOUT);
    calls[0]?.reject(new Error('late'));
    await settle();
    expect(responses).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });

  it('clears the timer once the command answers', async () => {
    const { clock, runner, responses, calls } = setup();
    runner.run({ id: 'quick', method: 'manual' });
    expect(clock.pending).toBe(1);
    calls[0]?.resolve('done');
    await settle();
    expect(clock.pending).toBe(0);
    clock.advance(TIMEOUT * 2);
    expect(responses).toEqual([{ type: 'response', id: 'quick', ok: true, result: 'done' }]);
  });

  it('sets no timeout for an untimed command, and answers it whenever it finishes', async () => {
    const { clock, runner, responses, calls } = setup();
    runner.run({ id: 'send', method: 'untimed' });
    expect(clock.pending).toBe(0);
    clock.advance(TIMEOUT * 3);
    expect(responses).toEqual([]);
    expect(runner.pending).toBe(1);
    calls[0]?.resolve({ sent: true });
    await settle();
    expect(responses).toEqual([{ type: 'response', id: 'send', ok: true, result: { sent: true } }]);
    expect(runner.pending).toBe(0);
  });

  it("aborts the command's signal when it times out, so its remaining work stops", () => {
    const { clock, runner, calls } = setup();
    runner.run({ id: 'slow', method: 'manual' });
    const signal = calls[0]?.context.signal;
    expect(signal?.aborted).toBe(false);
    clock.advance(TIMEOUT);
    expect(signal?.aborted).toBe(true);
  });

  it("aborts the command's signal once it is answered, and when the runner is destroyed", async () => {
    const { runner, calls } = setup();
    runner.run({ id: 'a', method: 'manual' });
    runner.run({ id: 'b', method: 'manual' });
    calls[0]?.resolve('done');
    await settle();
    expect(calls[0]?.context.signal.aborted).toBe(true);
    expect(calls[1]?.context.signal.aborted).toBe(false);
    runner.destroy();
    expect(calls[1]?.context.signal.aborted).toBe(true);
  });

  it('answers before it aborts the signal, so the host does not wait for the abort', async () => {
    const { runner, calls, responses } = setup();
    runner.run({ id: 'first', method: 'manual' });
    const answeredAtAbort: number[] = [];
    calls[0]?.context.signal.addEventListener('abort', () => answeredAtAbort.push(responses.length));
    calls[0]?.resolve('done');
    await settle();
    expect(answeredAtAbort).toEqual([1]);
  });

  it('gives the command its command id in the context', () => {
    const { runner, calls } = setup();
    runner.run({ id: 'ctx-1', method: 'manual' });
    expect(calls[0]?.context.id).toBe('ctx-1');
  });
});

describe('bookkeeping', () => {
  it('answers every command even when ids repeat', async () => {
    const { runner, responses, calls } = setup();
    runner.run({ id: 'dup', method: 'manual' });
    runner.run({ id: 'dup', method: 'manual' });
    expect(runner.pending).toBe(2);
    calls[1]?.resolve('second');
    calls[0]?.resolve('first');
    await settle();
    expect(responses).toEqual([
      { type: 'response', id: 'dup', ok: true, result: 'second' },
      { type: 'response', id: 'dup', ok: true, result: 'first' },
    ]);
  });

  it('returns the pending count to 0 after successes, failures and timeouts', async () => {
    const { clock, runner, calls } = setup();
    runner.run({ id: '1', method: 'manual' });
    runner.run({ id: '2', method: 'manual' });
    runner.run({ id: '3', method: 'manual' });
    runner.run({ id: '4', method: 'echo', params: { text: 'x' } });
    expect(runner.pending).toBe(4);
    calls[0]?.resolve('ok');
    calls[1]?.reject(new Error('bad'));
    await settle();
    expect(runner.pending).toBe(1);
    clock.advance(TIMEOUT);
    expect(runner.pending).toBe(0);
  });

  it('destroy leaves an untimed command unanswered, but for INBOX_SWITCHED answers it inbox_switched', () => {
    const { runner, responses } = setup();
    runner.run({ id: 'same', method: 'untimed' });
    runner.destroy('reinstalled');
    expect(responses).toEqual([]);

    const other = setup();
    other.runner.run({ id: 'switched', method: 'untimed' });
    other.runner.run({ id: 'plain', method: 'manual' });
    other.runner.destroy(INBOX_SWITCHED);
    expect(other.responses).toEqual([
      {
        type: 'response',
        id: 'switched',
        ok: false,
        error: expect.objectContaining({
          code: 'inbox_switched',
          message: '[untimed] bridge installed for another inbox',
        }),
      },
      { type: 'response', id: 'plain', ok: false, error: expect.objectContaining({ code: 'network_error' }) },
    ]);
  });

  it('destroy answers each running command once with network_error saying why, then answers nothing', async () => {
    const { clock, runner, responses, errors, calls } = setup();
    runner.run({ id: 'x', method: 'manual' });
    runner.run({ id: 'y', method: 'manual' });
    runner.destroy('reinstalled');
    expect(runner.pending).toBe(0);
    expect(clock.pending).toBe(0);
    expect(responses).toEqual([
      { type: 'response', id: 'x', ok: false, error: expect.objectContaining({ code: 'network_error' }) },
      { type: 'response', id: 'y', ok: false, error: expect.objectContaining({ code: 'network_error' }) },
    ]);
    expect(errors.map((error) => error.message)).toEqual([
      '[manual] bridge reinstalled',
      '[manual] bridge reinstalled',
    ]);

    calls[0]?.resolve('after destroy');
    clock.advance(TIMEOUT);
    runner.destroy();
    await settle();
    expect(responses).toHaveLength(2);
  });

  it('destroy says "destroyed" when given no reason', () => {
    const { runner, errors } = setup();
    runner.run({ id: 'x', method: 'manual' });
    runner.destroy();
    expect(errors[0]?.message).toBe('[manual] bridge destroyed');
  });

  it('destroy leaves an untimed command (sendMessage) unanswered: its message is followed, not failed', async () => {
    const { runner, responses, calls } = setup();
    runner.run({ id: 'queued', method: 'untimed' });
    runner.run({ id: 'live', method: 'manual' });

    runner.destroy('reinstalled');
    calls[0]?.resolve('sent by a later page');
    await settle();

    expect(responses.map((response) => response.id)).toEqual(['live']);
    expect(runner.pending).toBe(0);
  });
});
