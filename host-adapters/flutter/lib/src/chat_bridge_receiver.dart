// The webview glue: the bridge in the page calls `window.ChatBridgeFlutter.postMessage(json)`
// with one JSON text per call (one message, or an array of those one frame delivered);
// webview_flutter hands it over as `JavaScriptMessage.message` (flutter_inappwebview as a
// handler's argument), and [ChatBridgeReceiver.handle] turns it into [ChatEvent]s and calls the
// matching callback for each. Parsed here, not compiled (see chat_event.dart).

import 'chat_event.dart';

/// Decodes each payload from the `ChatBridgeFlutter` JavaScript channel and calls the callback
/// for its kind. [onError] receives every failure, and payloads that cannot be decoded.
class ChatBridgeReceiver {
  ChatBridgeReceiver({
    required this.onError,
    this.onReady,
    this.onResponse,
    this.onWidgetEvent,
    this.onMessageState,
    this.onConversationToken,
  });

  /// The bridge's default `flutterChannel` option: the name to pass to addJavaScriptChannel.
  static const channelName = 'ChatBridgeFlutter';

  final void Function(ChatError error) onError;
  final void Function()? onReady;
  final void Function(ChatResponse response)? onResponse;
  final void Function(ChatWidgetEvent event)? onWidgetEvent;

  /// Every change of an outgoing message's state: queued, sending, sent, failed.
  final void Function(ChatMessageStatus status)? onMessageState;

  /// The widget's conversation token (only with the bridge's `forwardConversationToken: true`).
  final void Function(String token)? onConversationToken;

  /// Decodes [payload] (one message, or the list of those one frame of the page delivered), calls
  /// the matching callback for each event in order and returns the events.
  List<ChatEvent> handle(Object? payload) {
    final events = ChatEvent.decodeAll(payload);
    events.forEach(_call);
    return events;
  }

  void _call(ChatEvent event) {
    switch (event) {
      case ChatReady():
        onReady?.call();
      case ChatError error:
        onError(error);
      case ChatResponse response:
        onResponse?.call(response);
      case ChatWidgetEvent widget:
        onWidgetEvent?.call(widget);
      case ChatMessageStatus status:
        onMessageState?.call(status);
      case ChatConversationToken conversation:
        onConversationToken?.call(conversation.token);
    }
  }
}
