//
// A failure reported by the chat bridge, and the JSON readers the decoder shares: Foundation
// only, like ChatEvent.swift (parsed by `npm run test:native`, run by Tests/ChatBridgeTests).
//

import Foundation

/// A failure reported by the chat bridge: the `onError` of `ChatBridgeReceiver` for each `.error`
/// event, the failure of a `.response`, and the `error` of a `ChatMessageStatus`.
public struct ChatBridgeError: Error, Equatable {
    /// One of the bridge's codes: "auth_failed", "network_error", "parse_error", "validation_error",
    /// "webview_restarted", ...
    public let code: String
    public let message: String
    /// The HTTP status, when the failure has one.
    public let status: Int?
    /// Field problems of a 422, e.g. ["email": ["is not a valid e-mail address"]].
    public let errors: [String: [String]]?
    /// The same action (the same command, the same message under its `messageId`) can succeed
    /// later with nothing changed: a retry button, or wait. False: something must change first.
    /// A bridge older than the field sends none: false.
    public let retryable: Bool
    /// When a retry is due, where the bridge knows (a `Retry-After`, the outbox's next attempt).
    public let retryAt: Date?

    public init(
        code: String, message: String, status: Int? = nil, errors: [String: [String]]? = nil,
        retryable: Bool = false, retryAt: Date? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.errors = errors
        self.retryable = retryable
        self.retryAt = retryAt
    }
}

extension ChatBridgeError {
    /// Code and message are required; a malformed status, field list or retryAt is left out, not
    /// fatal. `retryable` is true only when the payload says true (anything else, or nothing: false).
    init?(_ object: [String: Any]) {
        guard let code = object["code"] as? String, let message = object["message"] as? String else { return nil }
        var fields: [String: [String]] = [:]
        for (field, problems) in object["errors"] as? [String: Any] ?? [:] {
            if let texts = problems as? [String] { fields[field] = texts }
        }
        let status = jsonNumber(object["status"]) == nil ? nil : object["status"] as? Int
        self.init(
            code: code, message: message, status: status, errors: fields.isEmpty ? nil : fields,
            retryable: jsonBool(object["retryable"]) == true, retryAt: jsonTime(object["retryAt"])
        )
    }

    /// The platform-neutral form the shared test vectors use for an error "event".
    public var jsonObject: [String: Any] {
        var form: [String: Any] = ["kind": "error", "code": code, "message": message, "retryable": retryable]
        if let status = status { form["status"] = status }
        if let errors = errors { form["errors"] = errors }
        if let time = retryAt { form["retryAt"] = jsonMilliseconds(time) }
        return form
    }
}

/// A JSON number. WebKit and JSONSerialization hand booleans over as NSNumber too, and
/// `true as? Int` succeeds, so booleans are told apart by their CoreFoundation type.
func jsonNumber(_ value: Any?) -> Double? {
    guard let number = value as? NSNumber, CFGetTypeID(number) != CFBooleanGetTypeID() else { return nil }
    return number.doubleValue
}

/// A JSON boolean: `1 as? Bool` succeeds as well, so only a CFBoolean counts.
func jsonBool(_ value: Any?) -> Bool? {
    guard let number = value as? NSNumber, CFGetTypeID(number) == CFBooleanGetTypeID() else { return nil }
    return number.boolValue
}

/// The latest time a JavaScript Date holds, in ms since the epoch.
private let maxTime = 8.64e15

/// A time in ms since the epoch that a JavaScript Date holds, rounded down to a whole millisecond.
func jsonTime(_ value: Any?) -> Date? {
    guard let time = jsonNumber(value), time >= 0, time <= maxTime else { return nil }
    return Date(timeIntervalSince1970: time.rounded(.down) / 1000)
}

/// A time as the vectors write it: whole ms since the epoch.
func jsonMilliseconds(_ time: Date) -> Int64 {
    Int64((time.timeIntervalSince1970 * 1000).rounded())
}
