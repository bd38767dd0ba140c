/**
 * The CLI's dispatch and exit statuses (tools/cli/main.ts), in process. test/replay/cli.spec.ts
 * runs bin/chat-bridge.js as a user does; scripts/test-package.mjs runs the installed one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../../tools/cli/main.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/auth-refresh.jsonl');
const GOLDEN = join(ROOT, 'test/fixtures/golden/auth-refresh.ios.jsonl');
const scratch = mkdtempSync(join(tmpdir(), 'chat-bridge-main-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await main(
    argv,
    (text) => (stdout += text),
    (text) => (stderr += text),
  );
  return { status, stdout, stderr };
}

describe('main', () => {
  it('prints the help on --help (exit 0), and on stderr without a command (exit 2)', async () => {
    const help = await cli('--help');
    expect(help).toMatchObject({ status: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage:\n {2}chat-bridge replay FILE/);
    const none = await cli();
    expect(none).toMatchObject({ status: 2, stdout: '', stderr: help.stdout });
  });

  it("prints each command's own usage on its --help, not the general help", async () => {
    const general = (await cli('--help')).stdout;
    for (const command of ['replay', 'doctor']) {
      for (const flag of ['--help', '-h']) {
        const { status, stdout } = await cli(command, flag);
        expect(status, `${command} ${flag}`).toBe(0);
        expect(stdout, `${command} ${flag}`).toMatch(new RegExp(`^Usage: chat-bridge ${command} `));
        expect(stdout).not.toBe(general);
        // The other command is not described there.
        expect(stdout).not.toMatch(new RegExp(`chat-bridge ${command === 'replay' ? 'doctor' : 'replay'}`));
      }
    }
  });

  it("links the fixture format to the repository's page, which exists, since the tarball has no docs/", async () => {
    const { stdout } = await cli('help');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const link = /(https:\S+\/blob\/main\/(docs\/\S+\.md))/.exec(stdout);
    expect(link?.[1]?.startsWith(pkg.homepage.replace(/#.*$/, ''))).toBe(true);
    expect(readFileSync(join(ROOT, link?.[2] ?? 'missing'), 'utf8')).toMatch(/^# /);
  });

  it('answers bad usage with exit 2 and a pointer to --help', async () => {
    for (const argv of [
      ['dance'],
      ['replay'],
      ['replay', FIXTURE],
      ['replay', FIXTURE, '--host', 'windows'],
      ['replay', FIXTURE, '--host', 'ios', '--update'],
      ['replay', join(scratch, 'missing.jsonl'), '--host', 'ios'],
      ['replay', FIXTURE, '--host', 'ios', '--no-such-flag'],
    ]) {
      const { status, stderr } = await cli(...argv);
      expect(status, argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toMatch(/^chat-bridge: .+\nRun "chat-bridge --help" for usage\.\n$/);
    }
  });

  it('replays a fixture: exit 0 when it matches its golden, 1 with a diff when not', async () => {
    expect(await cli('replay', FIXTURE, '--host', 'ios', '--expect', GOLDEN)).toMatchObject({
      status: 0,
      stdout: '',
      stderr: '',
    });
    const changed = join(scratch, 'changed.jsonl');
    writeFileSync(changed, readFileSync(GOLDEN, 'utf8').replace('\\"ready\\"', '\\"steady\\"'));
    const { status, stderr } = await cli('replay', FIXTURE, '--host', 'ios', '--expect', changed);
    expect(status).toBe(1);
    expect(stderr).toMatch(/output differs from .*changed\.jsonl/);
    expect(stderr).toMatch(/^-.*steady/m);
  });

  it('writes the golden with --update, and exits 1 for a fixture problem, naming its line', async () => {
    const golden = join(scratch, 'new.jsonl');
    expect((await cli('replay', FIXTURE, '--host', 'android', '--expect', golden, '--update')).status).toBe(0);
    expect(readFileSync(golden, 'utf8')).toBe(
      readFileSync(join(ROOT, 'test/fixtures/golden/auth-refresh.android.jsonl'), 'utf8'),
    );
    const broken = join(scratch, 'broken.jsonl');
    writeFileSync(broken, '{"step":"config","options":{}}\n{"step":"dance"}\n');
    expect(await cli('replay', broken, '--host', 'ios')).toMatchObject({
      status: 1,
      stderr: `chat-bridge: ${broken}:2: unknown step "dance"\n`,
    });
  });
});
