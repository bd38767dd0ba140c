/**
 * Hostile input, generated: random and truncated JSON, deep nesting, long strings, wrong types,
 * prototype keys, unicode, the namespace prefixes followed by garbage, exotic objects, all
 * interleaved with valid messages, posted as `message` events and handed to `receive`.
 *
 * Each input is classified here by a model of the wire protocol, written from its rules rather
 * than from bridge/inbound/classify.ts, and the whole running bridge is held to:
 * - nothing throws out of the message listener or `receive`;
 * - every malformed namespaced input yields exactly one `parse_error` event and nothing else;
 * - every foreign input (or one from a disallowed origin) yields nothing;
 * - every valid widget message yields its one event (kebab-case ones, commands to the widget, none), every valid host command exactly one
 *   response with its id (a failed one followed by its error event), and no command is left hanging;
 * - Object.prototype (and Array.prototype) gain no keys, and no output carries a prototype key;
 * - no output carries the website token or the auth token.
 *
 * The injected bundle validates with code generated from the zod schemas
 * (scripts/generate-validators.mjs); a last property holds it to zod on this same corpus: the
 * same verdict, output and issues for every value that reaches a schema.
 *
 * `npm test` runs FUZZ_RUNS (default 3000) scenarios of the main property; FUZZ_RUNS=1000000 is the
 * bench mode. FUZZ_SEED replays a failure with the seed fast-check printed.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, it } from 'vitest';
import { createBridge, type Bridge } from '../../bridge/bridge.js';
import type { HttpRequest, HttpResponse } from '../../bridge/environment.js';
import type { HostName } from '../../bridge/protocol/bridge-options.js';
import { normalizeOptions } from '../../bridge/options.js';
import { REDACTED } from '../../bridge/protocol/limits.js';
import { MAX_DEPTH } from '../../bridge/protocol/limits.js';
import { CREDENTIAL_NAME } from '../../bridge/protocol/safe-json.js';
import * as zodSchemas from '../../bridge/protocol/schemas.js';
import { HostCommandSchema, WidgetMessageSchema } from '../../bridge/protocol/schemas.js';
import { describeIssues, type SchemaIssue } from '../../bridge/inbound/describe-issues.js';
import { generateValidators } from '../../scripts/generate-validators.mjs';
import { createInMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

const RUNS = positiveIntegerFromEnv('FUZZ_RUNS', 3000);
const SEED = process.env['FUZZ_SEED'];
/** A generous bound for bench mode; the default run finishes in seconds. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 30);

const WIDGET_PREFIX = 'chatwoot-widget:';
const COMMAND_PREFIX = 'chat-bridge:';
const PAGE_ORIGIN = 'https://app.example.test';
const BASE_URL = 'https://chat.example.test/api/v1';
const API_ORIGIN = 'https://chat.example.test';
const WEBSITE_TOKEN = 'wt_fuzz_5f0c1d9e7a2b';
const AUTH_TOKEN = 'at_fuzz_93b2e6c4d1f8';
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Small caps, so generated strings cross them; the command cap derives from maxFileSize. */
const CONFIG = { baseUrl: BASE_URL, websiteToken: WEBSITE_TOKEN, maxMessageLength: 3000, maxFileSize: 150 };
const LIMITS = normalizeOptions(CONFIG, PAGE_ORIGIN);
/** The default allowedOrigins (the API's and the page's), plus '' for same-realm synthetic events. */
const ALLOWED_ORIGINS = new Set([API_ORIGIN, PAGE_ORIGIN, '']);
const DISALLOWED_ORIGINS = [
  'https://evil.example.test',
  'null',
  'http://app.example.test',
  'https://app.example.test:8443',
  'https://app.example.test.evil.test',
  'HTTPS://APP.EXAMPLE.TEST',
  BASE_URL,
];

/**
 * The protocol fixes no length bounds for ids, methods and event names; these are the schemas'
 * own numbers, found by asking them, so the model follows whatever the bridge declares.
 */
const ID_MAX = longestAccepted((text) => HostCommandSchema.safeParse({ id: text, method: 'm' }).success);
const METHOD_MAX = longestAccepted((text) => HostCommandSchema.safeParse({ id: 'i', method: text }).success);
const EVENT_MAX = longestAccepted((text) => WidgetMessageSchema.safeParse({ event: text }).success);

type Input = { via: 'post'; data: unknown; origin: string } | { via: 'host'; data: unknown };
interface Scenario {
  host: Extract<HostName, 'android' | 'ios'>;
  /** Inputs of one batch go in synchronously; the event loop turns between batches. */
  batches: Input[][];
}

// ---------------------------------------------------------------------------------------------
// The model: what each input is, by the protocol's rules.

/** A malformed envelope whose `id` could still be read carries it: the host's call gets a failed response too. */
type Expected =
  | { kind: 'foreign' }
  | { kind: 'malformed'; id?: string; code?: string }
  | { kind: 'widget'; event: string }
  | { kind: 'command'; id: string };
const FOREIGN: Expected = { kind: 'foreign' };
const MALFORMED: Expected = { kind: 'malformed' };

function expectedOf(input: Input): Expected {
  return input.via === 'host' ? expectHostData(input.data) : expectPosted(input.data, input.origin);
}

