import { describe, expect, it } from 'vitest';
import { oneAtATime, rerunning } from '../../../../bridge/backend/one-at-a-time.js';

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

describe('rerunning', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('runs once when asked while idle, and once more after a run however often it was asked meanwhile', async () => {
    const resolvers: Array<() => void> = [];
    const run = () => new Promise<void>((resolve) => resolvers.push(resolve));
    const ask = rerunning(
      run,
      () => undefined,
      () => false,
    );
    ask();
    ask();
    ask();
    expect(resolvers).toHaveLength(1);
    resolvers[0]?.();
    await tick();
    expect(resolvers).toHaveLength(2);
    resolvers[1]?.();
    await tick();
    expect(resolvers).toHaveLength(2);
    ask();
    expect(resolvers).toHaveLength(3);
  });

  it('runs no more once stopped, even where it was asked again during the run', async () => {
    let stopped = false;
    let runs = 0;
    let ask = () => {};
    ask = rerunning(
      async () => {
        runs++;
        ask();
        stopped = true;
      },
      () => undefined,
      () => stopped,
    );
    ask();
    await tick();
    expect(runs).toBe(1);
  });

  it('runs nothing when asked once stopped', async () => {
    let runs = 0;
    const ask = rerunning(
      async () => void runs++,
      () => undefined,
      () => true,
    );
    ask();
    await tick();
    expect(runs).toBe(0);
  });

  it('hands a failure to `caught`, ends the runs, and runs again when asked later', async () => {
    const caught: unknown[] = [];
    let runs = 0;
    const ask = rerunning(
      async () => {
        runs++;
        throw new Error(`run ${runs}`);
      },
      (thrown) => caught.push(thrown),
      () => false,
    );
    ask();
    await tick();
    expect(caught).toEqual([new Error('run 1')]);
    ask();
    await tick();
    expect(runs).toBe(2);
  });
});
