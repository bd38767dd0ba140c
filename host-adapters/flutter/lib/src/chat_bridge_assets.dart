// The bridge's scripts as this package ships them: assets/, copied from the npm package's dist/ by
// its build and declared in pubspec.yaml. Parsed here, not compiled (see chat_event.dart).

import 'package:flutter/services.dart';

/// Loads the bundle and the starter from this package's assets.
abstract final class ChatBridgeAssets {
  /// The asset key of `chat-bridge.js`, as an app reads a package's asset.
  static const bundleKey = 'packages/chat_bridge/assets/chat-bridge.js';

  /// The asset key of `chat-bridge.start.js`.
  static const starterKey = 'packages/chat_bridge/assets/chat-bridge.start.js';

  /// `chat-bridge.js`: the bridge. webview_flutter has no document-start injection, so it runs
  /// once the page has loaded, and the starter brings nothing there.
  static Future<String> bundle([AssetBundle? assets]) => (assets ?? rootBundle).loadString(bundleKey);

  /// `chat-bridge.start.js`: the starter, for a web view that injects at document start
  /// (flutter_inappwebview's `UserScriptInjectionTime.AT_DOCUMENT_START`).
  static Future<String> starter([AssetBundle? assets]) => (assets ?? rootBundle).loadString(starterKey);
}