function expectPosted(data: unknown, origin: string): Expected {
  if (!ALLOWED_ORIGINS.has(origin)) return FOREIGN;
  if (typeof data === 'string') {
    if (data.startsWith(WIDGET_PREFIX)) {
      return data.length > LIMITS.maxMessageLength ? MALFORMED : expectWidgetJson(data.slice(WIDGET_PREFIX.length));
    }
    if (data.startsWith(COMMAND_PREFIX)) return expectCommandText(data.slice(COMMAND_PREFIX.length));
    // Bare JSON text is ours only when it visibly names "method" and parses to an envelope; over
    // the cap it is refused unparsed (a parse_error), since parsing it is the cost.
    if (data.startsWith('{') && data.includes('"method"')) {
      if (data.length > LIMITS.maxCommandLength) return expectOversized(data);
      const parsed = tryParse(data);
      return parsed.ok && looksLikeEnvelope(parsed.value) ? expectEnvelope(parsed.value) : FOREIGN;
    }
    return FOREIGN;
  }
  // Reading a hostile object can throw (a getter): the bridge answers that with one parse_error.
  try {
    return looksLikeEnvelope(data) ? expectCommandObject(data) : FOREIGN;
  } catch {
    return MALFORMED;
  }
}

/** `receive` exists for host commands only: whatever arrives there is ours. */
function expectHostData(data: unknown): Expected {
  if (typeof data === 'string')
    return expectCommandText(data.startsWith(COMMAND_PREFIX) ? data.slice(COMMAND_PREFIX.length) : data);
  if (typeof data === 'object' && data !== null) return expectCommandObject(data);
  return MALFORMED;
}

function expectWidgetJson(text: string): Expected {
  const parsed = tryParse(text);
  if (!parsed.ok || !isObject(parsed.value)) return MALFORMED;
  // Credential fields are dropped before their depth counts.
  if (tooDeep(parsed.value, (key) => CREDENTIAL_NAME.test(key))) return MALFORMED;
  // The close button's message: a type, no event.
  if (parsed.value['type'] === 'close-widget') return { kind: 'widget', event: 'close-widget' };
  const event = parsed.value['event'];
  if (typeof event !== 'string' || !between(event, 1, EVENT_MAX)) return MALFORMED;
  // A kebab-case name is a command the host posted to the widget: never echoed.
  return event.includes('-') ? FOREIGN : { kind: 'widget', event };
}

/** Objects are measured and read as their JSON text; one that has none is refused on its id, when it has one. */
function expectCommandObject(data: object): Expected {
  let text: unknown;
  try {
    text = JSON.stringify(data);
  } catch {
    return unserializable(data);
  }
  return typeof text === 'string' ? expectCommandText(text) : unserializable(data);
}

function unserializable(data: object): Expected {
  try {
    const id = (data as { id?: unknown }).id;
    return typeof id === 'string' && between(id, 1, ID_MAX) ? { kind: 'malformed', id } : MALFORMED;
  } catch {
    return MALFORMED;
  }
}

function expectCommandText(text: string): Expected {
  if (text.length > LIMITS.maxCommandLength) return expectOversized(text);
  const parsed = tryParse(text);
  return parsed.ok ? expectEnvelope(parsed.value) : MALFORMED;
}

/**
 * Over the cap a command is refused unparsed, yet answered on its id when its text is an envelope
 * with an id the schema takes: `file_too_large` when a sendMessage carries
 * a file whose data decodes to more than maxFileSize bytes, else the cap's parse_error.
 */
function expectOversized(text: string): Expected {
  const parsed = tryParse(text);
  if (!parsed.ok || !looksLikeEnvelope(parsed.value)) return MALFORMED;
  const { id, method, params } = parsed.value as Record<string, unknown>;
  if (!between(id as string, 1, ID_MAX)) return MALFORMED;
  const files = method === 'sendMessage' && isObject(params) ? params['attachments'] : undefined;
  const tooLarge = (Array.isArray(files) ? files : []).some(
    (file) =>
      isObject(file) &&
      typeof file['name'] === 'string' &&
      typeof file['data'] === 'string' &&
      decodedSize(file['data']) > CONFIG.maxFileSize,
  );
  return { kind: 'malformed', id: id as string, code: tooLarge ? 'file_too_large' : 'parse_error' };
}

/** Bytes that base64 text (whitespace aside) decodes to. */
function decodedSize(data: string): number {
  const text = data.replace(/[\t\n\f\r ]/g, '');
  return Math.floor(text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
}

/** `{id, method, params?: object}`, id and method non-empty strings within bounds (in UTF-16 code units). */
function expectEnvelope(value: unknown): Expected {
  if (!isObject(value)) return MALFORMED;
  const { id, method } = value;
  // Nested past the limit: refused, on its id when the id is one the schema takes.
  if (tooDeep(value)) return typeof id === 'string' && between(id, 1, ID_MAX) ? { kind: 'malformed', id } : MALFORMED;
  const paramsOk = !Object.hasOwn(value, 'params') || isObject(value['params']);
  if (
    typeof id !== 'string' ||
    !between(id, 1, ID_MAX) ||
    typeof method !== 'string' ||
    !between(method, 1, METHOD_MAX) ||
    !paramsOk
  ) {
    return typeof id === 'string' && id.length >= 1 && id.length <= 128 ? { kind: 'malformed', id } : MALFORMED;
  }
  return { kind: 'command', id };
}

/**
 * Whether objects or arrays nest deeper than MAX_DEPTH (the root is level 1), not counting what
 * lies under prototype keys or `skipped` ones: the bridge drops those before it measures.
 */
function tooDeep(root: unknown, skipped: (key: string) => boolean = () => false): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_DEPTH) return true;
    for (const [key, item] of Object.entries(node))
      if (!['__proto__', 'constructor', 'prototype'].includes(key) && !skipped(key)) stack.push([item, depth + 1]);
  }
  return false;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * A posted object or JSON text is a host command when it has a string id and method and is not
 * JSON-RPC (same keys, told apart by its `jsonrpc` member); other objects are someone else's.
 */
