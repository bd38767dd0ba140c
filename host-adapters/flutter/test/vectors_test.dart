// Runs the shared test vectors (the repository's test/vectors/) through the decoder: each
// "payload" is decoded (decodeAll) and the events' toJson() compared with "events" (or its one "event"). Needs a checkout of the
// repository, which is why the tests are not in the npm package. Parsed by `npm run test:native`;
// run with `flutter test` (there is no Dart toolchain where this project's CI runs).

import 'dart:convert';
import 'dart:io';

import 'package:chat_bridge/chat_bridge.dart';
import 'package:flutter_test/flutter_test.dart';

/// `flutter test` runs in the package's folder, host-adapters/flutter.
List<Map<String, Object?>> vectors(String host) {
  final file = jsonDecode(File('../../test/vectors/$host.json').readAsStringSync()) as Map<String, Object?>;
  return (file['vectors']! as List).cast<Map<String, Object?>>();
}

void main() {
  for (final host in ['flutter', 'android', 'react-native', 'ios', 'browser']) {
    test('decodes every $host vector to its event', () {
      final all = vectors(host);
      expect(all, isNotEmpty);
      for (final vector in all) {
        // A payload of several messages (one frame's) has "events"; one of one message, "event".
        final expected = vector['events'] ?? [vector['event']];
        final actual = [for (final event in ChatEvent.decodeAll(vector['payload'])) event.toJson()];
        expect(actual, equals(expected), reason: '${vector['name']}');
      }
    });
  }

  test('the receiver calls the callback of each kind, and onError for what it cannot decode', () {
    final seen = <String>[];
    final receiver = ChatBridgeReceiver(
      onError: (error) => seen.add('error ${error.code}'),
      onReady: () => seen.add('ready'),
      onMessageState: (status) => seen.add('message ${status.state.name}'),
    );
    receiver.handle('{"type":"ready"}');
    receiver.handle('{"type":"message","messageId":"m-1","state":"sent","attempt":1}');
    receiver.handle('not json');
    receiver.handle('[{"type":"message","messageId":"m-1","state":"queued","attempt":0},{"type":"ready"}]');
    expect(seen, ['ready', 'message sent', 'error parse_error', 'message queued', 'ready']);
  });

  test('an error decodes to code and message, with retryable and retryAt; a bridge without retryable: false', () {
    final error = ChatEvent.decode('{"type":"error","code":"rate_limited","message":"m","retryable":true,"retryAt":1763921234567.9}');
    expect(error, isA<ChatError>());
    final decoded = error as ChatError;
    expect([decoded.code, decoded.message, decoded.retryable], ['rate_limited', 'm', true]);
    expect(decoded.retryAt, DateTime.fromMillisecondsSinceEpoch(1763921234567, isUtc: true));
    final old = ChatEvent.decode('{"type":"error","code":"server_error","message":"m"}') as ChatError;
    expect([old.retryable, old.retryAt], [false, null]);
  });

  test('a web process that ended restarts every time and is told once until the page loads', () {
    var restarts = 0;
    final told = <ChatError>[];
    final processGone = ChatBridgeProcessGone(restart: () => restarts++, onError: told.add);
    expect(processGone.webResourceError(_ErrorType.connect), isFalse);
    expect(processGone.webResourceError(_ErrorType.webContentProcessTerminated), isTrue);
    processGone.processEnded('render');
    expect(restarts, 2);
    expect(told.map((error) => [error.code, error.retryable]).toList(), [
      ['webview_restarted', true],
    ]);
    processGone.pageFinished();
    processGone.processEnded('render');
    expect(told, hasLength(2));
  });

  test('a command script escapes U+2028 and hands the bridge the command', () {
    final script = ChatBridgeScripts.command('1', 'sendMessage', {'content': 'a\u2028b'});
    expect(script, startsWith('ChatBridge.receive({'));
    expect(script.contains('\u2028'), isFalse);
    final json = script.substring('ChatBridge.receive('.length, script.length - 1);
    expect(jsonDecode(json), {
      'id': '1',
      'method': 'sendMessage',
      'params': {'content': 'a\u2028b'},
    });
  });
}

/// Stands for webview_flutter's WebResourceErrorType, which this package does not depend on.
enum _ErrorType { connect, webContentProcessTerminated }
