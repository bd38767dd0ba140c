// The JavaScript a host evaluates in the web view: the bridge's settings with its script, and
// host commands. Pure Dart. Parsed here, not compiled (see chat_event.dart).

import 'dart:convert';

/// Builds the scripts to pass to `runJavaScript`.
abstract final class ChatBridgeScripts {
  /// [json] made safe inside a script: U+2028 and U+2029 end a string literal in engines before
  /// ES2019, and jsonEncode leaves them raw.
  static String jsSafe(String json) => json.replaceAll('\u2028', r'\u2028').replaceAll('\u2029', r'\u2029');

  /// The script that installs the bridge: [settings] (its options: `baseUrl`, `websiteToken`, ...)
  /// as `window.chatBridgeSettings`, then [script], the bundle ([ChatBridgeAssets.bundle]). It
  /// carries the website token: never log it.
  static String install(Map<String, Object?> settings, String script) =>
      'window.chatBridgeSettings=${jsSafe(jsonEncode(settings))};$script';

  /// The script that hands one host command to the bridge; its answer arrives as a [ChatResponse]
  /// with the same [id]. Pick ids that are unique for the page.
  static String command(String id, String method, [Map<String, Object?> params = const {}]) =>
      'ChatBridge.receive(${jsSafe(jsonEncode({'id': id, 'method': method, 'params': params}))})';
}
