/*
 * A WebView whose render process is gone (killed by the system for memory, or crashed) comes back.
 *
 * Android 8.0 (API 26) and later call `WebViewClient.onRenderProcessGone(view, detail)`. What
 * Android's documentation of that method requires: the WebView given cannot be used any more; it
 * must be removed from the view hierarchy and every reference to it dropped; and unless the
 * method returns true, Android crashes the app (when the renderer crashed) or kills it (when the
 * system killed the renderer). So the page cannot be reloaded in the same WebView, as iOS does: the
 * app destroys it and creates a new one, which loads the widget again with the bridge. The
 * outbox's records are in the app's WebView storage, shared by the new WebView: its bridge sends
 * what the dead page left. Before API 26 Android has no such callback (a dead renderer takes the
 * app with it), so there is nothing to handle there.
 *
 * Written against the documented API; compiled by `npm run test:native` against stand-ins with the
 * same signatures (test/native/android-api/), and its logic run there with a fake WebView
 * (test/native/ProcessGoneRunner.kt), never on a device.
 */
package dev.chatbridge

import android.annotation.TargetApi
import android.view.ViewGroup
import android.webkit.RenderProcessGoneDetail
import android.webkit.WebView
import android.webkit.WebViewClient
import java.util.Collections
import java.util.WeakHashMap

/**
 * Handles a render process gone: for each WebView it is told of, once, [recreate] is called with
 * the dead WebView (remove it and destroy it, [discard] does both; create a new one, attach the
 * receiver to it, load the widget) and then [onEvent] gets one `ChatEvent.Error` with code
 * "webview_restarted", retryable. Use it from [ChatBridgeWebViewClient], or from your own
 * client's `onRenderProcessGone`: `return processGone.handle(view, detail)`. Main thread only,
 * as WebView callbacks are.
 */
class ChatBridgeProcessGone(
    private val onEvent: (ChatEvent) -> Unit,
    private val recreate: (gone: WebView) -> Unit
) {
    /** The WebViews already handled: Android calls once per WebView, but a second call must not recreate twice. */
    private val handled: MutableSet<WebView> = Collections.newSetFromMap(WeakHashMap())

    /** Always true: the app handled it, so Android neither crashes nor kills it. */
    @TargetApi(26)
    fun handle(view: WebView, detail: RenderProcessGoneDetail?): Boolean {
        if (!handled.add(view)) return true
        recreate(view)
        onEvent(restarted(detail?.didCrash()))
        return true
    }

    companion object {
        const val CODE = "webview_restarted"

        /** Takes the dead WebView out of its parent and destroys it, as Android requires. */
        @JvmStatic
        fun discard(gone: WebView) {
            (gone.parent as? ViewGroup)?.removeView(gone)
            gone.destroy()
        }

        /** The event that tells the app: the page is gone with its process, and comes back in a new WebView. */
        @JvmStatic
        fun restarted(crashed: Boolean?): ChatEvent.Error {
            val how = when (crashed) {
                true -> "crashed"
                false -> "was killed by the system"
                null -> "ended"
            }
            return ChatEvent.Error(CODE, "[android] the WebView's render process $how; a new WebView loads the page", retryable = true)
        }
    }
}

/**
 * A `WebViewClient` whose `onRenderProcessGone` hands the dead WebView to [processGone] and
 * returns true. Open: extend it for your other callbacks, and call `super.onRenderProcessGone`
 * if you override that one.
 */
open class ChatBridgeWebViewClient(private val processGone: ChatBridgeProcessGone) : WebViewClient() {
    @TargetApi(26)
    override fun onRenderProcessGone(view: WebView, detail: RenderProcessGoneDetail): Boolean =
        processGone.handle(view, detail)
}
