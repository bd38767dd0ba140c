/**
 * The demo's request timeline model: lanes of requests and the reason for each wait between
 * them (Retry-After, backoff after a failure, an offline spell), as the page draws them.
 */
import { describe, expect, it } from 'vitest';
import { createTimeline, STEP_MS } from '../../../demo-page/timeline-model.js';
import { echoIdOf } from '../../../demo-page/request-observer.js';

/** One request of `lane` from `start` to `end` (ms), answered `status` (none: no HTTP answer). */
function request(
  timeline: ReturnType<typeof createTimeline>,
  lane: string,
  start: number,
  end: number,
  answer: { status?: number; retryAfter?: string } = {},
) {
  const entry = timeline.started({ lane, method: 'POST', path: '/messages', at: start });
  timeline.ended(entry, { at: end, ...answer });
  return entry;
}

describe('the request timeline model', () => {
  it("labels a rate-limit storm's waits with the server's Retry-After", () => {
    const timeline = createTimeline();
    for (const start of [0, 1_050, 2_100])
      request(timeline, 'init c1', start, start + 40, { status: 429, retryAfter: '1' });
    request(timeline, 'init c1', 3_150, 3_190, { status: 200 });

    const [lane] = timeline.lanes();
    expect(lane?.name).toBe('init c1');
    expect(lane?.requests.map((entry) => entry.status)).toEqual([429, 429, 429, 200]);
    expect(lane?.waits.map((wait) => wait.reason)).toEqual([
      'Retry-After: 1 → 1.0 s',
      'Retry-After: 1 → 1.0 s',
      'Retry-After: 1 → 1.0 s',
    ]);
  });

  it("labels a retry schedule's waits as backoff after failures without an answer or with a 503", () => {
    const timeline = createTimeline();
    request(timeline, 'message m-1', 0, 100);
    request(timeline, 'message m-1', 1_900, 2_000, { status: 503 });
    request(timeline, 'message m-1', 5_000, 5_050, { status: 200 });

    const [lane] = timeline.lanes();
    expect(lane?.requests[0]?.failed).toBe(true);
    expect(lane?.waits).toEqual([
      { from: 100, to: 1_900, reason: 'backoff 1.8 s' },
      { from: 2_000, to: 5_000, reason: 'backoff 3.0 s' },
    ]);
  });

  it('names an offline spell between two requests as the reason for the wait, and keeps the spell', () => {
    const timeline = createTimeline();
    request(timeline, 'message m-2', 0, 5);
    timeline.network(true, 10);
    timeline.network(true, 20); // a second offline event does not open a second spell
    timeline.network(false, 4_000);
    request(timeline, 'message m-2', 4_010, 4_100, { status: 200 });

    expect(timeline.spells()).toEqual([{ start: 10, end: 4_000 }]);
    expect(timeline.lanes()[0]?.waits.map((wait) => wait.reason)).toEqual(['offline, 4.0 s']);
  });

  it("shows no wait between one command's quick steps, and the most recently active lane first", () => {
    const timeline = createTimeline();
    request(timeline, 'getConversation c2', 0, 30, { status: 200 });
    request(timeline, 'getConversation c2', 30 + STEP_MS - 1, 300, { status: 404 });
    request(timeline, 'init c3', 400, 450, { status: 200 });

    expect(timeline.lanes().map((lane) => lane.name)).toEqual(['init c3', 'getConversation c2']);
    expect(timeline.lanes()[1]?.waits).toEqual([]);
  });

  it('is live while a request waits for its answer or an offline spell is open', () => {
    const timeline = createTimeline();
    expect(timeline.live()).toBe(false);
    const open = timeline.started({ lane: 'init c1', method: 'GET', path: '/config', at: 0 });
    expect(timeline.live()).toBe(true);
    timeline.ended(open, { at: 10, status: 200 });
    expect(timeline.live()).toBe(false);
    timeline.network(true, 20);
    expect(timeline.live()).toBe(true);
    timeline.clear();
    expect(timeline.lanes()).toEqual([]);
    expect(timeline.live()).toBe(false);
  });
});

describe('echoIdOf', () => {
  it('reads the echo_id of a JSON message send and of a multipart one, and nothing else', () => {
    expect(echoIdOf(JSON.stringify({ message: { content: 'Hi', echo_id: 'm-1' } }))).toBe('m-1');
    const form = new FormData();
    form.append('message[echo_id]', 'm-2');
    expect(echoIdOf(form)).toBe('m-2');
    for (const body of [
      undefined,
      '',
      '{',
      JSON.stringify({ contact: {} }),
      JSON.stringify({ message: { echo_id: 5 } }),
    ])
      expect(echoIdOf(body)).toBeUndefined();
  });
});
