//
// The WebKit glue: the bridge in the page calls
// `window.webkit.messageHandlers.chatBridge.postMessage(string)` with JSON text, and WebKit hands
// it to this handler as `WKScriptMessage.body`, a String: one message, or an array of them when
// one frame of the page delivered several (one crossing instead of several). Text, not an object:
// WebKit's conversion of an object to Foundation values costs the page's main thread about twice
// what the text does.
//
// WKUserContentController keeps the receiver strongly: call
// `removeScriptMessageHandler(forName: ChatBridgeReceiver.handlerName)` when the web view goes away.
//

#if canImport(WebKit)
import Foundation
import WebKit

/// The `WKScriptMessageHandler` to register under `ChatBridgeReceiver.handlerName`.
/// WebKit calls it on the main thread.
@MainActor
public final class ChatBridgeReceiver: NSObject, WKScriptMessageHandler {
    /// The bridge's default `iosHandler` option.
    public static let handlerName = "chatBridge"

    private let onError: ((ChatBridgeError) -> Void)?
    private let onEvent: (ChatEvent) -> Void

    /// `onEvent` gets every event; `.error` carries its code and message. `onError`, when given,
    /// gets the whole error of each `.error` (status, field problems, `retryable`, `retryAt`), just
    /// before `onEvent` gets the event: two views of one event, not two events.
    public init(onError: ((ChatBridgeError) -> Void)? = nil, onEvent: @escaping (ChatEvent) -> Void) {
        self.onError = onError
        self.onEvent = onEvent
        super.init()
    }

    public func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        for decoded in ChatEvent.decodeAllDetailed(message.body) {
            if let error = decoded.error { onError?(error) }
            onEvent(decoded.event)
        }
    }
}
#endif
