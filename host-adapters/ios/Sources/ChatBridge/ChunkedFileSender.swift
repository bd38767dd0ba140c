//
// Sends a large file to the bridge in chunks (`appendAttachment`, then `sendMessage` naming the
// upload), so no single command freezes the page. Parsed here, not compiled (see ChatEvent.swift).
//

import Foundation

/// Sends files to the bridge in chunks, on the main thread. Hand it every response, in your
/// message handler: `if case let .response(id, result) = event { files.onResponse(id, result) }`.
/// `evaluate` is `{ script in webView.evaluateJavaScript(script) }`.
public final class ChunkedFileSender {
    /// 393,216 bytes encode to 524,288 characters of base64: the largest chunk the bridge takes.
    public static let chunkBytes = 393_216

    private let evaluate: (String) -> Void
    private var waiting: [String: (Result<Any?, ChatBridgeError>) -> Void] = [:]
    private let session = UUID().uuidString.prefix(8)
    private var counter = 0

    public init(evaluate: @escaping (String) -> Void) {
        self.evaluate = evaluate
    }

    /// Hands a response to the call waiting for it; responses to other commands are ignored.
    public func onResponse(_ id: String, _ result: Result<Any?, ChatBridgeError>) {
        waiting.removeValue(forKey: id)?(result)
    }

    private func call(_ method: String, _ params: [String: Any], answered: @escaping (Result<Any?, ChatBridgeError>) -> Void) {
        counter += 1
        let id = "f\(counter).\(session)"
        guard let script = try? ChatBridgeScripts.command(id: id, method: method, params: params) else { return }
        waiting[id] = answered
        evaluate(script)
    }

    /// Sends `data` in chunks, then the message; `done` gets nil once it is sent, or the first refusal.
    public func send(_ data: Data, name: String, type: String, content: String, done: @escaping (ChatBridgeError?) -> Void) {
        let uploadId = "up-\(UUID().uuidString)"
        let chunk = ChunkedFileSender.chunkBytes
        func next(_ index: Int) {
            let from = data.startIndex + index * chunk
            guard from < data.endIndex else {
                let attachment: [String: Any] = ["name": name, "type": type, "uploadId": uploadId]
                return call("sendMessage", ["content": content, "attachments": [attachment]]) { result in
                    if case let .failure(error) = result { done(error) } else { done(nil) }
                }
            }
            let piece = data[from..<min(from + chunk, data.endIndex)].base64EncodedString()
            call("appendAttachment", ["uploadId": uploadId, "index": index, "data": piece]) { result in
                if case let .failure(error) = result { done(error) } else { next(index + 1) }
            }
        }
        next(0)
    }
}