function looksLikeEnvelope(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const envelope = value as Record<string, unknown>;
  return typeof envelope['id'] === 'string' && typeof envelope['method'] === 'string' && !('jsonrpc' in envelope);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function longestAccepted(accepts: (text: string) => boolean): number {
  let length = 0;
  while (length < 4096 && accepts('a'.repeat(length + 1))) length++;
  return length;
}

/** Lengths in UTF-16 code units, as the schemas count them (`String.prototype.length`). */
function between(text: string, min: number, max: number): boolean {
  return text.length >= min && text.length <= max;
}

// ---------------------------------------------------------------------------------------------
// Running a scenario against a whole bridge and checking every invariant.

const answer = (body: unknown): HttpResponse => ({
  status: 200,
  headers: { get: () => null },
  text: async () => JSON.stringify(body),
});

/** The network is not the point here: every request succeeds at once. */
async function fixedSuccess(url: string, _request: HttpRequest): Promise<HttpResponse> {
  const path = new URL(url).pathname;
  if (path.endsWith('/config')) return answer({ authToken: AUTH_TOKEN, widget: { name: 'Fuzz inbox' } });
  if (path.endsWith('/conversations')) return answer({ id: 7, messages: [] });
  return answer({ id: 1, content: 'sent' });
}

const PROTOTYPE_SNAPSHOTS = [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((proto) => ({
  proto,
  names: Reflect.ownKeys(proto).map(String).sort().join(','),
}));

interface Settings {
  /** Depth beyond what the engine can serialize: refusal with one parse_error replaces the outcome. */
  refusalAllowed?: boolean;
}

async function runScenario({ host, batches }: Scenario, settings: Settings = {}): Promise<void> {
  const test = createInMemoryEnvironment({ fetch: fixedSuccess, channels: [host], pageOrigin: PAGE_ORIGIN });
  const bridge = createBridge(normalizeOptions({ ...CONFIG, host }, PAGE_ORIGIN), test.env);
  // What each input produced, as emitted (the channel posts what one task emitted at its end, so
  // its deliveries cannot tell inputs apart); `ready` came while the bridge was being built.
  const heard: Message[] = [{ type: 'ready' }];
  bridge.on((message) => void heard.push(message as Message));
  try {
    const ledger: Array<{ input: Input; expected: Expected; start: number; end: number }> = [];
    for (const batch of batches) {
      for (const input of batch) {
        const expected = expectedOf(input);
        const start = heard.length;
        // Nothing may throw out of the listener or receive: a throw here fails the property.
        if (input.via === 'post') test.post(input.data, input.origin);
        else bridge.receive(input.data);
        ledger.push({ input, expected, start, end: heard.length });
      }
      await nextTurn();
    }
    await settle(bridge);

    const messages = test.deliveries.flatMap(({ host: to, payload }) => decodePayload(host, to, payload));
    if (!isDeepStrictEqual(messages[0], { type: 'ready' }))
      fail(`the first message is not ready: ${shown(messages[0])}`);
    // The channel delivered exactly what was emitted, in order, however it grouped it.
    if (JSON.stringify(messages) !== JSON.stringify(heard))
      fail(`the channel's messages differ from those emitted: ${shown(messages)} / ${shown(heard)}`);
    const synchronous = new Set<number>([0]);
    const outcomes = ledger.map(({ input, expected, start, end }) => {
      for (let i = start; i < end; i++) synchronous.add(i);
      return checkImmediate(input, expected, heard.slice(start, end), settings);
    });
    checkResponses(outcomes, heard, synchronous);
    checkOutputs(test.deliveries.map(({ payload }) => payload));
    if (!outcomes.some(({ kind }) => kind === 'command') && test.requests.length > 0) {
      fail(`requests without any host command: ${shown(test.requests)}`);
    }
  } finally {
    bridge.destroy();
    checkPrototypes();
  }
}

/** What an input produced before the next input went in; returns what the input turned out to be. */
function checkImmediate(input: Input, expected: Expected, all: Message[], settings: Settings): Expected {
  // A sendMessage's state events (checked in checkResponses) come beside its answer.
  const produced = all.filter((message) => message.type !== 'message');
  if (produced.length < all.length && expected.kind !== 'command')
    fail(`message state events for ${describeInput(input)} (${expected.kind})`);
  const wrong = (why: string) => fail(`${why}, for ${describeInput(input)} (${expected.kind}); got ${shown(produced)}`);
  const [first, second] = produced;
  const isParseError =
    produced.length === 1 &&
    first?.type === 'error' &&
    first['code'] === 'parse_error' &&
    typeof first['message'] === 'string';
  if (settings.refusalAllowed && isParseError) return MALFORMED;
  switch (expected.kind) {
    case 'foreign':
      if (produced.length > 0) wrong('a foreign input produced output');
      break;
    case 'malformed': {
      if (expected.id === undefined) {
        if (!isParseError) wrong('a malformed namespaced input did not produce exactly one parse_error');
        break;
      }
      const answered =
        produced.length === 2 &&
        first?.type === 'response' &&
        first['id'] === redacted(expected.id) &&
        first['ok'] === false &&
        (first['error'] as Message | undefined)?.['code'] === (expected.code ?? 'parse_error') &&
        isDeepStrictEqual(second, first['error']);
      if (!answered)
        wrong('a malformed envelope with a readable id did not produce its failed response and one parse_error');
      break;
    }
    case 'widget': {
      const handled =
        produced.length === 1 &&
        (expected.event === 'error'
          ? first?.type === 'error' && first['code'] === 'widget_error'
          : first?.type === 'widget' && first['event'] === redacted(expected.event) && isObject(first['data']));
      if (!handled) wrong('a widget message did not produce its one event');
      break;
    }
    case 'command': {
      // Answered later, or refused at once (unknown method, bad params, local validation).
      if (produced.length === 0) break;
      const refused =
        produced.length === 2 &&
        first?.type === 'response' &&
        first['id'] === redacted(expected.id) &&
        first['ok'] === false &&
        isDeepStrictEqual(second, first['error']);
      if (!refused) wrong('a command refused at once did not produce its failed response and its error event');
      break;
    }
  }
  return expected;
}

/** Every command exactly one response with its id; what came later is only responses and their errors. */
function checkResponses(outcomes: Expected[], messages: Message[], synchronous: Set<number>): void {
  const count = (ids: string[]) =>
    Object.fromEntries([...new Set(ids)].sort().map((id) => [id, ids.filter((other) => other === id).length]));
  const wanted = count(
    outcomes.flatMap((outcome) =>
      outcome.kind === 'command' || (outcome.kind === 'malformed' && outcome.id !== undefined)
        ? [redacted(outcome.id as string)]
        : [],
    ),
  );
  const got = count(messages.flatMap((message) => (message.type === 'response' ? [String(message['id'])] : [])));
  for (const message of messages) {
    if (
      message.type === 'message' &&
      (typeof message['messageId'] !== 'string' ||
        !['queued', 'sending', 'sent', 'failed'].includes(String(message['state'])) ||
        typeof message['attempt'] !== 'number')
    )
      fail(`a malformed message state event: ${shown(message)}`);
  }
  if (!isDeepStrictEqual(got, wanted)) fail(`responses per command id ${shown(got)}, expected ${shown(wanted)}`);

  for (let i = 0; i < messages.length; i++) {
    if (synchronous.has(i)) continue;
    const message = messages[i] as Message;
    if (message.type === 'message') continue;
    if (message.type !== 'response') fail(`a later message that is not a response: ${shown(message)}`);
    if (message['ok'] === false) {
      if (!isDeepStrictEqual(messages[i + 1], message['error']))
        fail(`a failed response not followed by its error event: ${shown(messages.slice(i, i + 2))}`);
      i++;
    }
  }
}

function checkOutputs(payloads: unknown[]): void {
  for (const payload of payloads) {
    walk(typeof payload === 'string' ? [payload] : payload, (text, isKey) => {
      if (text.includes(WEBSITE_TOKEN) || text.includes(AUTH_TOKEN)) fail(`a token in the output: ${shown(payload)}`);
      if (isKey && PROTOTYPE_KEYS.includes(text)) fail(`a prototype key "${text}" in the output: ${shown(payload)}`);
    });
    if (typeof payload === 'string')
      walk(
        JSON.parse(payload),
        (text, isKey) =>
          isKey && PROTOTYPE_KEYS.includes(text) && fail(`a prototype key "${text}" in ${shown(payload)}`),
      );
  }
}

function checkPrototypes(): void {
  for (const { proto, names } of PROTOTYPE_SNAPSHOTS) {
    const now = Reflect.ownKeys(proto).map(String).sort().join(',');
    if (now !== names) fail(`a built-in prototype changed: ${now}`);
  }
  if (
    ({} as Record<string, unknown>)['polluted'] !== undefined ||
    ([] as unknown as Record<string, unknown>)['polluted'] !== undefined
  ) {
    fail('Object.prototype was polluted');
  }
}

type Message = Record<string, unknown> & { type?: unknown };

/** Android's and iOS's channels carry JSON text: one message, or an array of them. */
function decodePayload(host: Scenario['host'], to: HostName, payload: unknown): Message[] {
  if (to !== host) fail(`delivered to ${to}, not ${host}`);
  if (typeof payload !== 'string') fail(`${host} received a ${typeof payload}, not JSON text`);
  const value: unknown = JSON.parse(payload);
  const messages: unknown[] = Array.isArray(value) ? value : [value];
  if (!messages.every(isObject)) fail(`${host} received ${shown(payload)}, not an object or an array of them`);
  return messages as Message[];
}

/** Visits every string and key, without recursion: outputs may be deeper than the stack. */
function walk(root: unknown, visit: (text: string, isKey: boolean) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') visit(value, false);
    else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        visit(key, true);
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
}

function fail(message: string): never {
  throw new Error(message);
}

function shown(value: unknown): string {
  try {
    return (typeof value === 'string' ? JSON.stringify(value) : fc.stringify(value)).slice(0, 400);
  } catch {
    return '[too deep to print]';
  }
}

const redacted = (text: string) => text.split(WEBSITE_TOKEN).join(REDACTED);

/** A turn of the event loop; every tenth a timer's turn, for the bridge's own 0 ms timers. */
const nextTurn = (turn = 0) =>
  new Promise<void>((resolve) => (turn % 10 === 9 ? setTimeout(resolve, 0) : setImmediate(resolve)));

/**
 * The fake network answers in microtasks, so a few turns finish every command that will finish.
 * Some steps wait for a 0 ms timer (the channel's batch; a message with files, its write asked
 * for first), which setImmediate turns alone may all pass before Node runs.
 */
async function settle(bridge: Bridge): Promise<void> {
  for (let turn = 0; turn < 200; turn++) {
    const { pendingCommands, outbox, undelivered } = bridge.stats();
    if (pendingCommands === 0 && outbox === 0 && undelivered === 0) return;
    await nextTurn(turn);
  }
  throw new Error(`commands left unanswered: ${JSON.stringify(bridge.stats())}`);
}

function describeInput(input: Input): string {
  return input.via === 'post'
    ? `post(${shown(input.data)}, ${JSON.stringify(input.origin)})`
    : `receive(${shown(input.data)})`;
}

// ---------------------------------------------------------------------------------------------
// The generated validators against zod.

interface SafeParser {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: SchemaIssue[] } };
}
let generated: Record<string, unknown> = {};
beforeAll(async () => {
  const source = await generateValidators();
  generated = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as Record<
    string,
    unknown
  >;
});

