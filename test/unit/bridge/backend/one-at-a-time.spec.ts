import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../../../bridge/backend/one-at-a-time.js';

/** A run the test settles by hand, counting its starts and keeping each start's arguments. */
function controlled() {
  const starts: string[] = [];
  const settle: Array<(outcome: { value?: string; error?: Error }) => void> = [];
  const run = (name: string) =>
    new Promise<string>((resolve, reject) => {
      starts.push(name);
      settle.push(({ value, error }) => (error ? reject(error) : resolve(value ?? '')));
    });
  return { run, starts, settle };
}

describe('oneAtATime', () => {
  it("shares one run between callers while it is under way, with its first caller's arguments", async () => {
    const { run, starts, settle } = controlled();
    const shared = oneAtATime(run);
    const first = shared('a');
    const second = shared('b');
    expect(starts).toEqual(['a']);
    settle[0]?.({ value: 'done' });
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
  });

  it('runs again once the run settled, after a failure as after a success', async () => {
    const { run, starts, settle } = controlled();
    const shared = oneAtATime(run);
    const failed = shared('a');
    settle[0]?.({ error: new Error('no answer') });
    await expect(failed).rejects.toThrow('no answer');
    const again = shared('b');
    expect(starts).toEqual(['a', 'b']);
    settle[1]?.({ value: 'second' });
    expect(await again).toBe('second');
  });
});
