//
// The JavaScript a host evaluates in the web view (the bridge's settings with its script, host
// commands), and the bridge's scripts as this package ships them: Resources/, copied from the npm
// package's dist/ by its build. Parsed here, not compiled (see ChatEvent.swift).
//

import Foundation

/// Builds the scripts to pass to `WKUserScript` and `evaluateJavaScript`, and loads the bridge's.
public enum ChatBridgeScripts {
    /// A script the package should carry is not in its resources (a package built without them).
    public struct MissingScript: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "ChatBridge: \(name) is not in the package's resources" }
    }

    /// `chat-bridge.js`: the bridge, to inject at document start (or after load, with the starter).
    public static func bundle() throws -> String { try load("chat-bridge") }

    /// `chat-bridge.start.js`: the small starter, for document start when the bundle comes after load.
    public static func starter() throws -> String { try load("chat-bridge.start") }

    /// `json` made safe inside a script: U+2028 and U+2029 end a string literal in engines before
    /// ES2019, and JSONSerialization leaves them raw.
    public static func jsSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(of: "\u{2029}", with: "\\u2029")
    }

    /// The script that installs the bridge: `settings` (its options: `baseUrl`, `websiteToken`, ...)
    /// as `window.chatBridgeSettings`, then `script`, the bundle or the starter. It carries the
    /// website token: never log it.
    public static func install(settings: [String: Any], script: String) throws -> String {
        "window.chatBridgeSettings=\(jsSafe(try json(settings)));\(script)"
    }

    /// The script that hands one host command to the bridge; its answer arrives as `.response`
    /// with the same `id`. Pick ids that are unique for the page.
    public static func command(id: String, method: String, params: [String: Any] = [:]) throws -> String {
        "ChatBridge.receive(\(jsSafe(try json(["id": id, "method": method, "params": params]))))"
    }

    private static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    private static func load(_ name: String) throws -> String {
        guard let url = resources.url(forResource: name, withExtension: "js") else { throw MissingScript(name: "\(name).js") }
        return try String(contentsOf: url, encoding: .utf8)
    }

    private static let resources: Bundle = {
        #if SWIFT_PACKAGE
        return Bundle.module
        #else
        // CocoaPods: the podspec's resource bundle, inside the framework or the app.
        let host = Bundle(for: BundleToken.self)
        if let url = host.url(forResource: "ChatBridge", withExtension: "bundle"), let bundle = Bundle(url: url) {
            return bundle
        }
        return host
        #endif
    }()
}

private final class BundleToken {}