/** What a message hands to the schemas: itself as parsed (prefixes off), its params, their attachments. */
function schemaInputs(data: unknown): unknown[] {
  const value = typeof data === 'string' ? parsedText(data) : jsonCopy(data);
  if (value === undefined) return [];
  const params = isObject(value) ? value['params'] : undefined;
  const attachments = isObject(params) && Array.isArray(params['attachments']) ? params['attachments'] : [];
  return [value, params, ...attachments];
}

function checkGeneratedAgreesWithZod(value: unknown): void {
  const names = Object.keys(zodSchemas).filter(
    (name) => typeof (zodSchemas as Record<string, unknown>)[name] === 'object',
  );
  if (!isDeepStrictEqual(Object.keys(generated).sort(), Object.keys(zodSchemas).sort()))
    fail(`the generated module exports ${Object.keys(generated).join(', ')}`);
  for (const name of names) {
    const zod = ((zodSchemas as Record<string, unknown>)[name] as SafeParser).safeParse(value);
    const ours = (generated[name] as SafeParser).safeParse(value);
    const where = `${name}.safeParse(${shown(value)})`;
    if (zod.success !== ours.success)
      fail(`${where}: zod says ${zod.success}, the generated validator ${ours.success}`);
    if (zod.success && ours.success) {
      if (!isDeepStrictEqual(ours.data, zod.data) || !isDeepStrictEqual(keyOrder(ours.data), keyOrder(zod.data)))
        fail(`${where}: output ${shown(ours.data)}, zod's ${shown(zod.data)}`);
    } else if (!zod.success && !ours.success) {
      // A message is read from refinements' (custom) issues only: the generated invalid_type issues
      // leave out zod's fixed "Invalid input" (scripts/generate-validators.mjs).
      const essentials = (issues: SchemaIssue[]) =>
        issues.map(({ code, path, expected, message }) => ({
          code,
          path,
          expected,
          message: code === 'custom' ? message : undefined,
        }));
      if (!isDeepStrictEqual(essentials(ours.error.issues), essentials(zod.error.issues)))
        fail(`${where}: issues ${shown(ours.error.issues)}, zod's ${shown(zod.error.issues)}`);
      if (describeIssues(ours.error) !== describeIssues(zod.error))
        fail(`${where}: "${describeIssues(ours.error)}", zod's "${describeIssues(zod.error)}"`);
    }
  }
}

