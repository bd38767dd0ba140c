// @ts-check
/**
 * The message-state event (`{type: "message", messageId, state, attempt, ...}`) as each native
 * receiver decodes it (host-adapters/android, ios, flutter), written as code for its real types: Kotlin
 * `ChatEvent.Message`, Swift `.message(ChatMessageStatus(...))`, Dart `onMessageState(...)`.
 * The receivers' rules apply: required fields or a parse_error, malformed optional fields left
 * out, `nextAttemptAt` rounded down to a whole millisecond.
 */
import { dart, dartString, kotlin, kotlinString, swift, swiftString } from './native-literals.js';

/** What a receiver makes of a message event without its required fields. */
export const BAD_MESSAGE = {
  code: 'parse_error',
  message:
    '[chat-bridge] a message event needs a string "messageId", a "state" (queued, sending, sent or failed) and a whole "attempt" of 0 or more',
};
const STATES = ['queued', 'sending', 'sent', 'failed'];
const MAX_TIME = 8.64e15;

/**
 * A time the receivers keep (ms since the epoch, a JavaScript Date's range), as they decode it:
 * rounded down, as each platform's type; undefined when they leave it out.
 * @param {'android' | 'ios' | 'flutter'} host
 * @param {unknown} value
 */
export function timeLiteral(host, value) {
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_TIME)) return undefined;
  const ms = Math.floor(value);
  if (host === 'android') return `${ms}L`;
  return host === 'ios'
    ? `Date(timeIntervalSince1970: ${ms / 1000})`
    : `DateTime.fromMillisecondsSinceEpoch(${ms}, isUtc: true)`;
}

/** @param {unknown} value @param {number} max */
const isCount = (value, max) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;

/**
 * @param {'android' | 'ios' | 'flutter'} host
 * @param {Record<string, any>} m
 * @param {(error: Record<string, unknown>) => string} errorValue the platform's error value, e.g. `ChatError(...)`
 * @returns {string | undefined} undefined when the receiver refuses it (render BAD_MESSAGE)
 */
export function messageForm(host, m, errorValue) {
  const { messageId, state, attempt, nextAttemptAt, result, error, progress } = m;
  if (typeof messageId !== 'string' || !STATES.includes(state) || !isCount(attempt, 2 ** 31 - 1)) return undefined;
  const android = host === 'android';
  const is = android ? ' = ' : ': ';
  const string = android ? kotlinString : host === 'ios' ? swiftString : dartString;
  const literal = android ? kotlin : host === 'ios' ? swift : dart;
  const stateName = android
    ? `MessageState.${state.toUpperCase()}`
    : host === 'ios'
      ? `.${state}`
      : `MessageState.${state}`;
  const time = timeLiteral(host, nextAttemptAt);
  const withError =
    typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string';
  const bytes =
    typeof progress === 'object' &&
    progress !== null &&
    isCount(progress.sentBytes, Number.MAX_SAFE_INTEGER) &&
    isCount(progress.totalBytes, Number.MAX_SAFE_INTEGER);
  const long = (/** @type {number} */ n) => (android ? `${n}L` : String(n));
  const progressValue = bytes
    ? `${android ? 'ChatEvent.Message.Progress' : host === 'ios' ? 'ChatMessageStatus.Progress' : 'ChatUploadProgress'}(sentBytes${is}${long(progress.sentBytes)}, totalBytes${is}${long(progress.totalBytes)})`
    : undefined;
  const hasResult = result !== undefined && result !== null;
  /** @type {Array<[string, string | undefined]>} */
  const fields = [
    ['messageId', string(messageId)],
    ['state', stateName],
    ['attempt', String(attempt)],
    ['nextAttemptAt', time],
    ['result', hasResult ? literal(result) : undefined],
    ['error', withError ? errorValue(error) : undefined],
    ['progress', progressValue],
  ];
  // Swift's memberwise initializer takes every field; Kotlin and Dart default the optional ones.
  const args = fields
    .filter(([, value]) => value !== undefined || host === 'ios')
    .map(([name, value]) => `${name}${is}${value ?? 'nil'}`)
    .join(', ');
  if (android) return `ChatEvent.Message(${args})`;
  if (host === 'ios') return `.message(ChatMessageStatus(${args}))`;
  return `onMessageState(ChatMessageStatus(${args}))`;
}
