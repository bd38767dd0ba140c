/**
 * The outbox's decisions over tables of states: no clock, no storage, no timers (as
 * retry-timing.spec.ts). The delivery suites (test/browser/outbox*.spec.ts, test/webkit/outbox*)
 * prove the sender, the outbox and orphan recovery act on them.
 */
import { describe, expect, it } from 'vitest';
import {
  burstError,
  cancelsAtOnce,
  finalFailure,
  inQueueOrder,
  isOrphan,
  isWatched,
  mayCancel,
  mustWait,
  othersKey,
  PAGE_LOCK,
  queuedFields,
  retryWait,
  toldTime,
  waitLeft,
  waitsForNetwork,
  yieldsTurn,
} from '../../../../../bridge/backend/outbox/decisions.js';
import { recordKey } from '../../../../../bridge/backend/outbox-record.js';
import { MAX_WAIT } from '../../../../../bridge/backend/retry-timing.js';
import { errorEvent } from '../../../../../bridge/protocol/errors.js';
import type { MessageState } from '../../../../../bridge/protocol/messages.js';

const P = 'chat-bridge:outbox:t:';
const key = (time: number, page: string, n = 0) => recordKey(P, time, page, n);
const NOW = 1_700_000_000_000;
const failure = (code: Parameters<typeof errorEvent>[0], status?: number) =>
  errorEvent(code, `[POST /messages] ${status ?? code}`, status);

describe('order: which message a pass takes next', () => {
  it.each([
    ['own, by time', [key(3, 'me'), key(1, 'me'), key(2, 'me')], [key(1, 'me'), key(2, 'me'), key(3, 'me')]],
    [
      "gone pages' first, whatever the clock said",
      [key(1, 'me'), key(9, 'gone'), key(5, 'other')],
      [key(5, 'other'), key(9, 'gone'), key(1, 'me')],
    ],
    [
      'by counter within one time',
      [key(1, 'me', 2), key(1, 'me', 10), key(1, 'me', 1)],
      [key(1, 'me', 1), key(1, 'me', 2), key(1, 'me', 10)],
    ],
    ['none', [], []],
  ])('%s', (_, keys, order) => {
    expect(inQueueOrder(keys, 'me')).toEqual(order);
  });

  it.each([
    [key(1, 'me'), false],
    [key(1, 'gone'), true],
  ])('looks %s up in the store before its attempt: %s', (stored, looked) => {
    expect(othersKey(stored, 'me')).toBe(looked);
  });
});

describe('waits: whether the pass stops at a message, and for how long', () => {
  it.each([
    // next (wait clock), firm, atOnce, clock → wait left, must wait
    [undefined, undefined, false, 5_000, -5_000, false],
    [4_000, false, false, 5_000, -1_000, false],
    [5_000, false, false, 5_000, 0, false],
    [7_000, false, false, 5_000, 2_000, true],
    [7_000, false, true, 5_000, 2_000, false], // a backoff cut short: online, visible again, a new message
    [7_000, true, true, 5_000, 2_000, true], // the server's Retry-After is kept even then
    [7_000, true, false, 5_000, 2_000, true],
  ])(
    'due at %s (firm %s, at once %s) with the clock at %s: %s left, waits %s',
    (next, firm, atOnce, clock, left, waits) => {
      expect(waitLeft(next, clock)).toBe(left);
      expect(!!mustWait(waitLeft(next, clock), firm, atOnce)).toBe(waits);
    },
  );

  it.each([
    [false, true, false],
    [false, false, false],
    [true, true, false],
    [true, false, true], // a burst under way offline: nothing is tried until the network is back
  ])('burst %s, online %s: the pass waits for the network: %s', (burst, online, waits) => {
    expect(waitsForNetwork(burst, online)).toBe(waits);
  });
});

describe('final failures: after a failed attempt, the error that ends the message, or none', () => {
  it.each([
    ['no answer', failure('network_error'), undefined, undefined, false],
    ['a 503', failure('server_error', 503), undefined, undefined, false],
    ['a 503 asking for a minute', failure('server_error', 503), 60_000, undefined, false],
    ['a 503 asking for a day, at the limit', failure('server_error', 503), MAX_WAIT, undefined, false],
    ['a 500', failure('server_error', 500), undefined, undefined, true],
    ['a 400', failure('bad_request', 400), undefined, undefined, true],
    ['a 429, the contract', failure('rate_limited', 429), undefined, false, true],
    ['a 429, limits that pass (Chatwoot)', failure('rate_limited', 429), undefined, true, false],
  ])('%s: final %s', (_, error, asked, rateLimitPasses, final) => {
    expect(finalFailure(error, asked, NOW, rateLimitPasses)).toBe(final ? error : undefined);
  });

  it('ends a message whose server asks for more than a day, saying when it may go again', () => {
    const error = failure('server_error', 503);
    const final = finalFailure(error, MAX_WAIT + 1, NOW);
    expect(final).toMatchObject({ code: 'server_error', status: 503, retryAt: NOW + MAX_WAIT + 1 });
    expect(final!.message).toMatch(/Retry-After over a day: not retried automatically$/);
  });
});

