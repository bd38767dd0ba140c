//
// A web view whose content process ended (WebKit kills it under memory pressure, or it crashed)
// comes back. WebKit then calls the navigation delegate's `webViewWebContentProcessDidTerminate(_:)`
// and the page is gone: the web view shows nothing and the bridge in it no longer answers. Unlike
// Android, the same WKWebView can load again: `reload()` starts a new content process, and the
// bridge's user scripts run again in the new page. The outbox's records are in the web view's
// website data store, which outlives the process: the new page's bridge sends what the dead one
// left, and `.ready` says it is there.
//
// Parsed by `npm run test:native`, not compiled (no Swift toolchain where this project's CI
// runs); Tests/ChatBridgeTests exercises it with a WKWebView (`swift test` on a Mac).
//

#if canImport(WebKit)
import Foundation
import WebKit

/// Reloads a web view whose content process ended and tells the app once, with one `.error`
/// whose code is "webview_restarted" (retryable), until the page has loaded again. Call it from
/// your own `WKNavigationDelegate`, or use `ChatBridgeNavigationDelegate`.
@MainActor
public final class ChatBridgeProcessTermination {
    /// The code of the event it sends.
    public static let code = "webview_restarted"

    private let reload: @MainActor (WKWebView) -> Void
    private let onError: ((ChatBridgeError) -> Void)?
    private let onEvent: (ChatEvent) -> Void
    /// Told, and not loaded again since: a second termination reloads, but is not told again.
    private var restarting = false

    /// `reload` brings the page back (by default `webView.reload()`; pass your own when the web
    /// view had no URL to reload, e.g. to load the widget again). `onEvent` and `onError` are
    /// those of your `ChatBridgeReceiver`: the event goes where the bridge's go.
    public init(
        reload: @escaping @MainActor (WKWebView) -> Void = { webView in webView.reload() },
        onError: ((ChatBridgeError) -> Void)? = nil,
        onEvent: @escaping (ChatEvent) -> Void
    ) {
        self.reload = reload
        self.onError = onError
        self.onEvent = onEvent
    }

    /// The error it sends.
    public static func restarted() -> ChatBridgeError {
        ChatBridgeError(
            code: code, message: "[ios] the web view's content process ended; reloading", retryable: true)
    }

    /// From `webViewWebContentProcessDidTerminate(_:)`: reloads, and tells the app unless it was
    /// told since the page last loaded.
    public func webContentProcessDidTerminate(_ webView: WKWebView) {
        reload(webView)
        guard !restarting else { return }
        restarting = true
        let error = ChatBridgeProcessTermination.restarted()
        onError?(error)
        onEvent(.error(code: error.code, message: error.message))
    }

    /// From `webView(_:didFinish:)`: the page is back; a later termination is told again.
    public func pageFinished() {
        restarting = false
    }
}

/// A `WKNavigationDelegate` for an app that has none of its own: it hands process terminations
/// and finished loads to `processTermination`, and implements nothing else (WebKit's defaults
/// apply). An app with its own delegate calls `ChatBridgeProcessTermination` from it instead.
/// `WKWebView.navigationDelegate` is weak: keep this object alive as long as the web view.
@MainActor
public final class ChatBridgeNavigationDelegate: NSObject, WKNavigationDelegate {
    public let processTermination: ChatBridgeProcessTermination

    public init(processTermination: ChatBridgeProcessTermination) {
        self.processTermination = processTermination
        super.init()
    }

    public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        processTermination.webContentProcessDidTerminate(webView)
    }

    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        processTermination.pageFinished()
    }
}
#endif
