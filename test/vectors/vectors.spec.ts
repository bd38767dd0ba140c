/**
 * The shared vectors (test/vectors/<host>.json) pin, for every platform, what the channel
 * receives for each message the bridge emits, and the native event the platform's receiver
 * turns it into. The same files are meant for the native receivers' own tests
 * (host-adapters/android, ios, flutter), so the TypeScript adapters and the Kotlin, Swift and Dart decoders are
 * held to one set of payloads.
 *
 * `decode` below is the reference for those receivers: the logic they implement, line for line.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createBridge } from '../../bridge/bridge.js';
import type { ErrorEvent } from '../../bridge/protocol/errors.js';
import type { MessageState, OutboundMessage } from '../../bridge/protocol/messages.js';
import { normalizeOptions } from '../../bridge/options.js';
import { HOST_NAMES, type HostName } from '../../bridge/protocol/bridge-options.js';
import { adapters } from '../../bridge/outbound/adapters/index.js';
import { decodeMessage, decodeMessages } from '../../host-adapters/react-native-host.js';
import { createInMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

/** The platform-neutral form of a native event, as the vectors write it. */
type NativeError = {
  kind: 'error';
  code: string;
  message: string;
  /** Always there: false when the payload has no boolean true (a bridge older than the field sends none). */
  retryable: boolean;
  status?: number;
  errors?: Record<string, string[]>;
  /** Whole ms since the epoch, rounded down, when the payload has a time a Date holds. */
  retryAt?: number;
};
interface NativeMessageState {
  kind: 'message';
  messageId: string;
  state: MessageState;
  attempt: number;
  nextAttemptAt?: number;
  result?: unknown;
  error?: NativeError;
  progress?: { sentBytes: number; totalBytes: number };
}
type NativeEvent =
  | { kind: 'ready' }
  | NativeError
  | { kind: 'response'; id: string; ok: true; result: unknown }
  | { kind: 'response'; id: string; ok: false; error: NativeError }
  | { kind: 'widget'; event: string; data: Record<string, unknown> }
  | NativeMessageState
  | { kind: 'conversationToken'; token: string };

interface Vector {
  name: string;
  /** Absent for payloads the bridge never sends (decode-only vectors). */
  message?: OutboundMessage;
  /** What the bridge emitted in one task, posted as one payload (an array), instead of `message`. */
  messages?: OutboundMessage[];
  payload: unknown;
  /** The one event a payload of one message decodes to; `events` for a payload that is an array. */
  event?: NativeEvent;
  events?: NativeEvent[];
}

/** What a vector's payload decodes to: its events in order. */
const eventsOf = (vector: Vector): NativeEvent[] => vector.events ?? [vector.event as NativeEvent];

interface VectorFile {
  host: HostName;
  payload: 'string' | 'object';
  channel: string;
  vectors: Vector[];
}

/** The parse_error texts every receiver uses, so one vector file serves all of them. */
const DECODE_ERRORS = {
  notObject: '[chat-bridge] the payload is not a JSON object',
  noType: '[chat-bridge] the payload has no string "type"',
  unknownType: '[chat-bridge] unknown message type "',
  badError: '[chat-bridge] an error event needs a string "code" and "message"',
  badResponse: '[chat-bridge] a response needs a string "id", a boolean "ok" and, when ok is false, an "error" event',
  badWidget: '[chat-bridge] a widget event needs a string "event"',
  badConversationToken: '[chat-bridge] a conversationToken event needs a string "token"',
  badMessage:
    '[chat-bridge] a message event needs a string "messageId", a "state" (queued, sending, sent or failed) and a whole "attempt" of 0 or more',
} as const;

const MESSAGE_STATES: readonly string[] = ['queued', 'sending', 'sent', 'failed'] satisfies MessageState[];
/** `attempt` fits a 32-bit Int (Kotlin); byte counts are whole numbers JavaScript holds exactly. */
const MAX_ATTEMPT = 2 ** 31 - 1;
/** The latest time a JavaScript Date (and a Dart DateTime) holds, in ms since the epoch. */
const MAX_TIME = 8.64e15;

