/**
 * Playing a fixture (tools/replay/replay.ts). Every fixture against its goldens is
 * test/replay/fixtures.spec.ts; here, what the player itself promises.
 */
import { describe, expect, it } from 'vitest';
import { ReplayError } from '../../../../tools/replay/fixture.js';
import { replay } from '../../../../tools/replay/replay.js';

const INIT = [
  '{"step":"config","options":{"baseUrl":"https://chat.example/api","websiteToken":"wt_replay_token_0123","host":"android"}}',
  '{"step":"respond","method":"GET","path":"/config","status":200,"body":{"authToken":"at_replay_token_0123"}}',
  '{"step":"host","data":{"id":"i-1","method":"init"}}',
];

describe('replay', () => {
  it('prints the request and the deliveries, the same on every run, with no token in them', async () => {
    const first = await replay(INIT.join('\n'), { host: 'android' });
    expect(await replay(INIT.join('\n'), { host: 'android' })).toBe(first);
    const lines = first
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.kind === 'request')).toMatchObject({ method: 'GET', path: '/config' });
    expect(lines.some((line) => line.kind === 'deliver' && line.host === 'android')).toBe(true);
    expect(first).not.toContain('wt_replay_token_0123');
    expect(first).not.toContain('at_replay_token_0123');
  });

  it('stops at a request no step answers, naming the line', async () => {
    await expect(
      replay(INIT.filter((_, index) => index !== 1).join('\n'), { host: 'android', name: 'x.jsonl' }),
    ).rejects.toThrow(new ReplayError('x.jsonl:2: no "respond" or "fail" step is queued for GET /config'));
  });

  it('warns about answers never used, and refuses an unknown host', async () => {
    const warnings: string[] = [];
    await replay([...INIT, '{"step":"respond","method":"POST","path":"/messages","status":200}'].join('\n'), {
      host: 'android',
      name: 'y.jsonl',
      onWarning: (message) => warnings.push(message),
    });
    expect(warnings).toEqual(['y.jsonl: 1 queued answer(s) never used: POST /messages']);
    await expect(replay(INIT.join('\n'), { host: 'windows' as never })).rejects.toThrow(ReplayError);
  });

  it('plays the timers left after the last step in virtual time: a retry 2 s later, without waiting for it', async () => {
    const fixture = [
      ...INIT,
      '{"step":"respond","method":"POST","path":"/messages","status":429,"headers":{"Retry-After":"2"}}',
      '{"step":"respond","method":"POST","path":"/messages","status":200,"body":{"id":301}}',
      '{"step":"host","data":{"id":"m-1","method":"sendMessage","params":{"content":"hi","messageId":"e-1"}}}',
    ];
    const started = Date.now();
    const lines = (await replay(fixture.join('\n'), { host: 'android' }))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines.filter((line) => line.path === '/messages').map((line) => line.at)).toEqual([0, 2_000]);
    expect(lines.at(-1)).toMatchObject({ kind: 'deliver', at: 2_000 });
    // The message's `sent` state and the response, in one call of the android channel.
    expect(JSON.parse(lines.at(-1).payload)).toMatchObject([
      { type: 'message', messageId: 'e-1', state: 'sent' },
      { type: 'response', id: 'm-1', ok: true },
    ]);
  });
});
