/*
 * Stand-ins for the androidx.webkit API (1.12) the Android glue and the docs' snippets use, with
 * its documented signatures and nullability (see android.kt). Bodies only throw.
 */
@file:Suppress("UNUSED_PARAMETER", "unused")

package androidx.webkit

import android.net.Uri
import android.webkit.WebView
import android.webkit.standIn

object WebViewFeature {
    const val WEB_MESSAGE_LISTENER = "WEB_MESSAGE_LISTENER"
    const val DOCUMENT_START_SCRIPT = "DOCUMENT_START_SCRIPT"

    @JvmStatic
    fun isFeatureSupported(feature: String): Boolean = standIn()
}

class WebMessageCompat(val data: String?)

abstract class JavaScriptReplyProxy {
    abstract fun postMessage(message: String)
}

interface ScriptHandler {
    fun remove()
}

object WebViewCompat {
    fun interface WebMessageListener {
        fun onPostMessage(
            view: WebView,
            message: WebMessageCompat,
            sourceOrigin: Uri,
            isMainFrame: Boolean,
            replyProxy: JavaScriptReplyProxy
        )
    }

    @JvmStatic
    fun addWebMessageListener(
        webView: WebView,
        jsObjectName: String,
        allowedOriginRules: Set<String>,
        listener: WebMessageListener
    ): Unit = standIn()

    @JvmStatic
    fun removeWebMessageListener(webView: WebView, jsObjectName: String): Unit = standIn()

    @JvmStatic
    fun addDocumentStartJavaScript(webView: WebView, script: String, allowedOriginRules: Set<String>): ScriptHandler =
        standIn()
}