/**
 * The reference receiver for one call of a channel: one message, or an array of the messages one
 * task of the page delivered (JSON text; an object receiver takes the array itself), each decoded
 * in turn.
 */
function decodeAll(payload: unknown): NativeEvent[] {
  let value = payload;
  if (typeof payload === 'string') {
    try {
      value = JSON.parse(payload);
    } catch {
      return [decode(payload)];
    }
  }
  return Array.isArray(value) ? value.map((item: unknown) => decode(item)) : [decode(payload)];
}

/**
 * The reference receiver for one message: the payload is JSON text (React Native, Android, iOS,
 * Flutter) or an object (browser pages; the Swift receiver takes one too); anything it cannot
 * decode becomes a parse_error event, so a bad payload never crashes the app.
 */
function decode(payload: unknown): NativeEvent {
  let value = payload;
  if (typeof payload === 'string') {
    try {
      value = JSON.parse(payload);
    } catch {
      return parseError(DECODE_ERRORS.notObject);
    }
  }
  if (!isObject(value)) return parseError(DECODE_ERRORS.notObject);
  const type = value['type'];
  if (typeof type !== 'string') return parseError(DECODE_ERRORS.noType);
  switch (type) {
    case 'ready':
      return { kind: 'ready' };
    case 'error':
      return decodeError(value) ?? parseError(DECODE_ERRORS.badError);
    case 'response': {
      const { id, ok } = value;
      if (typeof id !== 'string' || typeof ok !== 'boolean') return parseError(DECODE_ERRORS.badResponse);
      if (ok) return { kind: 'response', id, ok, result: value['result'] ?? null };
      const error = isObject(value['error']) ? decodeError(value['error']) : undefined;
      return error === undefined ? parseError(DECODE_ERRORS.badResponse) : { kind: 'response', id, ok, error };
    }
    case 'widget': {
      const event = value['event'];
      if (typeof event !== 'string') return parseError(DECODE_ERRORS.badWidget);
      const data = value['data'];
      return { kind: 'widget', event, data: isObject(data) ? data : {} };
    }
    case 'message':
      return decodeMessageState(value) ?? parseError(DECODE_ERRORS.badMessage);
    case 'conversationToken': {
      const token = value['token'];
      return typeof token === 'string'
        ? { kind: 'conversationToken', token }
        : parseError(DECODE_ERRORS.badConversationToken);
    }
    default:
      return parseError(`${DECODE_ERRORS.unknownType}${type}"`);
  }
}

/**
 * Code and message are required; a malformed status, field list or retryAt is left out, not fatal.
 * `retryable` is true only when the payload says `true`: anything else, or nothing, is false.
 */
function decodeError(value: Record<string, unknown>): NativeError | undefined {
  const { code, message, status, errors, retryable, retryAt } = value;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  const event: NativeError = { kind: 'error', code, message, retryable: retryable === true };
  if (typeof retryAt === 'number' && retryAt >= 0 && retryAt <= MAX_TIME) event.retryAt = Math.floor(retryAt);
  if (typeof status === 'number' && Number.isInteger(status)) event.status = status;
  if (isObject(errors)) {
    const fields: Record<string, string[]> = {};
    for (const [field, problems] of Object.entries(errors)) {
      if (Array.isArray(problems) && problems.every((problem) => typeof problem === 'string'))
        fields[field] = problems as string[];
    }
    if (Object.keys(fields).length > 0) event.errors = fields;
  }
  return event;
}

/**
 * `messageId`, `state` and `attempt` are required; a malformed optional field is left out, not
 * fatal. `nextAttemptAt` is rounded down to a whole millisecond; a `null` result is no result.
 */
