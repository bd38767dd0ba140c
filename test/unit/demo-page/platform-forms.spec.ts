/**
 * The demo's platform column writes each bridge message as code for the receivers' real types
 * (host-adapters/android, ios, flutter): Kotlin `ChatEvent` (a Response carries `ok`), Swift `ChatEvent` whose
 * failure type is the `ChatBridgeError` struct (an `.error` holds code and message, the rest goes to `onError`), Dart `ChatBridgeReceiver` callbacks taking
 * `ChatError` / `ChatResponse` / `ChatWidgetEvent`. The Kotlin forms below were compiled with
 * kotlinc 2.4.20 against ChatEvent.kt (see the commit); these tests pin them.
 */
import { describe, expect, it } from 'vitest';
import { nativeForm } from '../../../demo-page/platform-forms.js';

const validation = {
  type: 'error',
  code: 'validation_error',
  retryable: false,
  message: 'Email "x" costs $5\n\u0001',
  status: 422,
  errors: { email: ['is invalid'] },
};
const ok = {
  type: 'response',
  id: 'c1.2',
  ok: true,
  result: { id: 5, tags: [], meta: {}, at: 1700000000000, n: null },
};
const failed = {
  type: 'response',
  id: 'c1.3',
  ok: false,
  error: { type: 'error', code: 'not_found', retryable: false, message: '[GET /x] 404', status: 404 },
};
const widget = { type: 'widget', event: 'loaded', data: { locale: 'en' } };
const unknown = { type: 'telemetry', data: {} };

describe('nativeForm for Android (Kotlin, ChatEvent.kt)', () => {
  it('writes a response with its ok, as the data class requires, and empty collections with their types', () => {
    expect(nativeForm('android', ok)).toBe(
      'ChatEvent.Response(id = "c1.2", ok = true, result = mapOf("id" to 5, "tags" to emptyList<Any?>(), "meta" to emptyMap<String, Any?>(), "at" to 1700000000000L, "n" to null))',
    );
    expect(nativeForm('android', failed)).toBe(
      'ChatEvent.Response(id = "c1.3", ok = false, error = ChatEvent.Error(code = "not_found", message = "[GET /x] 404", status = 404))',
    );
  });

  it('escapes $ (a template in Kotlin) and control characters, and writes field errors as Map<String, List<String>>', () => {
    expect(nativeForm('android', validation)).toBe(
      'ChatEvent.Error(code = "validation_error", message = "Email \\"x\\" costs \\$5\\n\\u0001", status = 422, errors = mapOf("email" to listOf("is invalid")))',
    );
  });

  it('writes what the decoder makes of a type it does not know: a parse_error', () => {
    expect(nativeForm('android', unknown)).toBe(
      'ChatEvent.Error(code = "parse_error", message = "[chat-bridge] unknown message type \\"telemetry\\"")',
    );
    expect(nativeForm('android', widget)).toBe('ChatEvent.Widget(event = "loaded", data = mapOf("locale" to "en"))');
  });
});

describe('nativeForm for iOS (Swift, ChatBridgeReceiver.swift)', () => {
  it('fails a response with the ChatBridgeError struct, not an enum case', () => {
    expect(nativeForm('ios', failed)).toBe(
      '.response(id: "c1.3", result: .failure(ChatBridgeError(code: "not_found", message: "[GET /x] 404", status: 404)))',
    );
  });

  it('types mixed JSON literals and writes null inside them as NSNull()', () => {
    expect(nativeForm('ios', ok)).toBe(
      '.response(id: "c1.2", result: .success(["id": 5, "tags": [] as [Any], "meta": [:] as [String: Any], "at": 1700000000000, "n": NSNull()] as [String: Any]))',
    );
    expect(nativeForm('ios', { type: 'response', id: 'c1.4', ok: true, result: null })).toBe(
      '.response(id: "c1.4", result: .success(nil))',
    );
  });

  it('writes field errors as [String: [String]] and control characters as \\u{...}', () => {
    expect(nativeForm('ios', validation)).toBe(
      'onError(ChatBridgeError(code: "validation_error", message: "Email \\"x\\" costs $5\\n\\u{1}", status: 422, errors: ["email": ["is invalid"]])), then .error(code: "validation_error", message: "Email \\"x\\" costs $5\\n\\u{1}")',
    );
    expect(nativeForm('ios', unknown)).toBe(
      '.error(code: "parse_error", message: "[chat-bridge] unknown message type \\"telemetry\\"")',
    );
  });
});

describe("an error's retryable and retryAt, as each receiver keeps them", () => {
  const limited = {
    type: 'error',
    code: 'rate_limited',
    message: 'm',
    retryable: true,
    status: 429,
    retryAt: 1763921234567.9,
  };

  it('writes retryable when true and retryAt rounded down, as each language types a time', () => {
    expect(nativeForm('android', limited)).toBe(
      'ChatEvent.Error(code = "rate_limited", message = "m", status = 429, retryable = true, retryAt = 1763921234567L)',
    );
    expect(nativeForm('ios', limited)).toBe(
      'onError(ChatBridgeError(code: "rate_limited", message: "m", status: 429, retryable: true, retryAt: Date(timeIntervalSince1970: 1763921234.567))), then .error(code: "rate_limited", message: "m")',
    );
    expect(nativeForm('flutter', limited)).toBe(
      "onError(ChatError(code: 'rate_limited', message: 'm', status: 429, retryable: true, retryAt: DateTime.fromMillisecondsSinceEpoch(1763921234567, isUtc: true)))",
    );
  });

  it('leaves out what the receivers drop: a retryable that is not true, a retryAt that is no time', () => {
    const odd = { type: 'error', code: 'network_error', message: 'm', retryable: 'yes', retryAt: -1 };
    expect(nativeForm('android', odd)).toBe('ChatEvent.Error(code = "network_error", message = "m")');
    expect(nativeForm('ios', odd)).toBe('.error(code: "network_error", message: "m")');
  });
});