describe('kept: the wait before the next attempt, and what the host is told', () => {
  it.each([
    // asked, attempts made, random → wait, draws
    [3_000, 1, 0.5, 3_000, 0], // the server's wait (firm): no draw
    [0, 4, 0.5, 0, 0],
    [undefined, 1, 0, 500, 1], // the backoff: the first within 2 s
    [undefined, 1, 0.999, 1_000, 1],
    [undefined, 3, 0, 2_000, 1],
    [undefined, 20, 0, 30_000, 1], // none more than a minute apart
  ])('asked %s after %s attempts (random %s): waits %s, draws %s', (asked, attempt, random, wait, draws) => {
    let drawn = 0;
    expect(retryWait(asked, { attempt }, () => (drawn++, random))).toBe(wait);
    expect(drawn).toBe(draws);
  });

  it.each([
    [true, { nextAttemptAt: NOW + 2_000 }],
    [false, {}], // offline: no time, it waits for the network
  ])('online %s: queued with %j', (online, fields) => {
    expect(queuedFields(NOW + 2_000, online)).toEqual(fields);
  });

  it.each([
    [true, 3, { retryAt: NOW + 2_000 }],
    [false, 1, {}],
  ])("online %s, %s waiting: the burst's error event", (online, queued, extra) => {
    const error = failure('network_error');
    expect(burstError(error, queued, NOW + 2_000, online)).toEqual({
      ...error,
      message: `${error.message}; ${queued} queued`,
      ...extra,
    });
    // The failure itself is left as it was.
    expect(error.message).toBe('[POST /messages] network_error');
  });
});

describe("turns: another WebView's turn comes after the current send", () => {
  it.each([
    [true, true],
    [false, false],
    [undefined, false], // where the locks cannot tell
  ])('another waiting %s: this pass ends %s', (wanted, yields) => {
    expect(yieldsTurn(wanted)).toBe(yields);
  });
});

describe('orphans: which stored keys to take in, and which keep this page watching', () => {
  const held = new Set([PAGE_LOCK + 'live', 'some other lock']);
  it.each([
    // key, foreign (another page's, not in memory here) → orphan, watched
    [key(1, 'gone'), true, true, false],
    [key(1, 'live'), true, false, true], // a live page's: left to it, and watched while it lives
    [key(1, 'me'), false, false, false], // this page's own
    [key(1, 'gone'), false, false, false], // another page's, already in memory here
  ])('%s (foreign %s): orphan %s, watched %s', (stored, foreign, orphan, watched) => {
    expect(isOrphan(stored, foreign, held)).toBe(orphan);
    expect(isWatched(stored, foreign, held)).toBe(watched);
  });

  it('takes in every foreign key where the locks cannot tell a live page (no locks held), and watches none', () => {
    expect(isOrphan(key(1, 'live'), true, new Set())).toBe(true);
    expect(isWatched(key(1, 'live'), true, new Set())).toBe(false);
  });
});

describe('cancels: at once, under the inbox lock, or not at all', () => {
  it.each([
    // holding the inbox lock, the message's page → at once
    [false, 'me', true],
    [true, 'me', true],
    [true, 'gone', true],
    [false, 'gone', false], // another page's, taken in here: under the lock, after a look for it
  ])('holding %s, a message of %s: at once %s', (holding, page, atOnce) => {
    expect(cancelsAtOnce(holding, key(1, page), 'me')).toBe(atOnce);
  });

  it.each<[MessageState, boolean]>([
    ['queued', true],
    ['sending', false], // its request is under way
    ['sent', true],
    ['failed', true],
  ])('a message %s may be cancelled: %s', (state, may) => {
    expect(mayCancel(state)).toBe(may);
  });
});

describe('a clock set back: a wait on the wait clock, told on the wall clock', () => {
  it.each([
    // wall now, wait clock now, due (wait clock), told → listed
    ['as told', NOW, 5_000, 7_000, NOW + 2_000, NOW + 2_000],
    ['a truncated millisecond apart: as told', NOW + 1, 5_000, 7_000, NOW + 2_000, NOW + 2_000],
    ['the wall clock set back an hour', NOW - 3_600_000 + 500, 5_500, 7_000, NOW + 2_000, NOW - 3_600_000 + 2_000],
    ['the wall clock set forward a minute', NOW + 60_500, 5_500, 7_000, NOW + 2_000, NOW + 62_000],
    ['never told: as it reads now, whole ms', 1_000, 0.4, 2_000.3, undefined, 3_000],
  ])('%s', (_, now, clock, due, told, listed) => {
    expect(toldTime(now, clock, due, told)).toBe(listed);
  });
});
