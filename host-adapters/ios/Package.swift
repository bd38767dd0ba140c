// swift-tools-version:5.5
// The chat bridge's iOS package: the receiver, the decoder and the bridge's scripts as resources.
// An app adds it as a local package from node_modules (README.md says how).

import Foundation
import PackageDescription

let package = Package(
    name: "ChatBridge",
    platforms: [.iOS(.v13), .macOS(.v11)],
    products: [
        .library(name: "ChatBridge", targets: ["ChatBridge"]),
    ],
    targets: [
        .target(
            name: "ChatBridge",
            path: "Sources/ChatBridge",
            // Copied from the npm package's dist/ by its build: in the package as published.
            resources: [.copy("Resources/chat-bridge.js"), .copy("Resources/chat-bridge.start.js")]
        ),
    ]
)

// The tests read the shared vectors from the repository (test/vectors/), so they stay out of the
// npm package; the test target exists only where its folder does.
let packageRoot = URL(fileURLWithPath: #file).deletingLastPathComponent()
if FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Tests/ChatBridgeTests").path) {
    package.targets.append(.testTarget(name: "ChatBridgeTests", dependencies: ["ChatBridge"], path: "Tests/ChatBridgeTests"))
}
