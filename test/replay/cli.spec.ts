// @vitest-environment node
/**
 * `chat-bridge replay` as a user runs it: bin/chat-bridge.js in a child process, its exit status,
 * stdout and stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'chat-bridge.js');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'rate-limit-retry-after.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'chat-bridge-cli-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return node([BIN, ...args]);
}

/** Node with these arguments, as a child process. */
function node(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 20_000 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, stdout, stderr });
    });
  });
}

/** Writes a fixture into the scratch directory and returns its path. */
function fixture(name: string, lines: string[]): string {
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe.concurrent('chat-bridge usage', () => {
  it('documents replay, --host, --expect and --update under --help, exiting 0', async () => {
    const { status, stdout } = await cli('--help');
    expect(status).toBe(0);
    for (const word of [
      'replay',
      '--host',
      '--expect',
      '--update',
      'react-native',
      'android',
      'ios',
      'flutter',
      'browser',
    ]) {
      expect(stdout).toContain(word);
    }
  });

  it('exits 2 without arguments, printing the usage to stderr', async () => {
    const { status, stdout, stderr } = await cli();
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('chat-bridge replay FILE --host HOST');
  });

  it('exits 2 for an unknown host, naming it', async () => {
    const { status, stderr } = await cli('replay', FIXTURE, '--host', 'windows-phone');
    expect(status).toBe(2);
    expect(stderr).toContain('windows-phone');
  });

  it('exits 2 when --host is missing', async () => {
    const { status, stderr } = await cli('replay', FIXTURE);
    expect(status).toBe(2);
    expect(stderr).toContain('--host');
  });

  it('exits 2 for --update without --expect', async () => {
    expect((await cli('replay', FIXTURE, '--host', 'ios', '--update')).status).toBe(2);
  });

  it('on a Node older than 20, exits 1 with one line naming both versions, before loading dist/', async () => {
    const asNode18 = `data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'18.20.4'}})`;
    const { status, stdout, stderr } = await node(['--import', asNode18, BIN, 'help']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('chat-bridge: needs Node.js 20 or newer; this is Node.js 18.20.4.\n');
  });
});

describe('dist/cli.js run directly', () => {
  it('replays as bin/chat-bridge.js does, rather than exiting 0 with no output', async () => {
    const photos = join(ROOT, 'test', 'fixtures', 'upload-base64.jsonl');
    // The bin first: it builds dist/ where a checkout has none.
    const viaBin = await cli('replay', photos, '--host', 'ios');
    const direct = await node([join(ROOT, 'dist', 'cli.js'), 'replay', photos, '--host', 'ios']);
    expect(viaBin.status).toBe(0);
    expect(viaBin.stdout).toContain('"path":"/messages"');
    expect(direct).toEqual(viaBin);
  });
});

describe.concurrent('chat-bridge replay fixture errors', () => {
  it('exits 1 for a line that is not JSON, naming the file and the line number', async () => {
    const path = fixture('bad-json.jsonl', [
      '// a comment, then a blank line',
      '',
      '{"step":"respond","method":"GET","path":"/config","status":200,"body":{"authToken":"at_x_1234"}',
    ]);
    const { status, stderr, stdout } = await cli('replay', path, '--host', 'android');
    expect(status).toBe(1);
    expect(stderr).toContain(`${path}:3`);
    expect(stderr).toMatch(/not valid JSON/i);
    expect(stdout).toBe('');
  });

  it('exits 1 for an unknown step, naming its line', async () => {
    const path = fixture('unknown-step.jsonl', ['{"step":"online"}', '{"step":"sleep","ms":100}']);
    const { status, stderr } = await cli('replay', path, '--host', 'android');
    expect(status).toBe(1);
    expect(stderr).toContain(`${path}:2`);
    expect(stderr).toContain('sleep');
  });

  it('exits 1 for a request with no queued answer, naming the fixture, the method and the path', async () => {
    const path = fixture('no-answer.jsonl', [
      '{"step":"respond","method":"GET","path":"/config","status":200,"body":{"authToken":"at_no_answer_1"}}',
      '{"step":"host","data":{"id":"1","method":"getConversation"}}',
    ]);
    const { status, stderr } = await cli('replay', path, '--host', 'ios');
    expect(status).toBe(1);
    expect(stderr).toContain(path);
    expect(stderr).toContain('GET /conversations');
    expect(stderr).not.toContain('at_no_answer_1');
  });
});

describe('chat-bridge replay --expect', () => {
  it('exits 0 when the output equals the golden, 1 with a readable diff of the changed line, and --update rewrites it', async () => {
    const golden = join(scratch, 'golden.ios.jsonl');
    const created = await cli('replay', FIXTURE, '--host', 'ios', '--expect', golden, '--update');
    expect(created.status).toBe(0);
    const output = await cli('replay', FIXTURE, '--host', 'ios');
    expect(readFileSync(golden, 'utf8')).toBe(output.stdout);
    expect((await cli('replay', FIXTURE, '--host', 'ios', '--expect', golden)).status).toBe(0);

    // Someone edits one line of the golden: the retry no longer waits 2 s.
    const lines = output.stdout.split('\n');
    const index = lines.findIndex((line) => line.includes('"at":2000') && line.includes('"kind":"request"'));
    expect(index).toBeGreaterThan(0);
    const original = lines[index]!;
    const altered = original.replace('"at":2000', '"at":1000');
    lines[index] = altered;
    writeFileSync(golden, lines.join('\n'));

    const compared = await cli('replay', FIXTURE, '--host', 'ios', '--expect', golden);
    expect(compared.status).toBe(1);
    const diff = compared.stderr;
    expect(diff).toContain(FIXTURE);
    expect(diff).toContain(golden);
    // The changed line, both versions, each marked and numbered (line numbers are 1-based).
    expect(diff).toContain(`- ${String(index + 1).padStart(4)}| ${altered}`);
    expect(diff).toContain(`+ ${String(index + 1).padStart(4)}| ${original}`);
    // Only the changed line is marked; its unchanged neighbours are context.
    expect(diff.split('\n').filter((line) => /^[-+] /.test(line))).toHaveLength(2);

    const updated = await cli('replay', FIXTURE, '--host', 'ios', '--expect', golden, '--update');
    expect(updated.status).toBe(0);
    expect(readFileSync(golden, 'utf8')).toBe(output.stdout);
    expect((await cli('replay', FIXTURE, '--host', 'ios', '--expect', golden)).status).toBe(0);
  });

  it('exits 1 with a hint when the golden does not exist (a difference, not bad usage)', async () => {
    const { status, stderr } = await cli(
      'replay',
      FIXTURE,
      '--host',
      'ios',
      '--expect',
      join(scratch, 'missing.jsonl'),
    );
    expect(status).toBe(1);
    expect(stderr).toContain('missing.jsonl');
    expect(stderr).toContain('--update');
  });

  it('warns on stderr about queued answers the run never used, and still exits 0', async () => {
    const fixture = join(scratch, 'unused-answer.jsonl');
    writeFileSync(
      fixture,
      [
        '{"step":"respond","method":"GET","path":"/config","status":200,"body":{"authToken":"at_unused_case"}}',
        '{"step":"respond","method":"GET","path":"/conversation","status":200,"body":{}}',
        '{"step":"host","data":{"id":"1","method":"init"}}',
      ].join('\n'),
    );
    const { status, stdout, stderr } = await cli('replay', fixture, '--host', 'android');
    expect(status).toBe(0);
    expect(stderr).toContain('warning:');
    expect(stderr).toContain('GET /conversation');
    expect(stdout).not.toContain('warning');
  });
});

describe.concurrent('chat-bridge replay of bodies nested deeper than any stack', () => {
  const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const config = JSON.stringify({
    step: 'config',
    options: { baseUrl: 'https://chat.example.test', websiteToken: 'wt_cli_deep_token' },
  });

  it('prints the answer to init for a /config body 20,000 deep given as text, exiting 0', async () => {
    const path = fixture('deep-config-text.jsonl', [
      config,
      JSON.stringify({
        step: 'respond',
        method: 'GET',
        path: '/config',
        status: 200,
        body: `{"authToken":"at_cli_deep_token","widget":{"x":${deepArray(20_000)}}}`,
      }),
      JSON.stringify({ step: 'host', data: { id: 'init-1', method: 'init' } }),
    ]);
    const { status, stdout, stderr } = await cli('replay', path, '--host', 'android');
    expect(stderr).not.toContain('RangeError');
    expect(status).toBe(0);
    const answer = stdout.split('\n').find((line) => line.includes('init-1')) ?? '';
    expect(JSON.parse(JSON.parse(answer).payload)).toMatchObject({ type: 'response', id: 'init-1', ok: true });
    expect(stdout).not.toContain('at_cli_deep_token');
  });

  it('does the same for the body written as JSON in the fixture, and for deep host data', async () => {
    const path = fixture('deep-config-json.jsonl', [
      config,
      `{"step":"respond","method":"GET","path":"/config","status":200,"body":{"authToken":"at_cli_deep_token","widget":${deepArray(20_000)}}}`,
      JSON.stringify({ step: 'host', data: { id: 'init-1', method: 'init' } }),
      `{"step":"host","data":{"id":"deep-2","method":"init","params":{"x":${deepArray(20_000)}}}}`,
    ]);
    const { status, stdout } = await cli('replay', path, '--host', 'ios');
    expect(status).toBe(0);
    // iOS's payloads are JSON text, as the handler gets them.
    const payloads = stdout
      .split('\n')
      .filter((line) => line !== '')
      .flatMap((line) => {
        const { payload } = JSON.parse(line) as { payload?: string };
        return payload === undefined ? [] : [JSON.parse(payload) as { id?: string; ok?: boolean }];
      });
    expect(payloads.filter((payload) => payload.id === 'init-1').map((payload) => payload.ok)).toEqual([true]);
    expect(payloads.filter((payload) => payload.id === 'deep-2').map((payload) => payload.ok)).toEqual([false]);
  });
});
