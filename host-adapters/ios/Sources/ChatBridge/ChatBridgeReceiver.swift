//
// The WebKit glue: the bridge in the page calls
// `window.webkit.messageHandlers.chatBridge.postMessage(object)`, and WebKit hands the object to
// this handler as `WKScriptMessage.body`: a dictionary of Foundation values, or an array of them
// when one frame of the page delivered several messages (one crossing instead of several).
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
