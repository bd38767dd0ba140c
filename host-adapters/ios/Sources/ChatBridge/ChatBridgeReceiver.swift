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

    private let onEvent: (ChatEvent) -> Void

    public init(onEvent: @escaping (ChatEvent) -> Void) {
        self.onEvent = onEvent
        super.init()
    }

    public func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        ChatEvent.decodeAll(message.body).forEach(onEvent)
    }
}
#endif
