// @vitest-environment node
/**
 * docs/troubleshooting.md read as a user reads it, against what the built bridge reports: each
 * documented symptom is driven against the reference backend, and the page's own rule (the table
 * of "A message stays `queued`", the message each entry's **Symptom.** quotes) must name what the
 * test knows is the cause.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MessageStateMessage, OutboxListing } from '../../dist/types/bridge/index.js';
import { useReferenceBackend, type BridgeHarness } from '../helpers/bridge-harness.js';

const page = readFileSync(new URL('../../docs/troubleshooting.md', import.meta.url), 'utf8');
const suite = useReferenceBackend();

/** The text of the section whose `## ` heading starts with `heading`, up to the next one. */
function section(heading: string): string {
  const at = page.indexOf(`\n## ${heading}`);
  if (at < 0) throw new Error(`docs/troubleshooting.md has no section "## ${heading}"`);
  const end = page.indexOf('\n## ', at + 1);
  return page.slice(at, end < 0 ? undefined : end);
}

/** "A message stays `queued`": the table's rows, as [attempt, nextAttemptAt, it waits for]. */
function queuedRules(): Array<[string, string, string]> {
  return section('A message stays `queued`')
    .split('\n')
    .filter((line) => /^\| (0|1 or more) \|/.test(line))
    .map(
      (line) =>
        line
          .split('|')
          .slice(1, 4)
          .map((cell) => cell.trim()) as [string, string, string],
    );
}

/**
 * What the page says a message waits for, read by its rule from what the bridge reported (the
 * listing and the last `queued` event, which must agree), as the first words of the rule's cell.
 */
function diagnosis(listed: OutboxListing, event: MessageStateMessage | undefined, now: number): string {
  expect(event, `a queued event for ${listed.messageId}`).toBeDefined();
  expect({ attempt: event?.attempt, nextAttemptAt: event?.nextAttemptAt }).toEqual({
    attempt: listed.attempt,
    nextAttemptAt: listed.nextAttemptAt,
  });
  const attempt = listed.attempt === 0 ? '0' : '1 or more';
  const next =
    listed.nextAttemptAt === undefined ? 'none' : listed.nextAttemptAt > now ? 'a time ahead' : 'in the past';
  const rule = queuedRules().find(([a, n]) => a === attempt && n === next);
  expect(rule, `a rule for attempt ${attempt}, nextAttemptAt ${next}`).toBeDefined();
  return (rule?.[2] ?? '').split(':')[0] ?? '';
}

async function listing(h: BridgeHarness): Promise<OutboxListing[]> {
  const response = await h.send('listOutbox');
  if (!response.ok) throw new Error(response.error.message);
  return (response.result as { messages: OutboxListing[] }).messages;
}

const lastQueued = (h: BridgeHarness, messageId: string) =>
  h.outbound
    .filter((m): m is MessageStateMessage => m.type === 'message' && m.messageId === messageId && m.state === 'queued')
    .at(-1);

/** The quoted message of an entry's **Symptom.**: its first `[GET ...]`-like code span. */
function quotedMessage(heading: string): string {
  const symptom = /\*\*Symptom\.\*\*([\s\S]*?)\n\n/.exec(section(heading))?.[1] ?? '';
  const quoted = /`(\[[A-Z]+ \/[^`]*)`/.exec(symptom)?.[1];
  if (quoted === undefined) throw new Error(`"${heading}" quotes no message in its symptom`);
  return quoted;
}

describe('docs/troubleshooting.md, "A message stays `queued`"', () => {
  it('has one rule for each state the bridge reports, and none for a time in the past', () => {
    expect(queuedRules().map(([attempt, next]) => `${attempt}/${next}`)).toEqual([
      '0/none',
      '1 or more/none',
      '1 or more/a time ahead',
    ]);
  });

  it('reads an offline device as waiting for the network, and the message behind it as waiting its turn', async () => {
    const h = suite.bridge();
    h.te.setOnline(false);
    h.bridge.receive({ id: 'm1', method: 'sendMessage', params: { content: 'first', messageId: 'm-first' } });
    h.bridge.receive({ id: 'm2', method: 'sendMessage', params: { content: 'second', messageId: 'm-second' } });
    await h.waitFor(() => lastQueued(h, 'm-first')?.attempt === 1, 'the first attempt, offline');
    await h.waitFor(() => lastQueued(h, 'm-second') !== undefined, 'the second message queued');
    // Long after, the page's rule still reads the same (nothing scheduled, nothing in the past).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [first, second] = await listing(h);

    expect(diagnosis(first as OutboxListing, lastQueued(h, 'm-first'), Date.now())).toBe('the network');
    expect(diagnosis(second as OutboxListing, lastQueued(h, 'm-second'), Date.now())).toBe('its turn');

    // And the page is right: online again, both go.
    h.te.setOnline(true);
    await h.waitFor(
      () => ['m1', 'm2'].every((id) => h.responses().some((r) => r.id === id && r.ok)),
      'both messages sent once online',
    );
  });

  it('reads a gateway answering 503 as waiting for a retry at a time ahead', async () => {
    const h = suite.bridge();
    suite.backend.setFault('service-unavailable', true, '30');
    h.bridge.receive({ id: 'm1', method: 'sendMessage', params: { content: 'hello', messageId: 'm-retry' } });
    await h.waitFor(() => lastQueued(h, 'm-retry')?.nextAttemptAt !== undefined, 'a retry scheduled');
    const [listed] = await listing(h);

    expect(diagnosis(listed as OutboxListing, lastQueued(h, 'm-retry'), Date.now())).toBe('a retry at that time');
    expect(h.errors()[0]).toMatchObject({ code: 'server_error', status: 503 });
  });
});

describe('docs/troubleshooting.md, the init failures', () => {
  it('"not_found": a baseUrl with a wrong path fails init as the entry quotes it', async () => {
    const h = suite.bridge({ options: { baseUrl: `${suite.backend.url}/api/v2` } });
    const response = await h.send('init');

    expect(response).toMatchObject({ ok: false, error: { code: 'not_found', status: 404 } });
    expect(section('`init` fails with `not_found`')).toContain('`not_found`');
    expect(response.ok ? '' : response.error.message.startsWith(quotedMessage('`init` fails with `not_found`'))).toBe(
      true,
    );
  });

  it.each([
    ['config-malformed', 'body not JSON'],
    ['config-empty', 'empty body'],
    ['config-no-token', 'no authToken'],
  ])('"config_error": with the %s fault, init fails as the entry quotes it, naming "%s"', async (fault, what) => {
    const h = suite.bridge();
    suite.backend.setFault(fault, true);
    const response = await h.send('init');

    expect(response).toMatchObject({ ok: false, error: { code: 'config_error', status: 200 } });
    const message = response.ok ? '' : response.error.message;
    expect(message).toBe(`${quotedMessage('`init` fails with `config_error`')}${what}`);
    expect(section('`init` fails with `config_error`')).toContain(`\`${what}\``);
  });
});
