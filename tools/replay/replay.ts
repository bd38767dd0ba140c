/**
 * Plays a fixture through the real bridge (the same `createBridge` the bundle installs) in the
 * in-memory environment the tests use, with the virtual clock, scripted HTTP and a seeded
 * generator; the stand-in channels' deliveries become output lines. Same fixture, same output,
 * byte for byte, on any machine.
 */
import {
  createBridge,
  createRedactor,
  HOST_NAMES,
  parseJson,
  normalizeOptions,
  REDACTED,
  type HostName,
  type ResolvedOptions,
} from '../../bridge/index.js';
import { parseFixture, ReplayError, type Step } from './fixture.js';
import { createScriptedHttp, type RequestLine } from './scripted-http.js';
import { createInMemoryEnvironment } from '../testing/in-memory-environment.js';
import { createVirtualClock, type VirtualClock } from '../testing/virtual-clock.js';
import { seededRandom } from '../testing/seeded-random.js';
import { jsonText } from './json-text.js';

export interface ReplayOptions {
  /** Whose deliveries to print; "all" prints every adapter's for one run. */
  host: HostName | 'all';
  /** Named in error messages. @default "fixture" */
  name?: string;
  /** Told about things worth a look that do not stop the replay (answers never used). */
  onWarning?: (message: string) => void;
}

export interface DeliverLine {
  kind: 'deliver';
  at: number;
  host: HostName;
  payload: unknown;
}

export const DEFAULT_FIXTURE_OPTIONS = { baseUrl: 'https://chat.example.test', websiteToken: 'wt_fixture' };
/** After the last step, timers keep running for at most this much virtual time. */
export const SETTLE_LIMIT_MS = 15 * 60 * 1000;
const SEED = 0xc4a7b21d;

