// The bridge's failures (part of chat_event.dart, whose decoder and helpers it shares). Parsed here,
// not compiled (see chat_event.dart).

part of 'chat_event.dart';

/// A failure, with one of the bridge's codes: `auth_failed`, `network_error`, `parse_error`,
/// `validation_error`, `file_too_large`, `rate_limited`, `server_error`, `webview_restarted`, ...
final class ChatError extends ChatEvent {
  const ChatError({
    required this.code,
    required this.message,
    this.status,
    this.errors,
    this.retryable = false,
    this.retryAt,
  });

  final String code;
  final String message;

  /// The HTTP status, when the failure has one.
  final int? status;

  /// Field problems of a 422, e.g. `{"email": ["is not a valid e-mail address"]}`.
  final Map<String, List<String>>? errors;

  /// The same action (the same command, the same message under its `messageId`) can succeed later
  /// with nothing changed: a retry button, or wait. False: something must change first. A bridge
  /// older than the field sends none: false.
  final bool retryable;

  /// When a retry is due, where the bridge knows (a `Retry-After`, the outbox's next attempt).
  final DateTime? retryAt;

  /// Code and message are required; a malformed status, field list or retryAt is left out, not
  /// fatal. [retryable] is true only when the payload says `true` (anything else, or nothing: false).
  static ChatError? _decode(Map<String, Object?> object) {
    final code = object['code'];
    final message = object['message'];
    if (code is! String || message is! String) return null;
    final status = object['status'];
    // jsonDecode gives 422.0 for "422.0"; JavaScript has one number type, so that is 422 too.
    final statusCode =
        status is double && status.abs() <= 9007199254740991 && status == status.truncateToDouble() ? status.toInt() : status;
    final fields = <String, List<String>>{};
    final errors = _stringKeyed(object['errors']);
    if (errors != null) {
      for (final entry in errors.entries) {
        final problems = entry.value;
        if (problems is List && problems.every((problem) => problem is String)) {
          fields[entry.key] = List<String>.from(problems);
        }
      }
    }
    return ChatError(
      code: code,
      message: message,
      status: statusCode is int ? statusCode : null,
      errors: fields.isEmpty ? null : fields,
      retryable: object['retryable'] == true,
      retryAt: _time(object['retryAt']),
    );
  }

  @override
  Map<String, Object?> toJson() => {
        'kind': 'error',
        'code': code,
        'message': message,
        'retryable': retryable,
        if (status != null) 'status': status,
        if (errors != null) 'errors': errors,
        if (retryAt != null) 'retryAt': retryAt!.millisecondsSinceEpoch,
      };

  @override
  String toString() => 'ChatError($code, $message)';
}
