/*
 * Sends a large file to the bridge in chunks (`appendAttachment`, then `sendMessage` naming the
 * upload), so no single command freezes the page. Pure Kotlin over org.json and java.util,
 * compiled by `npm run test:native`.
 */
package dev.chatbridge

import java.io.InputStream
import java.util.Base64
import java.util.UUID
import org.json.JSONArray
import org.json.JSONObject

/**
 * Sends files to the bridge in chunks. Use it on the main thread and hand it every response:
 * `ChatBridgeReceiver { event -> if (event is ChatEvent.Response) files.onResponse(event) }`.
 * [evaluate] is `{ script -> webView.evaluateJavascript(script, null) }`.
 */
class ChunkedFileSender(private val evaluate: (String) -> Unit) {
    private val waiting = HashMap<String, (ChatEvent.Response) -> Unit>()
    private val session = UUID.randomUUID().toString().take(8)
    private var counter = 0

    /** Hands a response to the call waiting for it; responses to other commands are ignored. */
    fun onResponse(response: ChatEvent.Response) {
        waiting.remove(response.id)?.invoke(response)
    }

    private fun call(method: String, params: JSONObject, answered: (ChatEvent.Response) -> Unit) {
        val id = "f${++counter}.$session"
        waiting[id] = answered
        evaluate(ChatBridgeScripts.command(id, method, params))
    }

    /** Sends [file] in chunks, then the message; [done] gets null once it is sent, or the first refusal. */
    fun send(file: InputStream, name: String, type: String, content: String, done: (ChatEvent.Error?) -> Unit) {
        val uploadId = "up-" + UUID.randomUUID()
        val buffer = ByteArray(CHUNK_BYTES)
        fun next(index: Int) {
            val read = file.read(buffer) // a short read is fine: each chunk is base64 on its own
            if (read < 0) {
                file.close()
                val attachment = JSONObject().put("name", name).put("type", type).put("uploadId", uploadId)
                val message = JSONObject().put("content", content).put("attachments", JSONArray().put(attachment))
                return call("sendMessage", message) { done(it.error) }
            }
            // java.util.Base64 needs API 26; before it, android.util.Base64.encodeToString(buffer, 0, read, NO_WRAP).
            val data = Base64.getEncoder().encodeToString(buffer.copyOf(read))
            call("appendAttachment", JSONObject().put("uploadId", uploadId).put("index", index).put("data", data)) {
                if (it.ok) next(index + 1) else { file.close(); done(it.error) }
            }
        }
        next(0)
    }

    companion object {
        /** 393,216 bytes encode to 524,288 characters of base64: the largest chunk the bridge takes. */
        const val CHUNK_BYTES = 393_216
    }
}
