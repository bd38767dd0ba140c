/**
 * The demo's request timeline model: lanes of requests and the reason for each wait between
 * them (Retry-After, backoff after a failure, an offline spell), as the page draws them.
 */
import { describe, expect, it } from 'vitest';
import { createTimeline, laneSpan, MIN_SPAN_MS, STEP_MS, uploadPhase } from '../../../demo-page/timeline-model.js';
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

describe("each row's time axis", () => {
  it("fits a lane's own requests, however long before them the session began", () => {
    const timeline = createTimeline();
    request(timeline, 'init c1', 0, 50, { status: 200 });
    // A rate-limit storm ten minutes later: its row spans the storm, not the session.
    for (const start of [600_000, 601_000, 602_000]) request(timeline, 'init c2', start, start + 30, { status: 429 });

    const [storm, first] = timeline.lanes();
    expect(laneSpan(storm!, 700_000)).toEqual({ start: 600_000, span: 2_030, offline: false });
    // One quick request is a short bar on a row of at least MIN_SPAN_MS, not a full-width one.
    expect(laneSpan(first!, 700_000)).toEqual({ start: 0, span: MIN_SPAN_MS, offline: false });
  });

  it('runs up to now while a request is unanswered, or while its message waits out an offline spell (and says so)', () => {
    const timeline = createTimeline();
    const open = timeline.started({ lane: 'message m-1', method: 'POST', path: '/messages', at: 1_000 });
    expect(laneSpan(timeline.lanes()[0]!, 4_000)).toEqual({ start: 1_000, span: 3_000, offline: false });
    timeline.ended(open, { at: 1_200 }); // no answer: offline
    timeline.network(true, 1_100);
    expect(laneSpan(timeline.lanes()[0]!, 9_000, timeline.spells())).toEqual({
      start: 1_000,
      span: 8_000,
      offline: true,
    });
    timeline.network(false, 9_500);
    expect(laneSpan(timeline.lanes()[0]!, 20_000, timeline.spells())).toEqual({
      start: 1_000,
      span: MIN_SPAN_MS,
      offline: false,
    });
  });

  it("ends a command's row with its last answer, offline or not: a command is not retried", () => {
    const timeline = createTimeline();
    const failed = timeline.started({ lane: 'getConversation c1', method: 'GET', path: '/config', at: 0 });
    timeline.network(true, 0);
    timeline.ended(failed, { at: 50 });
    expect(laneSpan(timeline.lanes()[0]!, 9_000, timeline.spells())).toEqual({
      start: 0,
      span: MIN_SPAN_MS,
      offline: false,
    });
  });

  it('is not stretched by an offline spell that began after its last answer', () => {
    const timeline = createTimeline();
    request(timeline, 'init c1', 0, 2_000, { status: 200 });
    timeline.network(true, 5_000);
    expect(laneSpan(timeline.lanes()[0]!, 30_000, timeline.spells())).toEqual({
      start: 0,
      span: 2_000,
      offline: false,
    });
  });
});

describe("an upload's phases", () => {
  it('reads its percentage, then waiting for the server once the whole body is out, then nothing once answered', () => {
    const timeline = createTimeline();
    const upload = timeline.started({ lane: 'message m-1', method: 'POST', path: '/messages', at: 0 });
    expect(uploadPhase(upload)).toBeUndefined(); // no progress yet: a plain request
    timeline.uploaded(upload, { at: 500, sentBytes: 2_500, totalBytes: 10_000 });
    expect(uploadPhase(upload)).toBe('uploading 25%');
    expect(upload.upload?.sentAt).toBeUndefined();
    timeline.uploaded(upload, { at: 900, sentBytes: 10_000, totalBytes: 10_000 });
    // Browsers may report the last progress event twice: the body was all out at the first.
    timeline.uploaded(upload, { at: 1_000, sentBytes: 10_000, totalBytes: 10_000 });
    expect(upload.upload?.sentAt).toBe(900);
    expect(uploadPhase(upload)).toBe('all sent, waiting for the server');
    timeline.ended(upload, { at: 4_000, status: 200 });
    expect(uploadPhase(upload)).toBeUndefined();
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
