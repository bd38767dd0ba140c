/**
 * The React Native host's probe after onLoadStart (host-adapters/load-probe.ts): is the page's
 * bridge still there, at the URL loading?
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoadProbe, PROBE_ATTEMPTS, PROBE_RETRY_MS } from '../../../host-adapters/load-probe.js';

function setup() {
  const scripts: string[] = [];
  const stillThere = vi.fn();
  const probe = createLoadProbe((script) => (scripts.push(script), true), stillThere);
  /** The token of the latest probe script, as the page would post it back. */
  const token = () => /probe:"([^"]+)"/.exec(scripts.at(-1) ?? '')?.[1] ?? '';
  return { scripts, stillThere, probe, token };
}

describe('createLoadProbe', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks the page at once, and believes an answer from the URL loading', () => {
    const { scripts, stillThere, probe, token } = setup();
    probe.start('https://chat.example/#b');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain('ReactNativeWebView');
    probe.answered({ type: 'ready', probe: token(), href: 'https://chat.example/#b' });
    expect(stillThere).toHaveBeenCalledTimes(1);
  });

  it("ignores a stale probe's answer", () => {
    const { stillThere, probe, token } = setup();
    probe.start('https://chat.example/');
    const first = token();
    probe.start('https://chat.example/');
    probe.answered({ type: 'ready', probe: first, href: 'https://chat.example/' });
    expect(stillThere).not.toHaveBeenCalled();
    probe.answered({ type: 'ready', probe: token(), href: 'https://chat.example/' });
    expect(stillThere).toHaveBeenCalledTimes(1);
  });

  it('asks a page still at another URL again, and believes it after PROBE_ATTEMPTS answers', () => {
    const { scripts, stillThere, probe, token } = setup();
    probe.start('https://chat.example/new');
    for (let attempt = 1; attempt < PROBE_ATTEMPTS; attempt++) {
      probe.answered({ type: 'ready', probe: token(), href: 'https://chat.example/old' });
      expect(stillThere).not.toHaveBeenCalled();
      expect(scripts).toHaveLength(attempt);
      vi.advanceTimersByTime(PROBE_RETRY_MS);
      expect(scripts).toHaveLength(attempt + 1);
    }
    probe.answered({ type: 'ready', probe: token(), href: 'https://chat.example/old' });
    expect(stillThere).toHaveBeenCalledTimes(1);
  });

  it('believes any answer when the URL loading is unknown, and stop() ends the asking', () => {
    const { scripts, stillThere, probe, token } = setup();
    probe.start(undefined);
    probe.answered({ type: 'ready', probe: token(), href: 'https://anything/' });
    expect(stillThere).toHaveBeenCalledTimes(1);

    probe.start('https://chat.example/new');
    probe.answered({ type: 'ready', probe: token(), href: 'https://chat.example/old' });
    probe.stop();
    vi.advanceTimersByTime(10 * PROBE_RETRY_MS);
    expect(scripts).toHaveLength(2);
    probe.answered({ type: 'ready', probe: token(), href: 'https://chat.example/new' });
    expect(stillThere).toHaveBeenCalledTimes(1);
  });
});
