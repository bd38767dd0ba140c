//
// Runs the shared test vectors (the repository's test/vectors/) through the decoder: each
// "payload" is decoded (`decodeAllDetailed`) and the events' `jsonObject` (an `.error`'s from its whole
// `ChatBridgeError`) compared with "events" (or its one "event"). Needs a checkout of the
// repository, which is why the tests are not in the npm package. Parsed by `npm run test:native`;
// run with `swift test` on a Mac (there is no Swift toolchain where this project's CI runs).
//

import Foundation
import XCTest
@testable import ChatBridge

final class VectorTests: XCTestCase {
    private static let vectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../../test/vectors").standardizedFileURL

    /// The vectors of one host file: name, payload and expected event.
    private func vectors(_ host: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.vectors.appendingPathComponent("\(host).json"))
        let file = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(file["vectors"] as? [[String: Any]])
    }

    func testDecodesEveryIosVector() throws {
        try expectDecoded(vectors("ios"))
    }

    /// The other hosts' payloads: JSON text, as iOS's own, and the browser file's objects, arrays,
    /// numbers and null, which the handler gets as Foundation values when a page script posts them
    /// (the bridge posted objects before it posted text).
    func testDecodesThePayloadsOfTheOtherHosts() throws {
        for host in ["android", "flutter", "react-native", "browser"] {
            try expectDecoded(vectors(host))
        }
    }

    func testTheScriptsAreInTheResources() throws {
        XCTAssertTrue(try ChatBridgeScripts.bundle().contains("ChatBridge"))
        XCTAssertTrue(try ChatBridgeScripts.starter().contains("ChatBridge"))
    }

    func testACommandScriptEscapesLineSeparators() throws {
        let script = try ChatBridgeScripts.command(id: "1", method: "sendMessage", params: ["content": "a\u{2028}b"])
        XCTAssertTrue(script.hasPrefix("ChatBridge.receive({"))
        XCTAssertFalse(script.contains("\u{2028}"))
        XCTAssertTrue(script.contains("\\u2028"))
    }

    /// The seed's form: `.error` has two associated values; the rest of the error comes with it.
    func testAnErrorEventIsCodeAndMessageWithItsWholeError() throws {
        let body: [String: Any] = ["type": "error", "code": "rate_limited", "message": "m", "retryable": true, "status": 429, "retryAt": 1_763_921_234_567]
        let decoded = ChatEvent.decodeDetailed(body)
        guard case .error(let code, let message) = decoded.event else { return XCTFail("not an error: \(decoded.event)") }
        XCTAssertEqual([code, message], ["rate_limited", "m"])
        XCTAssertEqual(decoded.error?.status, 429)
        XCTAssertEqual(decoded.error?.retryable, true)
        XCTAssertEqual(decoded.error?.retryAt, Date(timeIntervalSince1970: 1_763_921_234.567))
    }

    private func expectDecoded(_ vectors: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(vectors.isEmpty, file: file, line: line)
        for vector in vectors {
            let events = ChatEvent.decodeAllDetailed(vector["payload"] ?? NSNull())
            // A payload of several messages (one frame's) has "events"; one of one message, "event".
            let expected = try XCTUnwrap(vector["events"] as? NSArray ?? (vector["event"]).map { [$0] as NSArray })
            XCTAssertEqual(events.map { $0.jsonObject } as NSArray, expected, "\(vector["name"] ?? "?")", file: file, line: line)
        }
    }
}
