// The chat bridge's events and their decoder (Dart 3: sealed classes, patterns). Pure Dart, no
// Flutter: test/vectors_test.dart runs the shared vectors through it. There is no Dart toolchain
// where this project's CI runs: `npm run test:native` parses it with tree-sitter, it does not
// compile it.

import 'dart:convert';

part 'chat_error.dart';

/// One message from the chat bridge. [ChatEvent.decode] never throws: a payload it cannot read
/// becomes a [ChatError] with code `parse_error`, so a bad message never crashes the app.
sealed class ChatEvent {
  const ChatEvent();

  /// Decodes one call of the channel: one message, or a list of the messages the page delivered
  /// within a frame (in order), as JSON text or already decoded. Each becomes one event.
  static List<ChatEvent> decodeAll(Object? payload) {
    Object? value = payload;
    if (payload is String) {
      try {
        value = jsonDecode(payload);
      } on FormatException {
        return [decode(payload)];
      }
    }
    return value is List ? [for (final item in value) decode(item)] : [decode(payload)];
  }

  /// Decodes one message: JSON text as the bridge posts it, or a map already decoded
  /// (flutter_inappwebview's handlers, for instance).
  static ChatEvent decode(Object? payload) {
    Object? value = payload;
    if (payload is String) {
      try {
        value = jsonDecode(payload);
      } on FormatException {
        return _parseError('the payload is not a JSON object');
      }
    }
    final object = _stringKeyed(value);
    if (object == null) return _parseError('the payload is not a JSON object');
    final type = object['type'];
    if (type is! String) return _parseError('the payload has no string "type"');
    return switch (type) {
      'ready' => const ChatReady(),
      'error' => ChatError._decode(object) ?? _parseError('an error event needs a string "code" and "message"'),
      'response' => ChatResponse._decode(object) ??
          _parseError('a response needs a string "id", a boolean "ok" and, when ok is false, an "error" event'),
      'widget' => ChatWidgetEvent._decode(object) ?? _parseError('a widget event needs a string "event"'),
      'conversationToken' => object['token'] is String
          ? ChatConversationToken(object['token'] as String)
          : _parseError('a conversationToken event needs a string "token"'),
      'message' => ChatMessageStatus._decode(object) ??
          _parseError(
              'a message event needs a string "messageId", a "state" (queued, sending, sent or failed) and a whole "attempt" of 0 or more'),
      _ => _parseError('unknown message type "$type"'),
    };
  }

  /// The platform-neutral form the shared test vectors use for "event".
  Map<String, Object?> toJson();

  static ChatError _parseError(String detail) => ChatError(code: 'parse_error', message: '[chat-bridge] $detail');
}

/// The bridge is installed and listening.
final class ChatReady extends ChatEvent {
  const ChatReady();

  @override
  Map<String, Object?> toJson() => {'kind': 'ready'};
}

/// The answer to the host command [id]: [result] when [ok] (JSON values as `jsonDecode` gives
/// them), [error] otherwise. A failed command also arrives through `onError`.
final class ChatResponse extends ChatEvent {
  const ChatResponse({required this.id, required this.ok, this.result, this.error});

  final String id;
  final bool ok;
  final Object? result;
  final ChatError? error;

  static ChatResponse? _decode(Map<String, Object?> object) {
    final id = object['id'];
    final ok = object['ok'];
    if (id is! String || ok is! bool) return null;
    if (ok) return ChatResponse(id: id, ok: true, result: object['result']);
    final fields = _stringKeyed(object['error']);
    final error = fields == null ? null : ChatError._decode(fields);
    return error == null ? null : ChatResponse(id: id, ok: false, error: error);
  }

  @override
  Map<String, Object?> toJson() =>
      ok ? {'kind': 'response', 'id': id, 'ok': true, 'result': result} : {'kind': 'response', 'id': id, 'ok': false, 'error': error?.toJson()};
}

/// A chat widget event (`loaded`, `unread`, ...) with the widget's other fields.
final class ChatWidgetEvent extends ChatEvent {
  const ChatWidgetEvent({required this.event, required this.data});

  final String event;
  final Map<String, Object?> data;

  static ChatWidgetEvent? _decode(Map<String, Object?> object) {
    final event = object['event'];
    if (event is! String) return null;
    return ChatWidgetEvent(event: event, data: _stringKeyed(object['data']) ?? const {});
  }

  @override
  Map<String, Object?> toJson() => {'kind': 'widget', 'event': event, 'data': data};
}

/// The widget's conversation token, to resume the conversation later (as `cw_conversation` in the
/// widget URL). Only sent when the bridge runs with `forwardConversationToken: true`; it is a
/// credential: keep it in secure storage, and never log it.
final class ChatConversationToken extends ChatEvent {
  const ChatConversationToken(this.token);

