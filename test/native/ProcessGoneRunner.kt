/*
 * Runs the Android package's process-gone helper (ChatBridgeProcessGone.kt) with a fake WebView
 * and fake details: the stand-ins' methods throw, so a call the fakes do not override fails the
 * run. What Android itself does (calling onRenderProcessGone once per WebView of the dead process,
 * then letting the app live because it returned true) cannot run here; this checks what the
 * helper does with those calls. Compiled and run by scripts/test-native.mjs.
 *
 * Prints one line per failure and "process-gone: N passed, N failed".
 */
import android.content.Context
import android.content.res.AssetManager
import android.webkit.RenderProcessGoneDetail
import android.webkit.WebView
import dev.chatbridge.ChatBridgeProcessGone
import dev.chatbridge.ChatBridgeWebViewClient
import dev.chatbridge.ChatEvent
import kotlin.system.exitProcess

private object FakeContext : Context() {
    override val applicationContext: Context get() = this
    override val assets: AssetManager get() = throw UnsupportedOperationException("not used")
}

private class FakeWebView(val name: String) : WebView(FakeContext) {
    override fun toString() = name
}

private class FakeDetail(private val crashed: Boolean) : RenderProcessGoneDetail() {
    override fun didCrash() = crashed
    override fun rendererPriorityAtExit() = 0
}

private var passed = 0
private var failed = 0

private fun check(name: String, ok: Boolean, got: Any?) {
    if (ok) passed++ else {
        failed++
        println("FAIL $name\n  got $got")
    }
}

fun main() {
    val log = mutableListOf<String>()
    val processGone = ChatBridgeProcessGone(
        onEvent = { event -> log += "event $event" },
        recreate = { gone -> log += "recreate $gone" }
    )
    val client = ChatBridgeWebViewClient(processGone)
    val first = FakeWebView("first")

    val answered = client.onRenderProcessGone(first, FakeDetail(crashed = true))
    check("the client returns true, so Android keeps the app alive", answered, answered)
    val event = ChatBridgeProcessGone.restarted(true)
    check(
        "the dead WebView is handed to recreate, then the app gets one webview_restarted event",
        log == listOf("recreate first", "event $event"),
        log
    )
    check(
        "the event is retryable, its message says the renderer crashed, and no retryAt",
        event.code == "webview_restarted" && event.retryable && event.retryAt == null &&
            event.message.contains("crashed") && event.status == null,
        event
    )

    log.clear()
    val again = client.onRenderProcessGone(first, FakeDetail(crashed = true))
    check("the same WebView told twice: true again, nothing recreated or said twice", again && log.isEmpty(), log)

    val second = FakeWebView("second")
    check("the helper alone, for an app's own client, returns true", processGone.handle(second, FakeDetail(crashed = false)), false)
    check(
        "a new WebView's death is handled too, and a kill by the system says so",
        log == listOf("recreate second", "event ${ChatBridgeProcessGone.restarted(false)}") &&
            ChatBridgeProcessGone.restarted(false).message.contains("killed by the system"),
        log
    )

    log.clear()
    check("without details, it still handles it", processGone.handle(FakeWebView("third"), null), false)
    check("and says the process ended", log.lastOrNull() == "event ${ChatBridgeProcessGone.restarted(null)}", log)

    val decoded = ChatEvent.decode(ChatBridgeProcessGone.restarted(true).let {
        org.json.JSONObject().put("type", "error").put("code", it.code).put("message", it.message).put("retryable", true)
    })
    check("the event is the one the decoder gives for the same error", decoded == event, decoded)

    println("process-gone: $passed passed, $failed failed")
    exitProcess(if (failed == 0 && passed > 0) 0 else 1)
}
