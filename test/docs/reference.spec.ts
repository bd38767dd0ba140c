// @vitest-environment node
/**
 * docs/reference.md's tables cannot drift from the code: every error code of
 * bridge/protocol/errors.ts has a row and every row is a code; the same for the options
 * (the `BridgeOptions` and `ChannelNames` interfaces of bridge/protocol/bridge-options.ts) and the host
 * commands (the table `createHostCommands` builds). docs/typed-client.md's table names every code
 * of the client's own (`ClientErrorCode`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHostCommands } from '../../bridge/dispatch/host-commands.js';
import { DEFAULTS } from '../../bridge/protocol/bridge-options.js';
import { ErrorCode, isRetryable } from '../../bridge/protocol/errors.js';
import { ClientErrorCode } from '../../host-adapters/client.js';
import { CLIENT_RETRYABLE } from '../../host-adapters/client-errors.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
/** The `code` names in the first column of the table under `## heading` (several `a` / `b` in one cell count apart). */
function firstColumn(heading: string, page = 'docs/reference.md'): string[] {
  const text = read(page);
  const start = text.indexOf(`## ${heading}\n`);
  if (start < 0) throw new Error(`${page} has no "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !/^\| [-]+ \|/.test(line));
  return rows.slice(1).flatMap((row) => [...(row.split(' | ')[0] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1] ?? ''));
}

/** The members of `interface name` in bridge/protocol/bridge-options.ts. */
function interfaceMembers(name: string): string[] {
  const source = read('bridge/protocol/bridge-options.ts');
  const body = new RegExp(`export interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1];
  if (body === undefined) throw new Error(`bridge/protocol/bridge-options.ts has no interface ${name}`);
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1] ?? '');
}

/** The rows of the table under `## heading` whose first cell is one code, as {code: [its other cells]}. */
function rowsByCode(heading: string, page = 'docs/reference.md'): Record<string, string[]> {
  const text = read(page);
  const start = text.indexOf(`## ${heading}\n`);
  const end = text.indexOf('\n## ', start + 1);
  const rows = text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => /^\| `\w+` \|/.test(line));
  return Object.fromEntries(
    rows.map((row) => {
      const [code, ...cells] = row.slice(2, -2).split(' | ');
      return [(code ?? '').slice(1, -1), cells];
    }),
  );
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('docs/reference.md', () => {
  it('has one row per error code of bridge/protocol/errors.ts, and no other', () => {
    expect(sorted(firstColumn('Error codes'))).toEqual(sorted(Object.values(ErrorCode)));
  });

  it("gives each code's retryable as the code decides it (bridge/protocol/errors.ts), and a retryAt only where it is", () => {
    const rows = rowsByCode('Error codes');
    for (const code of Object.values(ErrorCode)) {
      const [, retryable, retryAt] = rows[code] ?? [];
      expect(retryable, code).toBe(isRetryable(code) ? 'yes' : 'no');
      // A code that is not retryable has no time for a retry.
      if (!isRetryable(code)) expect(retryAt, code).toBe('—');
    }
    // The codes whose retryAt the bridge sets (bridge/backend/http.ts, bridge/backend/outbox/sender.ts).
    const timed = Object.keys(rows).filter((code) => rows[code]?.[2] !== '—');
    expect(sorted(timed)).toEqual(['network_error', 'rate_limited', 'server_error']);
  });

  it('has one row per option of BridgeOptions and ChannelNames, and no other', () => {
    const options = [...interfaceMembers('BridgeOptions'), ...interfaceMembers('ChannelNames')];
    expect(options).toEqual(expect.arrayContaining(Object.keys(DEFAULTS))); // the parse found the real members
    expect(sorted(firstColumn('Options'))).toEqual(sorted(options));
  });

  it('has one row per host command the bridge dispatches, and no other', () => {
    const timers = { setTimeout: () => 0, clearTimeout: () => undefined, now: () => 0 };
    const commands = createHostCommands({} as never, {} as never, DEFAULTS.maxFileSize, timers as never);
    expect(sorted(firstColumn('Commands'))).toEqual(sorted(Object.keys(commands)));
  });

  it("docs/typed-client.md names every code of the client's own, and only codes that exist", () => {
    const named = firstColumn('Every `code` a call can reject with', 'docs/typed-client.md');
    for (const code of Object.values(ClientErrorCode)) expect(named).toContain(code);
    const known = new Set<string>([...Object.values(ClientErrorCode), ...Object.values(ErrorCode)]);
    for (const code of named) expect(known.has(code), code).toBe(true);
    const rows = rowsByCode('Every `code` a call can reject with', 'docs/typed-client.md');
    for (const [code, retryable] of Object.entries(CLIENT_RETRYABLE))
      expect(rows[code]?.[0], code).toBe(retryable ? 'yes' : 'no');
    for (const code of Object.values(ErrorCode))
      if (rows[code]) expect(rows[code]?.[0], code).toBe(isRetryable(code) ? 'yes' : 'no');
  });
});
