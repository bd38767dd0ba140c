/*
 * The names the docs' Kotlin snippets take from the reader's own app (the web view, the widget's
 * URL, the reader's UI functions), typed as an app would have them, so that
 * scripts/native/kotlin-snippets.mjs can compile each snippet as written. Never run.
 */
@file:Suppress("UNUSED_PARAMETER", "unused")

package dev.chatbridge.snippets

import android.content.Context
import android.webkit.WebView
import dev.chatbridge.ChatBridgeReceiver
import dev.chatbridge.ChatEvent
import dev.chatbridge.MessageState
import org.json.JSONObject

lateinit var context: Context
lateinit var receiver: ChatBridgeReceiver
const val WIDGET_URL = "https://chat.example.com/widget"
const val WIDGET_ORIGIN = "https://chat.example.com"
const val BASE_URL = "https://chat.example.com/api/v1"
const val WEBSITE_TOKEN = "…"
lateinit var webView: WebView
val widgetUrl = "https://chat.example.com/widget"
val websiteToken = "…"
val path = "photo.jpg"
val settings: JSONObject = JSONObject().put("baseUrl", "https://chat.example.com/api/v1").put("websiteToken", "…")
val settingsJson: String = settings.toString()
lateinit var bundle: String
lateinit var starter: String
val commandJson = """{"id":"1","method":"init"}"""

fun showError(code: String, message: String) {}
fun showRetry(code: String, retryable: Boolean, retryAt: Long?) {}
fun onError(code: String, message: String) {}
fun onReady() {}
fun onResult(id: String, result: Any?) {}
fun onFailure(id: String, error: ChatEvent.Error) {}
fun onWidget(event: String, data: Map<String, Any?>) {}
fun showState(messageId: String, state: MessageState, nextAttemptAt: Long? = null, error: ChatEvent.Error? = null) {}
fun saveConversationToken(token: String) {}
fun assertJsonEquals(expected: Any?, actual: Any?) {}
