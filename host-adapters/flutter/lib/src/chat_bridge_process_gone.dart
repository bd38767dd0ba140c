// A web view whose web process ended comes back, where the Flutter web view plugin tells the app.
// Parsed here, not compiled (see chat_event.dart); test/vectors_test.dart runs it (`flutter test`).
//
// What each plugin exposes (read in their sources; README.md says the same):
// - webview_flutter on iOS and macOS (webview_flutter_wkwebview 3.x): WebKit's
//   webViewWebContentProcessDidTerminate reaches NavigationDelegate.onWebResourceError as a
//   WebResourceError whose errorType is WebResourceErrorType.webContentProcessTerminated
//   (lib/src/webkit_webview_controller.dart). The same controller can reload: [webResourceError].
// - webview_flutter on Android (webview_flutter_android 4.x): nothing. Its WebViewClient does not
//   override onRenderProcessGone, so Android's default (false) crashes or kills the app with the
//   renderer, before any Dart code runs; no Dart package can change that.
// - flutter_inappwebview: onWebContentProcessDidTerminate (iOS, macOS), and onRenderProcessGone
//   (Android 8+, with the setting useOnRenderProcessGone: true, which makes its client return
//   true): [processEnded] from either. On Android the dead web view cannot load again: restart
//   by building a new InAppWebView (a new key).

import 'chat_event.dart';

/// Brings the page back when its web process ended and tells the app once, with one [ChatError]
/// whose code is `webview_restarted` (retryable), until the page has loaded again.
class ChatBridgeProcessGone {
  ChatBridgeProcessGone({required this.restart, required this.onError});

  /// The code of the error it sends.
  static const code = 'webview_restarted';

  /// Brings the page back: `controller.reload()` for webview_flutter on iOS; for
  /// flutter_inappwebview on Android, a new web view.
  final void Function() restart;

  /// Your receiver's `onError`: the error goes where the bridge's go.
  final void Function(ChatError error) onError;

  /// Told, and not loaded again since: a second death restarts, but is not told again.
  bool _restarting = false;

  /// The error it sends; [platform] names whose process ended.
  static ChatError restarted(String platform) => ChatError(
        code: code,
        message: "[flutter] the web view's $platform process ended; reloading",
        retryable: true,
      );

  /// From webview_flutter's `NavigationDelegate(onWebResourceError: (error) =>
  /// processGone.webResourceError(error.errorType))`: handles the web content process's end and
  /// returns true; returns false for every other error, which is yours.
  bool webResourceError(Enum? errorType) {
    if (errorType?.name != 'webContentProcessTerminated') return false;
    processEnded('web content');
    return true;
  }

  /// From any plugin's callback for the web process's end: restarts, and tells the app unless it
  /// was told since the page last loaded.
  void processEnded(String platform) {
    restart();
    if (_restarting) return;
    _restarting = true;
    onError(restarted(platform));
  }

  /// From `onPageFinished`: the page is back; a later death is told again.
  void pageFinished() => _restarting = false;
}
