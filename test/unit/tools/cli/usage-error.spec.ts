/**
 * A command line the CLI cannot run (tools/cli/usage-error.ts).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../../../tools/cli/main.js';
import { UsageError } from '../../../../tools/cli/usage-error.js';

describe('UsageError', () => {
  it('is an Error named UsageError, which main answers with exit 2 and its message', async () => {
    const error = new UsageError('replay takes exactly one fixture file');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('UsageError');
    let stderr = '';
    const status = await main(
      ['replay'],
      () => undefined,
      (text) => (stderr += text),
    );
    expect(status).toBe(2);
    expect(stderr).toContain(`chat-bridge: ${error.message}`);
  });
});
