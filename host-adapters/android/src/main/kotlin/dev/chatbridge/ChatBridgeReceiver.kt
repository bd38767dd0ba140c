/*
 * The WebView glue: the bridge in the page calls `window.ChatBridgeAndroid.postMessage(json)`
 * with one JSON text per call (one message, or an array of those one frame delivered), and `attach` installs that object the safest way the WebView
 * offers:
 *
 * - AndroidX `WebViewCompat.addWebMessageListener` with `allowedOriginRules`, when
 *   `WebViewFeature.isFeatureSupported(WebViewFeature.WEB_MESSAGE_LISTENER)` (WebView 82+ through
 *   androidx.webkit): the object exists only in frames whose origin matches a rule, and each
 *   message says where it came from. This is the preferred channel (Capacitor prefers it too).
 * - `@JavascriptInterface` otherwise: the object is visible to every frame of every origin in the
 *   WebView, third-party iframes included, so use it only with content you control.
 *
 * Written against the documented Android and AndroidX API; there is no Android SDK where this
 * project's CI runs, so `npm run test:native` compiles it against stand-ins with the same
 * signatures (test/native/android-api/), never runs it. All decoding is in ChatEvent.kt.
 */
package dev.chatbridge

import android.os.Handler
import android.os.Looper
import android.webkit.JavascriptInterface
import android.webkit.WebView
import androidx.webkit.WebViewCompat
import androidx.webkit.WebViewFeature

/**
 * Receives the bridge's messages and hands each decoded [ChatEvent] to [onEvent] on the main thread, in order.
 */
class ChatBridgeReceiver(
    private val handler: Handler = Handler(Looper.getMainLooper()),
    val onEvent: (ChatEvent) -> Unit
) {
    /** Which channel [attach] installed. */
    enum class Channel { WEB_MESSAGE_LISTENER, JAVASCRIPT_INTERFACE }

    /**
     * Installs `window.<name>` for pages loaded after this call: the origin-checked web message
     * listener where the WebView supports it, the JavaScript interface otherwise. [allowedOrigins]
     * are origin rules such as "https://chat.example.com" (scheme and host, no path); the
     * JavaScript interface cannot enforce them, which is why it is only the fallback.
     */
    fun attach(webView: WebView, allowedOrigins: Set<String>, name: String = NAME): Channel {
        if (WebViewFeature.isFeatureSupported(WebViewFeature.WEB_MESSAGE_LISTENER)) {
            // Called on the main thread. Only the main frame runs the injected bridge, so a
            // same-origin iframe's message is not taken for the bridge's.
            WebViewCompat.addWebMessageListener(webView, name, allowedOrigins) { _, message, _, isMainFrame, _ ->
                if (isMainFrame) ChatEvent.decodeAll(message.data).forEach(onEvent)
            }
            return Channel.WEB_MESSAGE_LISTENER
        }
        webView.addJavascriptInterface(this, name)
        return Channel.JAVASCRIPT_INTERFACE
    }

    /** Removes what [attach] installed (takes effect for the next page load). */
    fun detach(webView: WebView, name: String = NAME) {
        if (WebViewFeature.isFeatureSupported(WebViewFeature.WEB_MESSAGE_LISTENER)) {
            WebViewCompat.removeWebMessageListener(webView, name)
        } else {
            webView.removeJavascriptInterface(name)
        }
    }

    /** The fallback channel: JavaScript interface calls arrive on a background thread. */
    @JavascriptInterface
    fun postMessage(payload: String?) {
        val events = ChatEvent.decodeAll(payload)
        handler.post { events.forEach(onEvent) }
    }

    companion object {
        /** The bridge's default `androidChannel` option: the name the page calls. */
        const val NAME = "ChatBridgeAndroid"
    }
}