function parsedText(data: string): unknown {
  const text = data.startsWith(WIDGET_PREFIX)
    ? data.slice(WIDGET_PREFIX.length)
    : data.startsWith(COMMAND_PREFIX)
      ? data.slice(COMMAND_PREFIX.length)
      : data;
  const parsed = tryParse(text);
  return parsed.ok ? parsed.value : data;
}

/** An object as the bridge reads it (through its JSON text), or undefined when it has none. */
function jsonCopy(data: unknown): unknown {
  try {
    const text = JSON.stringify(data);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every object's keys in order, depth first: isDeepStrictEqual does not compare key order. */
function keyOrder(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => [key, ...keyOrder((value as Record<string, unknown>)[key])]);
}

// ---------------------------------------------------------------------------------------------
// Generators.

const key = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ...PROTOTYPE_KEYS,
      'polluted',
      'event',
      'id',
      'method',
      'params',
      'type',
      'toString',
      WEBSITE_TOKEN,
    ),
  },
);

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '"',
    '\\',
    'null',
    '[]',
    '{}',
    '\u2028\u2029',
    '\u0000',
    '\ud800',
    '👩‍👩‍👧‍👦',
    'e\u0301',
    WEBSITE_TOKEN,
  ),
  fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })).map(([a, b]) => a + WEBSITE_TOKEN + b),
);

const { tree } = fc.letrec<{ tree: unknown; leaf: unknown; list: unknown[]; dict: Record<string, unknown> }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('list'), tie('dict')),
  leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), text),
  list: fc.array(tie('tree'), { maxLength: 4 }),
  dict: fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
}));

const jsonText = fc.oneof(
  fc.json(),
  fc.json({ stringUnit: 'grapheme' }),
  tree.map((value) => JSON.stringify(value) ?? 'null'),
);

const pollutionText = fc.constantFrom(
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
  '[{"__proto__":{"polluted":"yes"}}]',
  // Escaped keys: JSON.parse turns these into "__proto__" and "constructor" all the same.
  '{"\\u005f_proto__":{"polluted":"yes"}}',
  '{"__pro\\u0074o__":{"polluted":"yes"}}',
  '{"constructo\\u0072":{"prototype":{"polluted":"yes"}}}',
);

/** The token with some of its characters written as JSON \u escapes. */
const escapedToken = fc
  .array(fc.boolean(), { minLength: WEBSITE_TOKEN.length, maxLength: WEBSITE_TOKEN.length })
  .map((flags) =>
    [...WEBSITE_TOKEN]
      .map((char, i) => (flags[i] ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char))
      .join(''),
  );