export async function replay(text: string, { host, name = 'fixture', onWarning }: ReplayOptions): Promise<string> {
  if (host !== 'all' && !HOST_NAMES.includes(host))
    throw new ReplayError(`unknown host "${String(host)}"; one of ${HOST_NAMES.join(', ')}, all`);
  const steps = parseFixture(text, name);
  const lines: string[] = [];
  const clock = createVirtualClock();

  const configStep = steps[0]?.step === 'config' ? steps[0] : undefined;
  const rawOptions = configStep?.options ?? DEFAULT_FIXTURE_OPTIONS;
  let options: ResolvedOptions;
  try {
    // The page is the widget page, served from the chat backend as the mobile SDKs load it.
    options = normalizeOptions(rawOptions, new URL(String(rawOptions['baseUrl'])).origin);
  } catch (error) {
    throw new ReplayError(`${name}:${configStep?.line ?? 0}: ${(error as Error).message}`);
  }

  // The output goes through the bridge's own redactor too, knowing every token of the fixture:
  // what the bridge sends is redacted already, and what the replay prints of requests is not.
  const redactor = createRedactor(clock.now);
  redactor.add(options.websiteToken);
  steps.forEach((step) => secretsOf(step).forEach((secret) => redactor.add(secret)));
  const print = (line: object) => lines.push(JSON.stringify(redactor.scrub(line)));

  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, '');
  const http = createScriptedHttp(
    basePath,
    clock.now,
    () => memory.env.isOnline(),
    (line: RequestLine) => print(line),
    () => new Promise<void>((resolve) => clock.setTimeout(resolve, 0)),
  );
  const memory = createInMemoryEnvironment({
    fetch: http.fetch,
    failOffline: false, // the scripted HTTP writes offline requests out, then fails them
    clock,
    random: seededRandom(SEED),
    pageOrigin: new URL(options.baseUrl).origin,
    names: options,
    onDelivery({ host: target, payload }) {
      const line: DeliverLine = { kind: 'deliver', at: clock.now(), host: target, payload: tokenHidden(payload) };
      print(line);
    },
  });
  const env = memory.env;

  const bridge = createBridge(options, env, { rawOptions, hosts: host === 'all' ? [...HOST_NAMES] : [host] });
  const check = async (line: number) => {
    await settle(clock);
    if (http.unmatched !== undefined) {
      throw new ReplayError(`${name}:${line}: no "respond" or "fail" step is queued for ${http.unmatched}`);
    }
  };

  try {
    await check(configStep?.line ?? 0);
    for (const step of steps) {
      if (step.step === 'advance') {
        // Timers falling due inside the window run at their own time, each settling before
        // the next, since a retry's answer may set the next timer.
        const target = clock.now() + step.ms;
        for (let due = clock.nextDue(); due !== undefined && due <= target; due = clock.nextDue()) {
          clock.moveTo(due);
          await check(step.line);
        }
        clock.moveTo(target);
      } else {
        play(step);
      }
      await check(step.line);
    }
    // Let retries and backoff finish, without real waiting; a request the bridge makes by itself
    // now, with no answer queued, fails as `unanswered` (docs/replay-and-recording.md).
    http.afterLastStep = true;
    const lastLine = steps[steps.length - 1]?.line ?? 0;
    const limit = clock.now() + SETTLE_LIMIT_MS;
    for (let due = clock.nextDue(); due !== undefined && due <= limit; due = clock.nextDue()) {
      clock.moveTo(due);
      await check(lastLine);
    }
  } finally {
    bridge.destroy();
  }
  const unused = http.unused();
  if (unused.length > 0) onWarning?.(`${name}: ${unused.length} queued answer(s) never used: ${unused.join(', ')}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';

  function play(step: Step): void {
    switch (step.step) {
      case 'config':
        return;
      case 'post':
        memory.post(copyOf(step.data), step.origin);
        return;
      case 'host':
        bridge.receive(copyOf(step.data));
        return;
      case 'respond': {
        const answer: { kind: 'respond'; status: number; body?: unknown; headers?: Record<string, string> } = {
          kind: 'respond',
          status: step.status,
        };
        if (step.body !== undefined) answer.body = step.body;
        if (step.headers !== undefined) answer.headers = step.headers;
        http.queue(step.method, step.path, answer);
        return;
      }
      case 'fail':
      case 'hang':
        http.queue(step.method, step.path, { kind: step.step });
        return;
      case 'offline':
      case 'online':
        memory.setOnline(step.step === 'online');
        return;
      case 'advance':
        return; // played by the loop above
    }
  }
}

/**
 * The output is a log: a `conversationToken` message (the one the bridge sends with a token in
 * it, to hosts that opted in) shows that it came, with the token replaced, in the host's own form.
 */
function tokenHidden(payload: unknown): unknown {
  const message = (typeof payload === 'string' ? JSON.parse(payload) : payload) as { type?: unknown } | null;
  if (message?.type !== 'conversationToken') return payload;
  const hidden = { ...message, token: REDACTED };
  return typeof payload === 'string' ? JSON.stringify(hidden) : hidden;
}

/**
 * The values of a step's credential fields (any name with token, secret or password, at any
 * depth), also inside strings that carry JSON (a widget message, a body given as text).
 */
function secretsOf(step: Step): string[] {
  const found: Array<[string, string]> = [];
  const look = (text: string) => {
    const parsed = parseJson(text, found);
    if (parsed.ok)
      JSON.stringify(parsed.value, (_key, value: unknown) => {
        if (typeof value === 'string' && value.includes('{')) look(value.slice(value.indexOf('{')));
        return value;
      });
  };
  look(jsonText(step));
  return found.map((secret) => secret[1]);
}

/** A fresh copy of a step's data, as a message event or a native call hands one over; any depth. */
function copyOf(data: unknown): unknown {
  return JSON.parse(jsonText(data));
}

/**
 * Lets promises resolve and runs the timers already due, without moving the clock. Scripted
 * answers resolve through microtasks only, so a macrotask turn drains everything they started.
 */
async function settle(clock: VirtualClock): Promise<void> {
  for (let quiet = 0; quiet < 2;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (clock.runOneDue()) quiet = 0;
    else quiet++;
  }
}
