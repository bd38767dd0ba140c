/*
 * Stand-ins for the few Android framework classes the Android glue and the docs' snippets use,
 * with the signatures of the documented API (developer.android.com, API 35), so kotlinc can check
 * the calls without the Android SDK. Bodies only throw: nothing here runs but the constructors of
 * the fakes test/native/ProcessGoneRunner.kt builds on them, which override every method it calls.
 */
@file:Suppress("UNUSED_PARAMETER", "unused")

package android.webkit

import android.content.Context
import android.graphics.Bitmap
import android.view.View

@Target(AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
annotation class JavascriptInterface

fun interface ValueCallback<T> {
    fun onReceiveValue(value: T)
}

abstract class WebSettings {
    abstract var javaScriptEnabled: Boolean
    abstract var domStorageEnabled: Boolean
}

open class WebViewClient {
    open fun onPageStarted(view: WebView, url: String, favicon: Bitmap?) {}
    open fun onPageFinished(view: WebView, url: String) {}
    /** API 26. Android's own returns false: the app then crashes, or is killed, with the renderer. */
    open fun onRenderProcessGone(view: WebView, detail: RenderProcessGoneDetail): Boolean = standIn()
}

/** API 26: why a WebView's render process is gone. */
abstract class RenderProcessGoneDetail {
    abstract fun didCrash(): Boolean
    abstract fun rendererPriorityAtExit(): Int
}

open class WebView(context: Context) : View(context) {
    open val settings: WebSettings get() = standIn()
    open var webViewClient: WebViewClient
        get() = standIn()
        set(value) = standIn()
    open fun loadUrl(url: String): Unit = standIn()
    open fun evaluateJavascript(script: String, resultCallback: ValueCallback<String>?): Unit = standIn()
    open fun addJavascriptInterface(obj: Any, name: String): Unit = standIn()
    open fun removeJavascriptInterface(name: String): Unit = standIn()
    open fun destroy(): Unit = standIn()
}

internal fun standIn(): Nothing = throw UnsupportedOperationException("an Android API stand-in: compile only")
