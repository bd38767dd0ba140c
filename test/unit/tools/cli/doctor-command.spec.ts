/**
 * `chat-bridge doctor`'s command line (tools/cli/doctor-command.ts). Its run against real backends
 * is test/doctor/doctor.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { doctorCommand } from '../../../../tools/cli/doctor-command.js';
import { UsageError } from '../../../../tools/cli/usage-error.js';

const TOKEN = 'wt_given_token_0123456789';
const run = (...argv: string[]) => {
  let stdout = '';
  const status = doctorCommand(
    argv,
    (text) => (stdout += text),
    () => undefined,
  );
  return status.then((code) => ({ status: code, stdout }));
};

describe('doctorCommand', () => {
  it('prints its usage on --help', async () => {
    const { status, stdout } = await run('--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: chat-bridge doctor --base-url URL --website-token TOKEN/);
  });

  it.each([
    [['--base-url', 'https://chat.example'], /needs --website-token/],
    [['--base-url', 'https://chat.example', '--website-token', 'short'], /must be \d+\+ characters/],
    [['--website-token', TOKEN], /needs --base-url/],
    [['--base-url', 'ftp://chat.example', '--website-token', TOKEN], /^--base-url .*; got "ftp:\/\/chat\.example"$/],
    [
      ['--base-url', 'https://chat.example', '--website-token', TOKEN, '--origin', 'https://a.example/path'],
      /--origin must be an origin/,
    ],
    [
      ['--base-url', 'https://chat.example', '--website-token', TOKEN, '--timeout', '1.5'],
      /--timeout must be a positive/,
    ],
    [['--base-url', 'https://chat.example', '--website-token', TOKEN, 'extra'], /no positional arguments/],
  ])('refuses %j as bad usage', async (argv, message) => {
    const failure = run(...argv);
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toThrow(message);
  });

  it('never repeats the token in a usage error', async () => {
    const secret = 'wt_secret_but_bad_origin_0123';
    const failure = run('--base-url', 'https://chat.example', '--website-token', secret, '--origin', 'bad');
    await expect(failure).rejects.toThrow(UsageError);
    await failure.catch((error: Error) => expect(error.message).not.toContain(secret));
  });
});
