//
// The content-process helper (ChatBridgeProcessTermination.swift) with a real WKWebView: a
// terminated process reloads every time and is told once until the page loads again. Parsed by
// `npm run test:native`; run with `swift test` on a Mac.
//

#if canImport(WebKit)
import Foundation
import WebKit
import XCTest
@testable import ChatBridge

final class ProcessTerminationTests: XCTestCase {
    /// A terminated content process: reloaded every time, told once until the page loads again.
    @MainActor
    func testAProcessTerminationReloadsAndTellsOnce() {
        var reloads = 0
        var events: [String] = []
        var errors: [ChatBridgeError] = []
        let termination = ChatBridgeProcessTermination(
            reload: { _ in reloads += 1 },
            onError: { errors.append($0) },
            onEvent: { event in if case .error(let code, _) = event { events.append(code) } }
        )
        let delegate = ChatBridgeNavigationDelegate(processTermination: termination)
        let webView = WKWebView()
        delegate.webViewWebContentProcessDidTerminate(webView)
        delegate.webViewWebContentProcessDidTerminate(webView)
        XCTAssertEqual(reloads, 2)
        XCTAssertEqual(events, ["webview_restarted"])
        XCTAssertEqual(errors, [ChatBridgeProcessTermination.restarted()])
        XCTAssertTrue(errors[0].retryable)
        termination.pageFinished()
        delegate.webViewWebContentProcessDidTerminate(webView)
        XCTAssertEqual(events, ["webview_restarted", "webview_restarted"])
    }
}
#endif