function decodeMessageState(value: Record<string, unknown>): NativeMessageState | undefined {
  const { messageId, state, attempt, nextAttemptAt, result, error, progress } = value;
  if (typeof messageId !== 'string' || typeof state !== 'string' || !MESSAGE_STATES.includes(state)) return undefined;
  if (!isCount(attempt, MAX_ATTEMPT)) return undefined;
  const event: NativeMessageState = { kind: 'message', messageId, state: state as MessageState, attempt };
  if (typeof nextAttemptAt === 'number' && nextAttemptAt >= 0 && nextAttemptAt <= MAX_TIME)
    event.nextAttemptAt = Math.floor(nextAttemptAt);
  if (result !== undefined && result !== null) event.result = result;
  const decodedError = isObject(error) ? decodeError(error) : undefined;
  if (decodedError !== undefined) event.error = decodedError;
  if (isObject(progress)) {
    const { sentBytes, totalBytes } = progress;
    if (isCount(sentBytes, Number.MAX_SAFE_INTEGER) && isCount(totalBytes, Number.MAX_SAFE_INTEGER))
      event.progress = { sentBytes, totalBytes };
  }
  return event;
}

/** A whole number from 0 to `max`; booleans are not numbers here (Swift's NSNumber would say they are). */
function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

function parseError(message: string): NativeError {
  return { kind: 'error', code: 'parse_error', message, retryable: false };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------

const load = (host: HostName): VectorFile =>
  JSON.parse(readFileSync(new URL(`./${host}.json`, import.meta.url), 'utf8')) as VectorFile;
const files = HOST_NAMES.map((host) => ({ host, file: load(host) }));
/** Each receiver's decoder: its files, read together. */
const NATIVE_SOURCES = {
  kotlin: ['../../host-adapters/android/src/main/kotlin/dev/chatbridge/ChatEvent.kt'],
  swift: [
    '../../host-adapters/ios/Sources/ChatBridge/ChatEvent.swift',
    '../../host-adapters/ios/Sources/ChatBridge/ChatBridgeError.swift',
  ],
  dart: ['../../host-adapters/flutter/lib/src/chat_event.dart', '../../host-adapters/flutter/lib/src/chat_error.dart'],
};

describe.each(files)('the $host vectors', ({ host, file }) => {
  const encoded = file.vectors.filter(
    (vector): vector is Vector & { message: OutboundMessage } => vector.message !== undefined,
  );

  it('name their host and payload kind, each vector once', () => {
    expect(file.host).toBe(host);
    expect(file.payload).toBe(host === 'browser' ? 'object' : 'string');
    const names = file.vectors.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(encoded.map((vector) => [vector.name, vector] as const))(
    'encode "%s" exactly as the payload the channel receives',
    (_name, vector) => {
      const payload = adapters[host].encode(vector.message);
      expect(typeof payload).toBe(file.payload);
      expect(payload).toStrictEqual(vector.payload);
    },
  );

  it.each(file.vectors.flatMap((vector) => (vector.messages === undefined ? [] : [[vector.name, vector] as const])))(
    'encode "%s", messages that cross together, as the one payload the channel receives',
    (_name, vector) => {
      const payload = adapters[host].encode(vector.messages as OutboundMessage[]);
      expect(typeof payload).toBe(file.payload);
      expect(payload).toStrictEqual(vector.payload);
    },
  );

  it.each(file.vectors.map((vector) => [vector.name, vector] as const))(
    'decode "%s" to the native events',
    (_name, vector) => {
      expect(vector.event === undefined).toBe(vector.events !== undefined);
      expect(decodeAll(vector.payload)).toStrictEqual(eventsOf(vector));
    },
  );

  it.each(file.vectors.map((vector) => [vector.name, vector] as const))(
    'survive "%s" sent through JSON text and back',
    (_name, vector) => {
      // What a native test does: read the file, hand the payload over, compare with "event".
      const reread = JSON.parse(JSON.stringify(vector)) as Vector;
      expect(decodeAll(reread.payload)).toStrictEqual(eventsOf(reread));
    },
  );
});

describe('the vector files together', () => {
  const bridgeMessages = (file: VectorFile) =>
    file.vectors
      .filter(({ message }) => message !== undefined)
      .map(({ name, message, event }) => ({ name, message, event }));

  it('pin the same bridge messages and native events for every platform', () => {
    const [first, ...rest] = files.map(({ file }) => bridgeMessages(file));
    for (const other of rest) expect(other).toStrictEqual(first);
  });

  it('cover every message type, status and field errors, failed responses, decode failures and hard characters', () => {
    const android = load('android');
    const messages = android.vectors.flatMap(({ message }) => (message === undefined ? [] : [message]));
    expect(new Set(messages.map(({ type }) => type))).toEqual(
      new Set(['ready', 'error', 'response', 'widget', 'message', 'conversationToken']),
    );
    expect(
      messages.some(
        (message) => message.type === 'error' && message.status !== undefined && message.errors !== undefined,
      ),
    ).toBe(true);
    expect(messages.some((message) => message.type === 'response' && message.ok)).toBe(true);
    expect(messages.some((message) => message.type === 'response' && !message.ok)).toBe(true);
    const texts = JSON.stringify(messages);
    for (const hard of ['\u2028', '\u2029', '😀', '\\"', '\\n', '\\u0000']) expect(texts).toContain(hard);
    const decodeOnly = android.vectors.filter(({ message }) => message === undefined).flatMap(eventsOf);
    for (const text of Object.values(DECODE_ERRORS)) {
      expect(
        decodeOnly.some(
          (event) => event.kind === 'error' && event.code === 'parse_error' && event.message.startsWith(text),
        ),
      ).toBe(true);
    }
  });

  it('cover every message state, each optional field of a message event present and absent', () => {
    const states = load('android').vectors.flatMap(({ message }) => (message?.type === 'message' ? [message] : []));
    expect(new Set(states.map(({ state }) => state))).toEqual(new Set(MESSAGE_STATES));
    for (const field of ['nextAttemptAt', 'result', 'error', 'progress'] as const) {
      expect(states.some((message) => message[field] !== undefined)).toBe(true);
      expect(states.some((message) => message[field] === undefined)).toBe(true);
    }
  });

  it('cover retryable true and false, retryAt present and absent, a bridge without retryable and webview_restarted', () => {
    const vectors = load('android').vectors;
    /** The error a bridge message carries: itself, a failed response's, a message event's. */
    const errorsOf = (message: OutboundMessage | undefined): Array<ErrorEvent | undefined> =>
      message?.type === 'error'
        ? [message]
        : (message?.type === 'response' && !message.ok) || message?.type === 'message'
          ? [message.error]
          : [];
    const sent = vectors.flatMap(({ message }) => errorsOf(message)).filter((error) => error !== undefined);
    expect(sent.every((error) => typeof error.retryable === 'boolean')).toBe(true);
    for (const retryable of [true, false]) expect(sent.some((error) => error.retryable === retryable)).toBe(true);
    expect(sent.some((error) => error.retryAt !== undefined)).toBe(true);
    expect(sent.some((error) => error.retryAt === undefined)).toBe(true);
    // Each place an error rides: the error event, a failed response, a message event.
    for (const type of ['error', 'response', 'message'])
      expect(vectors.some(({ message }) => message?.type === type && errorsOf(message)[0]?.retryAt !== undefined)).toBe(
        true,
      );
    // The browser file's payloads are objects: no JSON text to parse.
    const decodeOnly = load('browser').vectors.filter(
      ({ message, messages }) => message === undefined && messages === undefined,
    );
    expect(
      decodeOnly.some(({ payload }) => isObject(payload) && payload['type'] === 'error' && !('retryable' in payload)),
    ).toBe(true);
    expect(
      decodeOnly.some(({ event }) => event?.kind === 'error' && event.code === 'webview_restarted' && event.retryable),
    ).toBe(true);
  });

  it('hold what the React Native host decodes back to the very message', () => {
    for (const vector of load('react-native').vectors) {
      if (vector.message !== undefined) expect(decodeMessage(vector.payload)).toStrictEqual(vector.message);
      if (vector.messages !== undefined) expect(decodeMessages(vector.payload)).toStrictEqual(vector.messages);
    }
  });

  it('match what a running bridge delivers for ready and a widget event', () => {
    const payloadOf = (host: HostName, name: string) =>
      load(host).vectors.find((vector) => vector.name === name)?.payload;
    for (const host of ['android', 'ios'] as const) {
      const test = createInMemoryEnvironment({ channels: [host] });
      const bridge = createBridge(
        normalizeOptions({ baseUrl: 'https://chat.example.test', host }, test.env.pageOrigin),
        test.env,
      );
      test.post('chatwoot-widget:{"event":"loaded"}', test.env.pageOrigin);
      bridge.destroy();
      expect(test.deliveries.map(({ payload }) => payload)).toStrictEqual([
        payloadOf(host, 'ready'),
        payloadOf(host, 'widget loaded without data'),
      ]);
    }
  });

  it.each(HOST_NAMES)(
    "match what a running bridge with forwardConversationToken delivers on %s for the widget's token",
    (host) => {
      const vector = load(host).vectors.find((candidate) => candidate.message?.type === 'conversationToken');
      const token = (vector?.message as { token: string }).token;
      const test = createInMemoryEnvironment({ channels: [host] });
      const bridge = createBridge(
        normalizeOptions(
          { baseUrl: 'https://chat.example.test', host, forwardConversationToken: true },
          test.env.pageOrigin,
        ),
        test.env,
      );
      test.post(`chatwoot-widget:${JSON.stringify({ event: 'loaded', config: { authToken: token } })}`);
      bridge.destroy();
      expect(test.deliveries.map(({ payload }) => payload).slice(-1)).toStrictEqual([vector?.payload]);
    },
  );

  it.each(Object.entries(NATIVE_SOURCES))(
    'are decoded by the %s receiver with the same parse_error texts',
    (_language, paths) => {
      // The source spells quotes as \" inside its string literals.
      const source = paths
        .map((path) => readFileSync(new URL(path, import.meta.url), 'utf8'))
        .join('\n')
        .replaceAll('\\"', '"');
      for (const text of Object.values(DECODE_ERRORS)) expect(source).toContain(text.replace('[chat-bridge] ', ''));
      expect(source).toContain('[chat-bridge] ');
      for (const field of [
        'type',
        'code',
        'message',
        'retryable',
        'retryAt',
        'status',
        'errors',
        'id',
        'ok',
        'result',
        'error',
        'event',
        'data',
        'messageId',
        'state',
        'attempt',
        'nextAttemptAt',
        'progress',
        'sentBytes',
        'totalBytes',
        'token',
        'conversationToken',
      ]) {
        expect(source.includes(`"${field}"`) || source.includes(`'${field}'`), `reads "${field}"`).toBe(true);
      }
      // Swift and Dart name the states as enum cases whose names are the wire spelling.
      for (const state of MESSAGE_STATES) expect(source, `knows state ${state}`).toMatch(new RegExp(`\\b${state}\\b`));
    },
  );
});

// Guards the reference decoder itself against drift from the vectors' own contract.
describe('the reference decoder', () => {
  it('turns every bridge message into the event the vectors give it, and nothing else into a crash', () => {
    for (const garbage of [
      undefined,
      0,
      true,
      [],
      '',
      '{',
      '{"type":null}',
      { type: 'error', code: 'x', message: 1 },
      { type: 'message', messageId: 'm', state: 'sent', attempt: true },
      { type: 'message', messageId: 'm', state: 'delivered', attempt: 1 },
    ]) {
      const event = decode(garbage);
      expect(event.kind === 'error' && event.code === 'parse_error').toBe(true);
    }
    for (const vector of load('ios').vectors)
      if (vector.message !== undefined) expect(isDeepStrictEqual(decode(vector.message), vector.event)).toBe(true);
  });
});
