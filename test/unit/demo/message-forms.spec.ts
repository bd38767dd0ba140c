/**
 * The demo's platform column writes a message-state event as each native receiver decodes it
 * (host-adapters/android, ios, flutter): Kotlin `ChatEvent.Message`, Swift `.message(ChatMessageStatus(...))`,
 * Dart `onMessageState(ChatMessageStatus(...))`, with the receivers' rules for malformed fields.
 */
import { describe, expect, it } from 'vitest';
import { nativeForm } from '../../../demo-page/platform-forms.js';

const queued = {
  type: 'message',
  messageId: 'm-1',
  state: 'queued',
  attempt: 2,
  nextAttemptAt: 1763921234567,
  error: { type: 'error', code: 'network_error', message: '[POST /messages] network error' },
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
      'ChatEvent.Message(messageId = "m-1", state = MessageState.QUEUED, attempt = 2, nextAttemptAt = 1763921234567L, error = ChatEvent.Error(code = "network_error", message = "[POST /messages] network error"))',
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
      '.message(ChatMessageStatus(messageId: "m-1", state: .queued, attempt: 2, nextAttemptAt: Date(timeIntervalSince1970: 1763921234.567), result: nil, error: ChatBridgeError(code: "network_error", message: "[POST /messages] network error"), progress: nil))',
    );
    expect(nativeForm('ios', sending)).toContain('progress: ChatMessageStatus.Progress(sentBytes: 10, totalBytes: 20)');
  });

  it("writes Dart's onMessageState with a UTC DateTime and ChatUploadProgress", () => {
    expect(nativeForm('flutter', queued)).toBe(
      "onMessageState(ChatMessageStatus(messageId: 'm-1', state: MessageState.queued, attempt: 2, nextAttemptAt: DateTime.fromMillisecondsSinceEpoch(1763921234567, isUtc: true), error: ChatError(code: 'network_error', message: '[POST /messages] network error')))",
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