const nesting = fc.record({
  depth: fc.integer({ min: 1, max: 400 }),
  shape: fc.constantFrom('array', 'object'),
  inner: fc.oneof(
    fc.constantFrom(JSON.stringify(WEBSITE_TOKEN), '1', ''),
    pollutionText,
    escapedToken.map((token) => `"${token}"`),
  ),
});
function nest({ depth, shape, inner }: { depth: number; shape: string; inner: string }): string {
  return shape === 'array'
    ? '['.repeat(depth) + inner + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
}
const deepText = nesting.map(nest);

const knownMethod = fc.constantFrom('init', 'getConversation', 'createConversation', 'sendMessage');
const method = fc.oneof(
  { weight: 4, arbitrary: knownMethod },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'toString',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'x'.repeat(METHOD_MAX),
      'x'.repeat(METHOD_MAX + 1),
      `${WEBSITE_TOKEN}()`,
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const id = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
  fc.constantFrom('1', 'a'.repeat(ID_MAX), 'a'.repeat(ID_MAX + 1), '😀'.repeat(ID_MAX), '', `${WEBSITE_TOKEN}-id`),
);
const contact = fc.record(
  { name: text, email: fc.oneof(fc.emailAddress(), text), identifier: fc.oneof(text, fc.constant('  ')) },
  { requiredKeys: [] },
);
const attachment = fc.record(
  {
    name: fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), fc.constant('')),
    type: fc.constantFrom('image/png', 'text/plain', 'application/pdf', 'application/x-msdownload', ''),
    data: fc.oneof(
      fc.uint8Array({ maxLength: 160 }).map((bytes) => Buffer.from(bytes).toString('base64')),
      fc.string({ maxLength: 12 }),
    ),
    size: fc.oneof(fc.nat(300), fc.constant(-1)),
  },
  { requiredKeys: ['name', 'type'] },
);
const sendParams = fc
  .tuple(
    fc.record(
      {
        content: fc.oneof(text, fc.constantFrom('hello', '  ')),
        attachments: fc.array(attachment, { maxLength: 6 }),
        // A small pool, so one run sends the same messageId twice (a host retrying).
        messageId: fc.constantFrom('m-1', 'm-2', 'm-3', ''),
      },
      { requiredKeys: [] },
    ),
    contact,
  )
  .map(([message, fields]) => ({ ...message, ...fields }));
const params = fc.oneof(sendParams, contact, fc.dictionary(key, tree, { maxKeys: 3 }), fc.constant(undefined));

const envelope = fc.record({ id, method, params }, { requiredKeys: ['id', 'method'] });
const wrongEnvelope = fc.record(
  {
    id: fc.oneof(tree, id),
    method: fc.oneof(tree, method),
    params: fc.oneof(tree, fc.constant(null), fc.constant([])),
  },
  { requiredKeys: [] },
);
const anyEnvelope = fc.oneof({ weight: 3, arbitrary: envelope }, { weight: 1, arbitrary: wrongEnvelope });
const envelopeText = anyEnvelope.map((value) => JSON.stringify(value));

