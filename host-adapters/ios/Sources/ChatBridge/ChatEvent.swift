//
// The chat bridge's events and their decoder: Foundation only (no WebKit), so the tests need no
// web view. Not compiled where this project's CI runs (there is no Swift toolchain there):
// parsed with tree-sitter by `npm run test:native`; Tests/ChatBridgeTests runs the shared vectors
// through it with XCTest (`swift test` in a checkout of the repository).
//

import Foundation

/// One message from the chat bridge. Decoding never fails: a payload it cannot read becomes
/// `.error` with code "parse_error", so a bad message never crashes the app.
public enum ChatEvent {
    /// The bridge is installed and listening.
    case ready
    /// A failure: one of the bridge's codes and its message, `case .error(let code, let message)`.
    /// Two associated values, so that pattern compiles; the error's other fields (HTTP status,
    /// field problems of a 422, `retryable`, `retryAt`) are the `ChatBridgeError` that
    /// `ChatBridgeReceiver`'s `onError` gets for the same event (and `Decoded.error`).
    case error(code: String, message: String)
    /// The answer to the host command `id`: its result (Foundation JSON values, nil for null) or its
    /// error. A failed command also arrives as `.error`.
    case response(id: String, result: Result<Any?, ChatBridgeError>)
    /// A chat widget event ("loaded", "unread", ...) with the widget's other fields.
    case widget(event: String, data: [String: Any])
    /// Where an outgoing message stands, sent on every change, for messages of this page and of
    /// earlier pages alike.
    case message(ChatMessageStatus)
    /// The widget's conversation token, to resume the conversation later (as `cw_conversation` in
    /// the widget URL). Only sent when the bridge runs with `forwardConversationToken: true`; it is
    /// a credential: keep it in the Keychain, and never log it.
    case conversationToken(String)
}

/// The state of one outgoing message, as `.message` carries it.
public struct ChatMessageStatus {
    /// How a chat UI shows it.
    public enum State: String {
        /// Waiting for its first attempt, or for the next one at `nextAttemptAt` (a clock).
        case queued
        /// An attempt is under way (a spinner, or an upload bar with `progress`).
        case sending
        /// The backend has it; `result` is the backend's message (a tick).
        case sent
        /// Final: no more automatic attempts; `error` says why (a retry button).
        case failed
    }

    /// Upload progress of a message with attachments, while it is sending.
    public struct Progress: Equatable {
        public let sentBytes: Int
        public let totalBytes: Int
    }

    public let messageId: String
    public let state: State
    /// Attempts made so far (0 before the first).
    public let attempt: Int
    /// When the next automatic attempt is due, while one is scheduled.
    public let nextAttemptAt: Date?
    /// The backend's message once `.sent` (Foundation JSON values).
    public let result: Any?
    /// Why it failed, or why the last attempt did not get through.
    public let error: ChatBridgeError?
    public let progress: Progress?
}

extension ChatEvent {
    /// One decoded message: its event and, for `.error`, the whole error, which the two associated
    /// values of `.error` leave out.
    public struct Decoded {
        public let event: ChatEvent
        /// The error of an `.error` event (parse errors included); nil for the other events.
        public let error: ChatBridgeError?

        /// The platform-neutral form the shared test vectors use for "event".
        public var jsonObject: [String: Any] { error?.jsonObject ?? event.jsonObject }
    }

    /// Decodes one call of the handler: one message, or an array of the messages one frame of the
    /// page delivered (in order), as JSON text (as the bridge posts it) or as an object. Each
    /// becomes one event.
    public static func decodeAll(_ body: Any) -> [ChatEvent] {
        decodeAllDetailed(body).map { $0.event }
    }

    /// As `decodeAll`, each event with its error when it is an `.error`.
    public static func decodeAllDetailed(_ body: Any) -> [Decoded] {
        if let many = body as? [Any] { return many.map(decodeDetailed) }
        if let text = body as? String, let data = text.data(using: .utf8),
           let many = (try? JSONSerialization.jsonObject(with: data)) as? [Any] {
            return many.map(decodeDetailed)
        }
        return [decodeDetailed(body)]
    }

    /// Decodes one message of `WKScriptMessage.body`: JSON text, as the bridge posts it, or a dictionary.
    public static func decode(_ body: Any) -> ChatEvent {
        decodeDetailed(body).event
    }

    /// As `decode`, with the error of an `.error`.
    public static func decodeDetailed(_ body: Any) -> Decoded {
        guard let object = dictionary(from: body) else { return parseError("the payload is not a JSON object") }
        guard let type = object["type"] as? String else { return parseError("the payload has no string \"type\"") }
        if type == "error" {
            guard let error = ChatBridgeError(object) else {
                return parseError("an error event needs a string \"code\" and \"message\"")
            }
            return Decoded(event: .error(code: error.code, message: error.message), error: error)
        }
        return decodeOther(type, object)
    }

