// Sends a large file to the bridge in chunks (`appendAttachment`, then `sendMessage` naming the
// upload), so no single command freezes the page. Pure Dart. Parsed here, not compiled.

import 'dart:async';
import 'dart:convert';
import 'dart:math';
import 'dart:typed_data';

import 'chat_bridge_scripts.dart';
import 'chat_event.dart';

/// Sends files to the bridge in chunks. Hand it every response:
/// `ChatBridgeReceiver(onError: ..., onResponse: files.onResponse)`. [evaluate] is
/// `controller.runJavaScript`.
class ChunkedFileSender {
  ChunkedFileSender(this.evaluate);

  /// 393,216 bytes encode to 524,288 characters of base64: the largest chunk the bridge takes.
  static const chunkBytes = 393216;

  final Future<void> Function(String script) evaluate;
  final _waiting = <String, Completer<ChatResponse>>{};
  final _session = DateTime.now().microsecondsSinceEpoch;
  var _counter = 0;

  /// Hands a response to the call waiting for it; responses to other commands are ignored.
  void onResponse(ChatResponse response) => _waiting.remove(response.id)?.complete(response);

  Future<ChatResponse> _call(String method, Map<String, Object?> params) async {
    final id = 'f${++_counter}.$_session';
    final answered = Completer<ChatResponse>();
    _waiting[id] = answered;
    await evaluate(ChatBridgeScripts.command(id, method, params));
    return answered.future;
  }

  /// Sends [bytes] in chunks, then the message: null once it is sent, or the first refusal.
  Future<ChatError?> send(Uint8List bytes, {required String name, required String type, String content = ''}) async {
    final uploadId = 'up-${DateTime.now().microsecondsSinceEpoch}';
    for (var index = 0; index * chunkBytes < bytes.length; index++) {
      final piece = bytes.sublist(index * chunkBytes, min((index + 1) * chunkBytes, bytes.length));
      final answer = await _call('appendAttachment', {'uploadId': uploadId, 'index': index, 'data': base64Encode(piece)});
      if (!answer.ok) return answer.error;
    }
    final answer = await _call('sendMessage', {
      'content': content,
      'attachments': [
        {'name': name, 'type': type, 'uploadId': uploadId},
      ],
    });
    return answer.ok ? null : answer.error;
  }
}