const widgetEvent = fc.oneof(
  fc.constantFrom(
    'loaded',
    'error',
    'unread',
    'opened',
    'closed',
    '',
    'x'.repeat(EVENT_MAX),
    'x'.repeat(EVENT_MAX + 1),
    `${WEBSITE_TOKEN}_event`,
    'set-user',
    'set-locale',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
);
const widgetFields = fc.dictionary(key, tree, { maxKeys: 4 });
const widgetText = fc.oneof(
  fc.record({ event: widgetEvent, rest: widgetFields }).map(({ event, rest }) => JSON.stringify({ ...rest, event })),
  fc.record({ event: tree, rest: widgetFields }).map(({ event, rest }) => JSON.stringify({ ...rest, event })),
  // The widget's error event, carrying details that may name the token.
  fc
    .record({ message: text, error: fc.oneof(text, fc.record({ message: text })) }, { requiredKeys: [] })
    .map((fields) => JSON.stringify({ event: 'error', ...fields })),
  escapedToken.map((token) => `{"event":"loaded","note":"${token}","${token}":1}`),
  nesting.map((shape) => `{"event":"deep","data":${nest(shape)}}`),
);

/** A valid JSON text cut short. */
const truncated = fc
  .tuple(fc.oneof(envelopeText, widgetText, jsonText), fc.nat())
  .map(([full, at]) => full.slice(0, at % Math.max(1, full.length)));

const garbage = fc.oneof(text, jsonText, truncated, pollutionText, deepText);

const long = fc
  .tuple(
    fc.constantFrom(WIDGET_PREFIX, COMMAND_PREFIX, '{"method":', ''),
    fc.string({ minLength: 1, maxLength: 4 }),
    fc.integer({ min: 200, max: 2000 }),
  )
  .map(([prefix, unit, times]) => prefix + unit.repeat(times));

/** Messages whose length is the cap, or just under or over it. */
const atTheCap = fc
  .record({ kind: fc.constantFrom('widget', 'prefixed', 'bare', 'object'), delta: fc.integer({ min: -2, max: 2 }) })
  .map(({ kind, delta }) => {
    const padded = (build: (pad: string) => string, target: number) =>
      build('a'.repeat(Math.max(0, target - build('').length)));
    switch (kind) {
      case 'widget':
        return padded((pad) => `${WIDGET_PREFIX}{"event":"edge","pad":"${pad}"}`, LIMITS.maxMessageLength + delta);
      case 'prefixed':
        return (
          COMMAND_PREFIX +
          padded((pad) => `{"id":"edge","method":"init","params":{"pad":"${pad}"}}`, LIMITS.maxCommandLength + delta)
        );
      case 'bare':
        return padded(
          (pad) => `{"id":"edge","method":"init","params":{"pad":"${pad}"}}`,
          LIMITS.maxCommandLength + delta,
        );
      default:
        return JSON.parse(
          padded((pad) => `{"id":"edge","method":"init","params":{"pad":"${pad}"}}`, LIMITS.maxCommandLength + delta),
        ) as object;
    }
  });

/** Values no JSON parser produces: a host bridge or a page script could still hand them over. */
const exotic = fc
  .constantFrom(
    'undefined',
    'NaN',
    '-0',
    'bigint',
    'symbol',
    'function',
    'date',
    'map',
    'typed',
    'cycle',
    'getter',
    'toJSON',
    'toJSON-envelope',
    'null-proto',
    'bigint-envelope',
  )
  .map((name): unknown => {
    switch (name) {
      case 'undefined':
        return undefined;
      case 'NaN':
        return Number.NaN;
      case '-0':
        return -0;
      case 'bigint':
        return 10n;
      case 'symbol':
        return Symbol('method');
      case 'function':
        return Object.assign(() => 1, { method: 'init', id: 'fn' });
      case 'date':
        return new Date(0);
      case 'map':
        return new Map([['method', 'init']]);
      case 'typed':
        return new Uint8Array([123, 34]);
      case 'cycle': {
        const value: Record<string, unknown> = { id: 'cycle', method: 'init' };
        value['self'] = value;
        return value;
      }
      case 'getter':
        return Object.defineProperty({ id: 'getter' }, 'method', {
          enumerable: true,
          get: () => {
            throw new Error('hostile getter');
          },
        });
      case 'toJSON':
        return { id: 'to-json', method: 'init', toJSON: () => undefined };
      case 'toJSON-envelope':
        return { method: 42, toJSON: () => ({ id: 'to-json-envelope', method: 'init' }) };
      case 'null-proto':
        return Object.assign(Object.create(null) as object, { id: 'null-proto', method: 'init' });
      default:
        return { id: 'bigint', method: 'init', params: { n: 1n } };
    }
  });

const objectData = fc.oneof(
  { weight: 3, arbitrary: anyEnvelope },
  { weight: 1, arbitrary: tree },
  { weight: 1, arbitrary: exotic },
  {
    weight: 1,
    arbitrary: pollutionText.map((source) => ({ ...(JSON.parse(source) as object), id: 'polluter', method: 'init' })),
  },
  {
    weight: 1,
    arbitrary: pollutionText.map((source) => ({
      id: 'polluter',
      method: 'getConversation',
      params: JSON.parse(source) as unknown,
    })),
  },
);

const foreignTraffic = fc.constantFrom(
  'webpackHotUpdate',
  '{"type":"webpackOk"}',
  JSON.stringify({ source: 'react-devtools-content-script', payload: { event: 'loaded' } }),
  '{"jsonrpc":"2.0","method":"ping","id":1}',
  'chatwoot-widget',
  'chatwoot-widget {"event":"loaded"}',
  ' {"id":"1","method":"init"}',
  'CHAT-BRIDGE:{"id":"1","method":"init"}',
);

const postedString = fc.oneof(
  { weight: 3, arbitrary: widgetText.map((json) => WIDGET_PREFIX + json) },
  { weight: 2, arbitrary: garbage.map((rest) => WIDGET_PREFIX + rest) },
  { weight: 2, arbitrary: envelopeText.map((json) => COMMAND_PREFIX + json) },
  { weight: 2, arbitrary: garbage.map((rest) => COMMAND_PREFIX + rest) },
  { weight: 2, arbitrary: envelopeText },
  { weight: 1, arbitrary: garbage.map((rest) => `chatwoot-widget${rest}`) },
  { weight: 1, arbitrary: garbage },
  { weight: 1, arbitrary: foreignTraffic },
  { weight: 1, arbitrary: long },
  { weight: 1, arbitrary: atTheCap.filter((value): value is string => typeof value === 'string') },
);

const origin = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(PAGE_ORIGIN, API_ORIGIN, '') },
  { weight: 1, arbitrary: fc.constantFrom(...DISALLOWED_ORIGINS) },
);

const posted = fc.record({
  via: fc.constant('post' as const),
  data: fc.oneof(
    { weight: 3, arbitrary: postedString },
    { weight: 2, arbitrary: objectData },
    { weight: 1, arbitrary: atTheCap },
  ),
  origin,
});
const received = fc.record({
  via: fc.constant('host' as const),
  data: fc.oneof(
    { weight: 3, arbitrary: objectData },
    { weight: 2, arbitrary: envelopeText },
    { weight: 1, arbitrary: envelopeText.map((json) => COMMAND_PREFIX + json) },
    { weight: 1, arbitrary: garbage },
    { weight: 1, arbitrary: long },
    { weight: 1, arbitrary: atTheCap },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)) },
  ),
});

const scenarioOf = (input: fc.Arbitrary<Input>, maxPerBatch = 5): fc.Arbitrary<Scenario> =>
  fc.record({
    host: fc.constantFrom('android' as const, 'ios' as const),
    batches: fc.array(fc.array(input, { minLength: 1, maxLength: maxPerBatch }), { minLength: 1, maxLength: 3 }),
  });

function parameters<Values extends unknown[] = [Scenario]>(numRuns: number): fc.Parameters<Values> {
  return SEED === undefined ? { numRuns } : { numRuns, seed: Number(SEED) };
}

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new Error(`${name} must be a positive integer, got "${value}"`);
  return parsed;
}