    /// Every type but "error"; an event it cannot read is `.error` with code "parse_error", with
    /// its error like any other.
    private static func decodeOther(_ type: String, _ object: [String: Any]) -> Decoded {
        switch type {
        case "ready":
            return Decoded(event: .ready, error: nil)
        case "response":
            guard let response = decodeResponse(object) else {
                return parseError("a response needs a string \"id\", a boolean \"ok\" and, when ok is false, an \"error\" event")
            }
            return Decoded(event: response, error: nil)
        case "conversationToken":
            guard let token = object["token"] as? String else {
                return parseError("a conversationToken event needs a string \"token\"")
            }
            return Decoded(event: .conversationToken(token), error: nil)
        case "widget":
            guard let event = object["event"] as? String else { return parseError("a widget event needs a string \"event\"") }
            return Decoded(event: .widget(event: event, data: object["data"] as? [String: Any] ?? [:]), error: nil)
        case "message":
            guard let status = ChatMessageStatus(object) else {
                return parseError(
                    "a message event needs a string \"messageId\", a \"state\" (queued, sending, sent or failed) and a whole \"attempt\" of 0 or more"
                )
            }
            return Decoded(event: .message(status), error: nil)
        default:
            return parseError("unknown message type \"\(type)\"")
        }
    }

    /// The platform-neutral form of the shared test vectors, but for `.error`: its code and message
    /// only (the vectors' form of an error is `Decoded.jsonObject`, with the whole error).
    public var jsonObject: [String: Any] {
        switch self {
        case .ready:
            return ["kind": "ready"]
        case let .error(code, message):
            return ["kind": "error", "code": code, "message": message]
        case let .response(id, .success(result)):
            return ["kind": "response", "id": id, "ok": true, "result": result ?? NSNull()]
        case let .response(id, .failure(error)):
            return ["kind": "response", "id": id, "ok": false, "error": error.jsonObject]
        case let .widget(event, data):
            return ["kind": "widget", "event": event, "data": data]
        case let .message(status):
            return status.jsonObject
        case let .conversationToken(token):
            return ["kind": "conversationToken", "token": token]
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

    private static func parseError(_ detail: String) -> Decoded {
        let error = ChatBridgeError(code: "parse_error", message: "[chat-bridge] \(detail)")
        return Decoded(event: .error(code: error.code, message: error.message), error: error)
    }
}

extension ChatMessageStatus {
    /// messageId, state and attempt are required; a malformed optional field is left out, not
    /// fatal. nextAttemptAt is rounded down to a whole millisecond; a null result is no result.
    init?(_ object: [String: Any]) {
        guard let messageId = object["messageId"] as? String,
              let state = (object["state"] as? String).flatMap(State.init(rawValue:)),
              let attempt = ChatMessageStatus.wholeNumber(object["attempt"], max: Double(Int32.max))
        else { return nil }
        self.messageId = messageId
        self.state = state
        self.attempt = attempt
        nextAttemptAt = jsonTime(object["nextAttemptAt"])
        let result = object["result"]
        self.result = result is NSNull ? nil : result
        error = (object["error"] as? [String: Any]).flatMap { ChatBridgeError($0) }
        if let fields = object["progress"] as? [String: Any],
           let sentBytes = ChatMessageStatus.wholeNumber(fields["sentBytes"], max: 9_007_199_254_740_991),
           let totalBytes = ChatMessageStatus.wholeNumber(fields["totalBytes"], max: 9_007_199_254_740_991) {
            progress = Progress(sentBytes: sentBytes, totalBytes: totalBytes)
        } else {
            progress = nil
        }
    }

    /// The platform-neutral form the shared test vectors use for a message "event".
    public var jsonObject: [String: Any] {
        var form: [String: Any] = ["kind": "message", "messageId": messageId, "state": state.rawValue, "attempt": attempt]
        if let time = nextAttemptAt { form["nextAttemptAt"] = jsonMilliseconds(time) }
        if let result = result { form["result"] = result }
        if let error = error { form["error"] = error.jsonObject }
        if let progress = progress { form["progress"] = ["sentBytes": progress.sentBytes, "totalBytes": progress.totalBytes] }
        return form
    }

    /// A whole number from 0 to `max`.
    private static func wholeNumber(_ value: Any?, max: Double) -> Int? {
        guard let number = jsonNumber(value), number >= 0, number <= max, number.rounded(.towardZero) == number else {
            return nil
        }
        return Int(number)
    }
}
