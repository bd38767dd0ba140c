// @vitest-environment node
/**
 * Every fixture under test/fixtures (and test/fixtures/outside) replays, on every host, exactly
 * as its golden says; replays are deterministic; `--host all` is the single-host runs merged;
 * and no token value ever reaches the output.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOST_NAMES, type HostName } from '../../bridge/protocol/bridge-options.js';
import { lineDiff } from '../../tools/replay/diff.js';
import { replay } from '../../tools/replay/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE_DIRS = ['test/fixtures', 'test/fixtures/outside'];

/** Fixture paths relative to the repository root, e.g. "test/fixtures/config-empty.jsonl". */
const fixtures = FIXTURE_DIRS.flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((file) => file.endsWith('.jsonl'))
    .sort()
    .map((file) => `${dir}/${file}`),
);

const goldenOf = (fixture: string, host: HostName) =>
  `${dirname(fixture)}/golden/${basename(fixture, '.jsonl')}.${host}.jsonl`;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const play = (fixture: string, host: HostName | 'all') => replay(read(fixture), { host, name: fixture });

interface Line {
  kind: 'request' | 'deliver';
  at: number;
  host?: HostName;
}
const linesOf = (output: string) => output.split('\n').filter((line) => line !== '');
const parsed = (line: string) => JSON.parse(line) as Line;

describe('fixture goldens', () => {
  it('finds the fixtures (a wrong directory must not pass with no cases)', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
    expect(fixtures).toContain('test/fixtures/happy-round-trip.jsonl');
    expect(fixtures.some((fixture) => fixture.startsWith('test/fixtures/outside/'))).toBe(true);
  });

  describe.each(fixtures)('%s', (fixture) => {
    it.each(HOST_NAMES)('replays on %s exactly as its golden', async (host) => {
      const golden = goldenOf(fixture, host);
      if (!existsSync(join(ROOT, golden))) {
        expect.fail(
          `${golden} is missing; create it with: npx chat-bridge replay ${fixture} --host ${host} --expect ${golden} --update`,
        );
      }
      const expected = read(golden);
      const actual = await play(fixture, host);
      if (actual !== expected) {
        expect.fail(
          `${fixture} on ${host} differs from ${golden} (--- expected, +++ actual):\n${lineDiff(expected, actual)}`,
        );
      }
    });
  });

  it('has no golden without its fixture (a renamed fixture leaves none behind)', () => {
    const expected = new Set(fixtures.flatMap((fixture) => HOST_NAMES.map((host) => goldenOf(fixture, host))));
    const present = FIXTURE_DIRS.flatMap((dir) =>
      existsSync(join(ROOT, dir, 'golden'))
        ? readdirSync(join(ROOT, dir, 'golden')).map((file) => `${dir}/golden/${file}`)
        : [],
    );
    expect(present.filter((golden) => !expected.has(golden))).toEqual([]);
  });
});

describe('replay determinism', () => {
  it.each(fixtures)('gives byte-identical output when %s is played twice', async (fixture) => {
    const first = await play(fixture, 'all');
    const second = await play(fixture, 'all');
    expect(second).toBe(first);
  });

  it.each(fixtures)(
    'prints in "--host all" each adapter\'s deliveries and the same requests as single-host runs of %s',
    async (fixture) => {
      const all = linesOf(await play(fixture, 'all'));
      const requestsOf = (lines: string[]) => lines.filter((line) => parsed(line).kind === 'request');
      for (const host of HOST_NAMES) {
        const single = linesOf(await play(fixture, host));
        const deliveries = all.filter((line) => parsed(line).kind === 'deliver' && parsed(line).host === host);
        // Every host is told at least "ready", so an adapter missing from "all" cannot pass.
        expect(deliveries.length).toBeGreaterThan(0);
        expect(deliveries).toEqual(single.filter((line) => parsed(line).kind === 'deliver'));
        expect(requestsOf(all)).toEqual(requestsOf(single));
      }
    },
  );
});

describe('token redaction in replays', () => {
  /** Every string under a field whose name says it is a credential, at any depth of a JSON value. */
  function credentialsIn(value: unknown, found: Set<string>): void {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      if (/token|secret|password/i.test(key) && typeof item === 'string' && item.length >= 6) found.add(item);
      else credentialsIn(item, found);
    }
  }

  /**
   * The website token of the config step (or the default), every authToken a respond step gives,
   * and every credential field of a widget message the fixture posts.
   */
  function tokensOf(fixture: string): string[] {
    const tokens = new Set<string>();
    let configured = false;
    for (const raw of read(fixture).split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('//')) continue;
      const step = JSON.parse(line) as {
        step: string;
        options?: { websiteToken?: string };
        body?: unknown;
        data?: unknown;
      };
      if (step.step === 'config') {
        configured = true;
        if (step.options?.websiteToken) tokens.add(step.options.websiteToken);
      }
      const body = typeof step.body === 'string' ? step.body : JSON.stringify(step.body ?? null);
      for (const match of body.matchAll(/"authToken"\s*:\s*"([^"]+)/g)) tokens.add(match[1]!);
      credentialsIn(step.body, tokens);
      if (step.step === 'post' && typeof step.data === 'string') {
        try {
          credentialsIn(JSON.parse(step.data.slice(step.data.indexOf(':') + 1)), tokens);
        } catch {
          // Not a widget message with JSON (malformed on purpose, or foreign traffic).
        }
      }
    }
    if (!configured) tokens.add('wt_fixture');
    return [...tokens];
  }

  /** The forms a token could be printed in: raw, URI- and form-encoded, base64, base64url, JSON-escaped. */
  const formsOf = (token: string) => [
    token,
    encodeURIComponent(token),
    new URLSearchParams({ t: token }).toString().slice(2),
    Buffer.from(token).toString('base64'),
    Buffer.from(token).toString('base64url'),
    JSON.stringify(token).slice(1, -1),
    JSON.stringify(JSON.stringify(token).slice(1, -1)).slice(1, -1),
  ];

  it('knows the tokens the fixtures use (so the check below checks something)', () => {
    expect(tokensOf('test/fixtures/happy-round-trip.jsonl').sort()).toEqual(['at_happy_Zk81Pw', 'wt_happy_7Hq2Lx']);
    expect(tokensOf('test/fixtures/auth-refresh.jsonl')).toEqual(
      expect.arrayContaining(['wt_fixture', 'at_old_token', 'at_new_token', 'at_newer_token']),
    );
    expect(tokensOf('test/fixtures/widget-credentials.jsonl')).toEqual(
      expect.arrayContaining(['cw_conv_jwt_Xy7Qm2Lp', 'ws_secret_Fz81']),
    );
    expect(tokensOf('test/fixtures/encoded-token-echo.jsonl')).toEqual(
      expect.arrayContaining(['wt+Echo/7f3a=9c ü', 'at_echo_Kp3/x+Qz==']),
    );
  });

  it.each(fixtures)('prints no form of any token of %s on any host, nor keeps one in its goldens', async (fixture) => {
    const tokens = tokensOf(fixture);
    const output = await play(fixture, 'all');
    const goldens = HOST_NAMES.map((host) => goldenOf(fixture, host))
      .filter((golden) => existsSync(join(ROOT, golden)))
      .map(read);
    for (const token of tokens) {
      for (const form of formsOf(token)) {
        expect(output).not.toContain(form);
        for (const golden of goldens) expect(golden).not.toContain(form);
      }
    }
  });
});