describe('nativeForm for Flutter (Dart, chat_bridge_receiver.dart)', () => {
  it('calls each callback with the receiver’s event class', () => {
    expect(nativeForm('flutter', validation)).toBe(
      "onError(ChatError(code: 'validation_error', message: 'Email \"x\" costs \\$5\\n\\u{1}', status: 422, errors: {'email': ['is invalid']}))",
    );
    expect(nativeForm('flutter', failed)).toBe(
      "onResponse(ChatResponse(id: 'c1.3', ok: false, error: ChatError(code: 'not_found', message: '[GET /x] 404', status: 404)))",
    );
    expect(nativeForm('flutter', widget)).toBe(
      "onWidgetEvent(ChatWidgetEvent(event: 'loaded', data: {'locale': 'en'}))",
    );
    expect(nativeForm('flutter', { type: 'ready' })).toBe('onReady()');
    expect(nativeForm('flutter', unknown)).toBe(
      "onError(ChatError(code: 'parse_error', message: '[chat-bridge] unknown message type \"telemetry\"'))",
    );
  });
});

/*
 * The demo's platform column writes a message-state event as each native receiver decodes it
 * (host-adapters/android, ios, flutter): Kotlin `ChatEvent.Message`, Swift `.message(ChatMessageStatus(...))`,
 * Dart `onMessageState(ChatMessageStatus(...))`, with the receivers' rules for malformed fields.
 */
const queued = {
  type: 'message',
  messageId: 'm-1',
  state: 'queued',
  attempt: 2,
  nextAttemptAt: 1763921234567,
  error: { type: 'error', code: 'network_error', retryable: true, message: '[POST /messages] network error' },
};
const sending = {
  type: 'message',
  messageId: 'm-2',
  state: 'sending',
  attempt: 1,
  progress: { sentBytes: 10, totalBytes: 20 },
};
const sent = { type: 'message', messageId: 'm-3', state: 'sent', attempt: 1, result: { id: 7 } };
const withoutAttempt = { type: 'message', messageId: 'm-4', state: 'sent' };

describe('nativeForm for the message-state event', () => {
  it('writes Kotlin ChatEvent.Message with MessageState, Long times and byte counts', () => {
    expect(nativeForm('android', queued)).toBe(
      'ChatEvent.Message(messageId = "m-1", state = MessageState.QUEUED, attempt = 2, nextAttemptAt = 1763921234567L, error = ChatEvent.Error(code = "network_error", message = "[POST /messages] network error", retryable = true))',
    );
    expect(nativeForm('android', sending)).toBe(
      'ChatEvent.Message(messageId = "m-2", state = MessageState.SENDING, attempt = 1, progress = ChatEvent.Message.Progress(sentBytes = 10L, totalBytes = 20L))',
    );
    expect(nativeForm('android', sent)).toBe(
      'ChatEvent.Message(messageId = "m-3", state = MessageState.SENT, attempt = 1, result = mapOf("id" to 7))',
    );
  });

  it("writes Swift's memberwise ChatMessageStatus with every field, nil where absent", () => {
    expect(nativeForm('ios', queued)).toBe(
      '.message(ChatMessageStatus(messageId: "m-1", state: .queued, attempt: 2, nextAttemptAt: Date(timeIntervalSince1970: 1763921234.567), result: nil, error: ChatBridgeError(code: "network_error", message: "[POST /messages] network error", retryable: true), progress: nil))',
    );
    expect(nativeForm('ios', sending)).toContain('progress: ChatMessageStatus.Progress(sentBytes: 10, totalBytes: 20)');
  });

  it("writes Dart's onMessageState with a UTC DateTime and ChatUploadProgress", () => {
    expect(nativeForm('flutter', queued)).toBe(
      "onMessageState(ChatMessageStatus(messageId: 'm-1', state: MessageState.queued, attempt: 2, nextAttemptAt: DateTime.fromMillisecondsSinceEpoch(1763921234567, isUtc: true), error: ChatError(code: 'network_error', message: '[POST /messages] network error', retryable: true)))",
    );
    expect(nativeForm('flutter', sending)).toContain('progress: ChatUploadProgress(sentBytes: 10, totalBytes: 20)');
  });

  it('writes what the receivers make of a message event without attempt: their parse_error', () => {
    const text = 'a message event needs a string \\"messageId\\"';
    expect(nativeForm('android', withoutAttempt)).toContain(
      `ChatEvent.Error(code = "parse_error", message = "[chat-bridge] ${text}`,
    );
    expect(nativeForm('ios', withoutAttempt)).toContain(`.error(code: "parse_error", message: "[chat-bridge] ${text}`);
    expect(nativeForm('flutter', withoutAttempt)).toContain("onError(ChatError(code: 'parse_error'");
  });

  it('leaves out malformed optional fields and rounds nextAttemptAt down, as the receivers do', () => {
    const messy = {
      ...queued,
      nextAttemptAt: 1763921234567.9,
      error: { code: 5 },
      progress: { sentBytes: -1, totalBytes: 2 },
    };
    expect(nativeForm('android', messy)).toBe(
      'ChatEvent.Message(messageId = "m-1", state = MessageState.QUEUED, attempt = 2, nextAttemptAt = 1763921234567L)',
    );
  });
});
