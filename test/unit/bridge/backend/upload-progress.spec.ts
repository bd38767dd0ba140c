import { describe, expect, it } from 'vitest';
import { throttledProgress } from '../../../../bridge/backend/upload-progress.js';
import type { UploadProgress } from '../../../../bridge/protocol/messages.js';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

const MiB = 1024 * 1024;

/** A throttle on a virtual clock, and what it let through as [time, sentBytes]. */
function setup() {
  const clock = createVirtualClock(0);
  const reports: Array<[number, number]> = [];
  const report = throttledProgress(clock.now, (progress: UploadProgress) => {
    expect(progress.totalBytes).toBeGreaterThan(0);
    reports.push([clock.now(), progress.sentBytes]);
  });
  return { clock, reports, report };
}

describe('upload progress throttling', () => {
  it('passes the first report, then one per 5% when bytes move faster than 5% in 250 ms', () => {
    const { clock, reports, report } = setup();
    // 100 MiB, the WebView reporting every 10 ms, 1% more each time.
    for (let step = 0; step < 100; step++) {
      report(step * MiB, 100 * MiB);
      clock.advance(10);
    }
    expect(reports.map(([, sent]) => sent / MiB)).toEqual([
      0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95,
    ]);
  });

  it('passes one report per 250 ms when bytes move slower than 5% in 250 ms', () => {
    const { clock, reports, report } = setup();
    // 0.1% every 50 ms: 5% would take 2.5 s.
    for (let step = 0; step <= 40; step++) {
      report(step * 1_000, 1_000_000);
      clock.advance(50);
    }
    expect(reports.map(([time]) => time)).toEqual([0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000]);
    expect(reports.map(([, sent]) => sent)).toEqual([0, 5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 35_000, 40_000]);
  });

  it('always passes the final 100%, once, however soon after the last report', () => {
    const { clock, reports, report } = setup();
    report(0, 1_000);
    clock.advance(1);
    report(10, 1_000);
    report(1_000, 1_000);
    report(1_000, 1_000);
    expect(reports).toEqual([
      [0, 0],
      [1, 1_000],
    ]);
  });

  it('repeats nothing while an upload stalls, and reports again once it moves', () => {
    const { clock, reports, report } = setup();
    report(100, 1_000);
    for (let i = 0; i < 10; i++) {
      clock.advance(300);
      report(100, 1_000);
    }
    report(101, 1_000);
    expect(reports).toEqual([
      [0, 100],
      [3_000, 101],
    ]);
  });

  it('reports a second upload of the same message (a retry after a 401) from its start', () => {
    const { clock, reports, report } = setup();
    report(1_000, 1_000);
    clock.advance(10);
    report(0, 1_000);
    report(10, 1_000);
    expect(reports).toEqual([
      [0, 1_000],
      [10, 0],
    ]);
  });

  it('never sends more than one report per 5% plus one per 250 ms', () => {
    const { clock, reports, report } = setup();
    // A 10 s upload reported every millisecond.
    for (let ms = 0; ms <= 10_000; ms++) {
      report(ms * 100, 1_000_000);
      clock.advance(1);
    }
    expect(reports.length).toBeLessThanOrEqual(20 + 10_000 / 250 + 1);
    expect(reports.at(-1)).toEqual([10_000, 1_000_000]);
    for (let i = 1; i < reports.length; i++) {
      const [time, sent] = reports[i] as [number, number];
      const [lastTime, lastSent] = reports[i - 1] as [number, number];
      expect(time - lastTime >= 250 || sent - lastSent >= 50_000 || sent === 1_000_000).toBe(true);
    }
  });
});