  final String token;

  @override
  Map<String, Object?> toJson() => {'kind': 'conversationToken', 'token': token};

  @override
  String toString() => 'ChatConversationToken(<redacted>)';
}

/// How a chat UI shows a [ChatMessageStatus].
enum MessageState {
  /// Waiting for its first attempt, or for the next one at `nextAttemptAt` (a clock).
  queued,

  /// An attempt is under way (a spinner, or an upload bar with `progress`).
  sending,

  /// The backend has it; `result` is the backend's message (a tick).
  sent,

  /// Final: no more automatic attempts; `error` says why (a retry button).
  failed,
}

/// Upload progress of a message with attachments, while it is sending.
final class ChatUploadProgress {
  const ChatUploadProgress({required this.sentBytes, required this.totalBytes});

  final int sentBytes;
  final int totalBytes;
}

/// Where the outgoing message [messageId] stands, sent on every change, for messages of this
/// page and of earlier pages alike. [attempt] counts the attempts made so far (0 before the
/// first); [nextAttemptAt] is when the next automatic one is due; [result] is the backend's
/// message once [MessageState.sent]; [error] says why it [MessageState.failed] (or why the last
/// attempt did not get through).
final class ChatMessageStatus extends ChatEvent {
  const ChatMessageStatus({
    required this.messageId,
    required this.state,
    required this.attempt,
    this.nextAttemptAt,
    this.result,
    this.error,
    this.progress,
  });

  final String messageId;
  final MessageState state;
  final int attempt;
  final DateTime? nextAttemptAt;
  final Object? result;
  final ChatError? error;
  final ChatUploadProgress? progress;

  static const _maxSafeInteger = 9007199254740991;

  /// messageId, state and attempt are required; a malformed optional field is left out, not
  /// fatal. nextAttemptAt is rounded down to a whole millisecond; a null result is no result.
  static ChatMessageStatus? _decode(Map<String, Object?> object) {
    final messageId = object['messageId'];
    final stateName = object['state'];
    final state = stateName is String ? MessageState.values.asNameMap()[stateName] : null;
    final attempt = _wholeNumber(object['attempt'], 2147483647);
    if (messageId is! String || state == null || attempt == null) return null;
    final errorFields = _stringKeyed(object['error']);
    final progressFields = _stringKeyed(object['progress']);
    final sentBytes = progressFields == null ? null : _wholeNumber(progressFields['sentBytes'], _maxSafeInteger);
    final totalBytes = progressFields == null ? null : _wholeNumber(progressFields['totalBytes'], _maxSafeInteger);
    return ChatMessageStatus(
      messageId: messageId,
      state: state,
      attempt: attempt,
      nextAttemptAt: _time(object['nextAttemptAt']),
      result: object['result'],
      error: errorFields == null ? null : ChatError._decode(errorFields),
      progress: sentBytes == null || totalBytes == null
          ? null
          : ChatUploadProgress(sentBytes: sentBytes, totalBytes: totalBytes),
    );
  }

  /// A whole number from 0 to [max]; jsonDecode gives a double for "1.0" or "1e3".
  static int? _wholeNumber(Object? value, int max) {
    if (value is int) return value >= 0 && value <= max ? value : null;
    if (value is double && value.isFinite && value == value.truncateToDouble() && value >= 0 && value <= max) {
      return value.toInt();
    }
    return null;
  }

  @override
  Map<String, Object?> toJson() => {
        'kind': 'message',
        'messageId': messageId,
        'state': state.name,
        'attempt': attempt,
        if (nextAttemptAt != null) 'nextAttemptAt': nextAttemptAt!.millisecondsSinceEpoch,
        if (result != null) 'result': result,
        if (error != null) 'error': error!.toJson(),
        if (progress != null) 'progress': {'sentBytes': progress!.sentBytes, 'totalBytes': progress!.totalBytes},
      };

  @override
  String toString() => 'ChatMessageStatus($messageId, ${state.name}, attempt $attempt)';
}

/// The latest time a JavaScript Date (and a DateTime) holds, in ms since the epoch.
const _maxTime = 8640000000000000;

/// A time in ms since the epoch that a JavaScript Date holds, rounded down to a whole ms; else null.
DateTime? _time(Object? value) => value is num && value >= 0 && value <= _maxTime
    ? DateTime.fromMillisecondsSinceEpoch(value.floor(), isUtc: true)
    : null;

/// A JSON object as a `Map<String, Object?>`, or null when [value] is not one.
Map<String, Object?>? _stringKeyed(Object? value) {
  if (value is Map<String, Object?>) return value;
  if (value is Map && value.keys.every((key) => key is String)) return Map<String, Object?>.from(value);
  return null;
}
