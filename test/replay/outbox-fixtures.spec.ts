// @vitest-environment node
/**
 * The outbox fixtures' goldens pin a retry schedule; a golden regenerated with `--update` after a
 * wrong change would pin the wrong one. These checks read the replay itself against the rules the
 * schedule must keep (docs/delivery.md, docs/replay-and-recording.md), so such a golden cannot pass unnoticed.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replay, SETTLE_LIMIT_MS } from '../../tools/replay/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Line {
  kind: 'request' | 'deliver';
  at: number;
  method?: string;
  path?: string;
  body?: { message?: { echo_id?: string } };
  unanswered?: true;
  payload?: {
    type: string;
    id?: string;
    messageId?: string;
    state?: string;
    attempt?: number;
    nextAttemptAt?: number;
    code?: string;
  };
}

async function play(name: string): Promise<Line[]> {
  const fixture = `test/fixtures/${name}.jsonl`;
  const output = await replay(readFileSync(join(ROOT, fixture), 'utf8'), { host: 'browser', name: fixture });
  return output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

const posts = (lines: Line[]) => lines.filter((l) => l.kind === 'request' && l.path === '/messages');
const states = (lines: Line[]) => lines.filter((l) => l.payload?.type === 'message').map((l) => l.payload!);
const errors = (lines: Line[]) => lines.filter((l) => l.payload?.type === 'error');

/** The bounds of the wait after attempt n: equal jitter on min(60 s, 1 s × 2^(n−1)). */
const bounds = (attempt: number) => {
  const exponential = Math.min(60_000, 1_000 * 2 ** (attempt - 1));
  return [exponential / 2, exponential] as const;
};

/** Every wait the outbox announced, checked against its bounds and against when the attempt really went. */
function checkSchedule(lines: Line[]): number[] {
  const waits: number[] = [];
  lines.forEach((line, index) => {
    const state = line.payload;
    if (state?.type !== 'message' || state.state !== 'queued' || state.nextAttemptAt === undefined) return;
    const wait = state.nextAttemptAt - line.at;
    const [low, high] = bounds(state.attempt!);
    expect(wait, `wait after attempt ${state.attempt}`).toBeGreaterThanOrEqual(low);
    expect(wait, `wait after attempt ${state.attempt}`).toBeLessThanOrEqual(high);
    waits.push(wait);
    const next = lines.slice(index + 1).find((l) => l.payload?.type === 'message' && l.payload.state === 'sending');
    if (next) {
      expect(next.at).toBe(state.nextAttemptAt);
      expect(next.payload!.attempt).toBe(state.attempt! + 1);
    }
  });
  return waits;
}

describe('outbox-retry-schedule', () => {
  it('retries within 2 s, then on capped, jittered exponential backoff, never over 60 s, until sent', async () => {
    const lines = await play('outbox-retry-schedule');
    const waits = checkSchedule(lines);
    expect(waits).toHaveLength(8);
    expect(waits[0]).toBeLessThanOrEqual(2_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(60_000);
    // The cap is reached: the seventh and eighth waits are drawn from 30-60 s.
    expect(waits.slice(6).every((wait) => wait >= 30_000)).toBe(true);
    expect(posts(lines)).toHaveLength(9);
    expect(states(lines).at(-1)).toMatchObject({ state: 'sent', attempt: 9 });
    expect(lines.at(-1)?.payload).toMatchObject({ type: 'response', id: 'm-1', ok: true });
  });

  it('sends every attempt under the one echo_id and tells the host of the burst once', async () => {
    const lines = await play('outbox-retry-schedule');
    expect(new Set(posts(lines).map((l) => l.body?.message?.echo_id))).toEqual(new Set(['echo-sched-1']));
    expect(errors(lines)).toHaveLength(1);
    expect(states(lines).map((s) => s.messageId)).toEqual(states(lines).map(() => 'echo-sched-1'));
  });
});

describe('outbox-retry-unanswered', () => {
  it("retries by itself after the last step, each request marked unanswered, until the replay's 15 minutes end", async () => {
    const lines = await play('outbox-retry-unanswered');
    checkSchedule(lines);
    const [first, ...retries] = posts(lines);
    expect(first).not.toHaveProperty('unanswered');
    expect(retries.length).toBeGreaterThan(15);
    expect(retries.every((request) => request.unanswered === true)).toBe(true);
    expect(retries.every((request) => request.at <= SETTLE_LIMIT_MS)).toBe(true);
    // Still waiting at the end: its next attempt falls after the limit, nothing failed it.
    const last = states(lines).at(-1)!;
    expect(last).toMatchObject({ state: 'queued', attempt: retries.length + 1 });
    expect(last.nextAttemptAt).toBeGreaterThan(SETTLE_LIMIT_MS);
    expect(lines.some((l) => l.payload?.type === 'response' && l.payload.id === 'm-1')).toBe(false);
    expect(errors(lines)).toHaveLength(1);
  });
});

describe('outbox-cancel', () => {
  it('makes no attempt after the cancel', async () => {
    const lines = await play('outbox-cancel');
    const cancelledAt = lines.find((l) => l.payload?.state === 'failed')!.at;
    expect(posts(lines).filter((request) => request.at >= cancelledAt)).toEqual([]);
    expect(lines.at(-1)!.at).toBe(cancelledAt);
  });
});
