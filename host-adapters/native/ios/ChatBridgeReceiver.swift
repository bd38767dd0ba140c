//
// Chat bridge receiver for iOS: paste this file into your app.
//
// The bridge in the WebView calls `window.webkit.messageHandlers.chatBridge.postMessage(object)`;
// WebKit hands the object over as `WKScriptMessage.body` (a dictionary of Foundation values),
// and this turns it into a `ChatEvent`.
//
//     let receiver = ChatBridgeReceiver { event in
//         switch event {
//         case let .error(code, message, _, _): showError(code, message)
//         case let .response(id, result): ...
//         case let .widget(event, data): ...
//         case .ready: ...
//         }
//     }
//     configuration.userContentController.add(receiver, name: ChatBridgeReceiver.handlerName)
//
// WKUserContentController keeps the receiver strongly: call
// `removeScriptMessageHandler(forName: ChatBridgeReceiver.handlerName)` when the web view goes away.
// Test vectors: test/vectors/ios.json (decode each "payload", compare `jsonObject` with "event").
//

import Foundation
import WebKit

/// A failure reported by the chat bridge, as carried by `.error` and by a failed `.response`.
public struct ChatBridgeError: Error, Equatable {
    /// One of the bridge's codes: "auth_failed", "network_error", "parse_error", "validation_error", ...
    public let code: String
    public let message: String
    /// The HTTP status, when the failure has one.
    public let status: Int?
    /// Field problems of a 422, e.g. ["email": ["is not a valid e-mail address"]].
    public let errors: [String: [String]]?

    public init(code: String, message: String, status: Int? = nil, errors: [String: [String]]? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.errors = errors
    }
}

/// One message from the chat bridge. Decoding never fails: a payload it cannot read becomes
/// `.error` with code "parse_error", so a bad message never crashes the app.
public enum ChatEvent {
    /// The bridge is installed and listening.
    case ready
    /// A failure: its code, message, HTTP status when there is one, and the field problems of a 422.
    case error(code: String, message: String, status: Int? = nil, errors: [String: [String]]? = nil)
    /// The answer to the host command `id`: its result (Foundation JSON values, nil for null) or its
    /// error. A failed command also arrives as `.error`.
    case response(id: String, result: Result<Any?, ChatBridgeError>)
    /// A chat widget event ("loaded", "unread", ...) with the widget's other fields.
    case widget(event: String, data: [String: Any])
}

extension ChatEvent {
    /// Decodes `WKScriptMessage.body`: a dictionary, as the bridge posts it, or JSON text.
    public static func decode(_ body: Any) -> ChatEvent {
        guard let object = dictionary(from: body) else { return parseError("the payload is not a JSON object") }
        guard let type = object["type"] as? String else { return parseError("the payload has no string \"type\"") }
        switch type {
        case "ready":
            return .ready
        case "error":
            guard let error = ChatBridgeError(object) else {
                return parseError("an error event needs a string \"code\" and \"message\"")
            }
            return .error(code: error.code, message: error.message, status: error.status, errors: error.errors)
        case "response":
            return decodeResponse(object)
                ?? parseError("a response needs a string \"id\", a boolean \"ok\" and, when ok is false, an \"error\" event")
        case "widget":
            guard let event = object["event"] as? String else { return parseError("a widget event needs a string \"event\"") }
            return .widget(event: event, data: object["data"] as? [String: Any] ?? [:])
        default:
            return parseError("unknown message type \"\(type)\"")
        }
    }

    /// The platform-neutral form the shared test vectors use for "event".
    public var jsonObject: [String: Any] {
        switch self {
        case .ready:
            return ["kind": "ready"]
        case let .error(code, message, status, errors):
            return ChatBridgeError(code: code, message: message, status: status, errors: errors).jsonObject
        case let .response(id, .success(result)):
            return ["kind": "response", "id": id, "ok": true, "result": result ?? NSNull()]
        case let .response(id, .failure(error)):
            return ["kind": "response", "id": id, "ok": false, "error": error.jsonObject]
        case let .widget(event, data):
            return ["kind": "widget", "event": event, "data": data]
        }
    }

    private static func decodeResponse(_ object: [String: Any]) -> ChatEvent? {
        guard let id = object["id"] as? String, let ok = object["ok"] as? Bool else { return nil }
        if ok {
            let result = object["result"]
            return .response(id: id, result: .success(result is NSNull ? nil : result))
        }
        guard let fields = object["error"] as? [String: Any], let error = ChatBridgeError(fields) else { return nil }
        return .response(id: id, result: .failure(error))
    }

    private static func dictionary(from body: Any) -> [String: Any]? {
        if let object = body as? [String: Any] { return object }
        guard let text = body as? String, let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private static func parseError(_ detail: String) -> ChatEvent {
        .error(code: "parse_error", message: "[chat-bridge] \(detail)")
    }
}

extension ChatBridgeError {
    /// Code and message are required; a malformed status or field list is left out, not fatal.
    init?(_ object: [String: Any]) {
        guard let code = object["code"] as? String, let message = object["message"] as? String else { return nil }
        var fields: [String: [String]] = [:]
        for (field, problems) in object["errors"] as? [String: Any] ?? [:] {
            if let texts = problems as? [String] { fields[field] = texts }
        }
        self.init(code: code, message: message, status: object["status"] as? Int, errors: fields.isEmpty ? nil : fields)
    }

    /// The platform-neutral form the shared test vectors use for an error "event".
    public var jsonObject: [String: Any] {
        var form: [String: Any] = ["kind": "error", "code": code, "message": message]
        if let status = status { form["status"] = status }
        if let errors = errors { form["errors"] = errors }
        return form
    }
}

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
        onEvent(ChatEvent.decode(message.body))
    }
}