// ---------------------------------------------------------------------------------------------

describe('inbound fuzzing', () => {
  it(
    `handles ${RUNS} generated sequences of posted and host messages by the protocol's rules`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          scenarioOf(fc.oneof({ weight: 3, arbitrary: posted }, { weight: 2, arbitrary: received })),
          (scenario) => runScenario(scenario),
        ),
        parameters(RUNS),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'refuses every message over its cap with one parse_error and handles every message at the cap',
    async () => {
      const input = fc.oneof(
        fc.record({ via: fc.constant('post' as const), data: atTheCap, origin: fc.constantFrom(PAGE_ORIGIN, '') }),
        fc.record({ via: fc.constant('host' as const), data: atTheCap }),
      );
      await fc.assert(
        fc.asyncProperty(scenarioOf(input, 3), (scenario) => runScenario(scenario)),
        parameters(Math.max(50, Math.ceil(RUNS / 20))),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'never lets the website token out, however deep, escaped or keyed it sits in a message',
    async () => {
      const tokenBearing = fc.oneof(
        escapedToken.map(
          (token) => `${WIDGET_PREFIX}{"event":"loaded","${token}":"${token}","nested":[{"${token}":["${token}"]}]}`,
        ),
        escapedToken.map((token) => `${WIDGET_PREFIX}{"event":"error","message":"bad token ${token}"}`),
        escapedToken.map((token) => `${COMMAND_PREFIX}{"id":"${token}","method":"${token}"}`),
        nesting.map(
          (shape) =>
            `${WIDGET_PREFIX}{"event":"deep","data":${nest({ ...shape, inner: JSON.stringify(WEBSITE_TOKEN) })}}`,
        ),
      );
      const input = fc.oneof(
        fc.record({ via: fc.constant('post' as const), data: tokenBearing, origin: fc.constantFrom(PAGE_ORIGIN, '') }),
        fc.record({
          via: fc.constant('host' as const),
          data: tokenBearing.filter((data) => data.startsWith(COMMAND_PREFIX)),
        }),
      );
      await fc.assert(
        fc.asyncProperty(scenarioOf(input, 3), (scenario) => runScenario(scenario)),
        parameters(Math.max(100, Math.ceil(RUNS / 10))),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'leaves Object.prototype untouched and drops prototype keys, whatever their spelling',
    async () => {
      const polluting = fc.oneof(
        pollutionText.map((json) => `${WIDGET_PREFIX}{"event":"loaded","data":${json},"x":${json}}`),
        pollutionText.map((json) => `${COMMAND_PREFIX}{"id":"p","method":"getConversation","params":${json}}`),
        pollutionText.map(
          (json) =>
            `${COMMAND_PREFIX}{"id":"p","method":"sendMessage","params":{"content":"hi","attachments":[${json}]}}`,
        ),
        pollutionText.map((json) => json.replace(/^\{/, '{"id":"p","method":"init",')),
      );
      const input = fc.oneof(
        fc.record({
          via: fc.constant('post' as const),
          data: fc.oneof(polluting, objectData),
          origin: fc.constantFrom(PAGE_ORIGIN, ''),
        }),
        fc.record({ via: fc.constant('host' as const), data: fc.oneof(polluting, objectData) }),
      );
      await fc.assert(
        fc.asyncProperty(scenarioOf(input, 3), (scenario) => runScenario(scenario)),
        parameters(Math.max(100, Math.ceil(RUNS / 10))),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'survives nesting far deeper than any engine serializes, with one outcome per message',
    async () => {
      // Past a few thousand levels JSON.stringify and revivers overflow the stack, so refusing
      // such a message with one parse_error is as good as handling it; throwing is not.
      const veryDeep = fc.record({
        depth: fc.integer({ min: 1_000, max: 60_000 }),
        shape: fc.constantFrom('array', 'object'),
        inner: fc.constantFrom('1', '{"constructor":1}', JSON.stringify(WEBSITE_TOKEN)),
      });
      const data = fc.oneof(
        veryDeep.map((shape) => `${WIDGET_PREFIX}{"event":"deep","data":${nest(shape)}}`),
        veryDeep.map((shape) => `${COMMAND_PREFIX}{"id":"deep","method":"init","params":{"x":${nest(shape)}}}`),
        veryDeep.map((shape) => JSON.parse(`{"id":"deep","method":"init","params":{"x":${nest(shape)}}}`) as object),
      );
      const input = fc.oneof(
        fc.record({ via: fc.constant('post' as const), data, origin: fc.constant(PAGE_ORIGIN) }),
        fc.record({ via: fc.constant('host' as const), data }),
      );
      await fc.assert(
        fc.asyncProperty(scenarioOf(input, 2), (scenario) => runScenario(scenario, { refusalAllowed: true })),
        parameters(Math.max(20, Math.ceil(RUNS / 100))),
      );
    },
    TIMEOUT_MS,
  );
  it(
    "gives zod's verdicts, outputs and issue texts with the injected bundle's generated validators",
    async () => {
      const corpus = fc.oneof(
        { weight: 4, arbitrary: fc.oneof(posted, received).map(({ data }) => schemaInputs(data)) },
        {
          weight: 2,
          arbitrary: fc.oneof(sendParams, contact, attachment, params, tree, anyEnvelope).map((value) => [value]),
        },
        { weight: 1, arbitrary: fc.anything().map((value) => [value]) },
      );
      fc.assert(
        fc.property(corpus, (values) => values.forEach(checkGeneratedAgreesWithZod)),
        parameters<[unknown[]]>(RUNS * 3),
      );
    },
    TIMEOUT_MS,
  );
});
