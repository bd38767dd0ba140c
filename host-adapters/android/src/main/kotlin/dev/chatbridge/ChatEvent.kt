/*
 * The chat bridge's events and their decoder: pure Kotlin over org.json (which ships with
 * Android), no Android classes, so `npm run test:native` compiles it with kotlinc against AOSP's
 * own org.json and runs it over every shared test vector. The WebView glue (which channel, which
 * thread) is ChatBridgeReceiver.kt.
 */
package dev.chatbridge

import org.json.JSONArray
import org.json.JSONObject
import org.json.JSONTokener

/**
 * One message from the chat bridge. Decoding never throws: a payload it cannot read becomes an
 * [Error] with code "parse_error", so a bad message never crashes the app.
 */
sealed class ChatEvent {
    /** The bridge is installed and listening. */
    object Ready : ChatEvent() {
        override fun toString() = "Ready"
    }

    /**
     * A failure, with one of the bridge's codes: "auth_failed", "network_error", "parse_error",
     * "validation_error", "file_too_large", "rate_limited", "server_error", "webview_restarted", ...
     */
    data class Error(
        val code: String,
        val message: String,
        /** The HTTP status, when the failure has one. */
        val status: Int? = null,
        /** Field problems of a 422, e.g. {"email": ["is not a valid e-mail address"]}. */
        val errors: Map<String, List<String>>? = null,
        /**
         * The same action (the same command, the same message under its messageId) can succeed
         * later with nothing changed: show a retry button, or wait. False: something must change
         * first. A bridge older than the field sends none: false.
         */
        val retryable: Boolean = false,
        /** When a retry is due (ms since the epoch, as System.currentTimeMillis), where the bridge knows. */
        val retryAt: Long? = null
    ) : ChatEvent()

    /**
     * The answer to the host command with this [id]: [result] when [ok] (JSON as Map, List,
     * String, Number, Boolean or null), [error] otherwise. A failed command also arrives as an [Error].
     */
    data class Response(val id: String, val ok: Boolean, val result: Any? = null, val error: Error? = null) : ChatEvent()

    /** A chat widget event ("loaded", "unread", ...) with the widget's other fields. */
    data class Widget(val event: String, val data: Map<String, Any?>) : ChatEvent()

    /**
     * The widget's conversation token, to resume the conversation later (as `cw_conversation` in
     * the widget URL). Only sent when the bridge runs with `forwardConversationToken: true`; it is
     * a credential: store it like one, and never log it.
     */
    data class ConversationToken(val token: String) : ChatEvent() {
        override fun toString() = "ConversationToken(token=<redacted>)"
    }

    /**
     * Where the outgoing message [messageId] stands, sent on every change, for messages of this
     * page and of earlier pages alike. [attempt] counts the attempts made so far (0 before the
     * first); [nextAttemptAt] (ms since the epoch, as System.currentTimeMillis) is when the next
     * automatic one is due; [result] is the backend's message once [MessageState.SENT]; [error]
     * says why it [MessageState.FAILED] (or why the last attempt did not get through).
     */
    data class Message(
        val messageId: String,
        val state: MessageState,
        val attempt: Int,
        val nextAttemptAt: Long? = null,
        val result: Any? = null,
        val error: Error? = null,
        /** Upload progress of a message with attachments, while it is sending. */
        val progress: Progress? = null
    ) : ChatEvent() {
        data class Progress(val sentBytes: Long, val totalBytes: Long)
    }

    /** The platform-neutral form the shared test vectors use for "event". */
    fun toJson(): JSONObject = when (this) {
        is Ready -> JSONObject().put("kind", "ready")
        is Error -> JSONObject().put("kind", "error").put("code", code).put("message", message)
            .put("retryable", retryable).also { json ->
                if (status != null) json.put("status", status)
                if (errors != null) json.put("errors", toJsonValue(errors))
                if (retryAt != null) json.put("retryAt", retryAt)
            }
        is Response -> JSONObject().put("kind", "response").put("id", id).put("ok", ok).also { json ->
            if (ok) json.put("result", toJsonValue(result)) else json.put("error", error?.toJson())
        }
        is Widget -> JSONObject().put("kind", "widget").put("event", event).put("data", toJsonValue(data))
        is ConversationToken -> JSONObject().put("kind", "conversationToken").put("token", token)
        is Message -> JSONObject().put("kind", "message").put("messageId", messageId).put("state", state.wire)
            .put("attempt", attempt).also { json ->
                if (nextAttemptAt != null) json.put("nextAttemptAt", nextAttemptAt)
                if (result != null) json.put("result", toJsonValue(result))
                if (error != null) json.put("error", error.toJson())
                if (progress != null) {
                    json.put("progress", JSONObject().put("sentBytes", progress.sentBytes).put("totalBytes", progress.totalBytes))
                }
            }
    }

    companion object {
        /**
         * Decodes one payload as the bridge posts it, JSON text: one message, or a JSON array of
         * the messages the page delivered within a frame, in order. Each becomes one event.
         */
        @JvmStatic
        fun decodeAll(payload: String?): List<ChatEvent> = when (val value = parse(payload)) {
            is JSONArray -> (0 until value.length()).map { i -> decodeValue(value.opt(i)) }
            else -> listOf(decodeValue(value))
        }

        /** Decodes a payload that holds one message (JSON text); an array of several is a parse_error here. */
        @JvmStatic
        fun decode(payload: String?): ChatEvent = decodeValue(parse(payload))

        /**
         * The payload's one JSON value, or null when it is not JSON, or nests deeper than the
         * bridge ever does. org.json's JSONTokener recurses once per level: any script of the page
         * can post `'['.repeat(300000)` to the channel, which would overflow the stack of the thread
         * decoding it (binder threads have 1 MiB). So the depth is counted first, and a
         * StackOverflowError is caught as well, should a smaller stack still run out.
         */
        private fun parse(payload: String?): Any? = try {
            payload?.takeIf { !nestsDeeperThan(it, MAX_NESTING) }?.let { text ->
                val tokener = JSONTokener(text)
                // org.json stops after the first value; anything after it means this is not our JSON.
                tokener.nextValue().takeIf { tokener.nextClean() == '\u0000' }
            }
        } catch (e: Exception) {
            null
        } catch (e: StackOverflowError) {
            null
        }

        /**
         * The bridge cuts what it delivers at 64 levels (bridge/protocol/limits.ts, MAX_DEPTH), plus
         * the message and the batch around it; four times that leaves room and stays far below
         * what org.json recurses through on a 256 KiB stack.
         */
        private const val MAX_NESTING = 256

        /** Whether [text] opens more than [limit] arrays and objects at once (brackets in strings do not count). */
        private fun nestsDeeperThan(text: String, limit: Int): Boolean {
            var depth = 0
            var inString = false
            var escaped = false
            for (c in text) {
                when {
                    escaped -> escaped = false
                    inString -> if (c == '\\') escaped = true else if (c == '"') inString = false
                    c == '"' -> inString = true
                    c == '[' || c == '{' -> if (++depth > limit) return true
                    c == ']' || c == '}' -> depth--
                }
            }
            return false
        }

        private fun decodeValue(value: Any?): ChatEvent =
            (value as? JSONObject)?.let { decode(it) } ?: parseError("the payload is not a JSON object")

        /** Decodes a payload already parsed into a [JSONObject]. */
        @JvmStatic
        fun decode(json: JSONObject): ChatEvent {
            val type = json.opt("type") as? String ?: return parseError("the payload has no string \"type\"")
            return when (type) {
                "ready" -> Ready
                "error" -> errorOf(json) ?: parseError("an error event needs a string \"code\" and \"message\"")
                "response" -> responseOf(json)
                    ?: parseError("a response needs a string \"id\", a boolean \"ok\" and, when ok is false, an \"error\" event")
                "widget" -> {
                    val event = json.opt("event") as? String ?: return parseError("a widget event needs a string \"event\"")
                    Widget(event, json.optJSONObject("data")?.let(::toMap) ?: emptyMap())
                }
                "conversationToken" -> (json.opt("token") as? String)?.let(::ConversationToken)
                    ?: parseError("a conversationToken event needs a string \"token\"")
                "message" -> messageOf(json) ?: parseError(
                    "a message event needs a string \"messageId\", a \"state\" (queued, sending, sent or failed) and a whole \"attempt\" of 0 or more"
                )
                else -> parseError("unknown message type \"$type\"")
            }
        }

        /**
         * Code and message are required; a malformed status, field list or retryAt is left out, not
         * fatal. retryable is true only when the payload says true (anything else, or nothing: false).
         */
        private fun errorOf(json: JSONObject): Error? {
            val code = json.opt("code") as? String ?: return null
            val message = json.opt("message") as? String ?: return null
            val status = (json.opt("status") as? Number)?.takeIf { it.toDouble() % 1.0 == 0.0 }?.toInt()
            val errors = json.optJSONObject("errors")?.let(::fieldErrors)?.takeIf { it.isNotEmpty() }
            return Error(code, message, status, errors, json.opt("retryable") == true, timeOf(json.opt("retryAt")))
        }

        private fun responseOf(json: JSONObject): Response? {
            val id = json.opt("id") as? String ?: return null
            val ok = json.opt("ok") as? Boolean ?: return null
            if (ok) return Response(id, true, result = toKotlin(json.opt("result")))
            val error = json.optJSONObject("error")?.let(::errorOf) ?: return null
            return Response(id, false, error = error)
        }

        /**
         * messageId, state and attempt are required; a malformed optional field is left out, not
         * fatal. nextAttemptAt is rounded down to a whole millisecond; a null result is no result.
         */
        private fun messageOf(json: JSONObject): Message? {
            val messageId = json.opt("messageId") as? String ?: return null
            val state = MessageState.of(json.opt("state")) ?: return null
            val attempt = wholeNumber(json.opt("attempt"), Int.MAX_VALUE.toLong())?.toInt() ?: return null
            val nextAttemptAt = timeOf(json.opt("nextAttemptAt"))
            val progress = json.optJSONObject("progress")?.let { fields ->
                val sentBytes = wholeNumber(fields.opt("sentBytes"), MAX_SAFE_INTEGER)
                val totalBytes = wholeNumber(fields.opt("totalBytes"), MAX_SAFE_INTEGER)
                if (sentBytes != null && totalBytes != null) Message.Progress(sentBytes, totalBytes) else null
            }
            return Message(
                messageId, state, attempt, nextAttemptAt,
                result = toKotlin(json.opt("result")),
                error = json.optJSONObject("error")?.let(::errorOf),
                progress = progress
            )
        }

        /** A time in ms since the epoch that a JavaScript Date holds, rounded down to a whole ms; else null. */
        private fun timeOf(value: Any?): Long? =
            (value as? Number)?.toDouble()?.takeIf { it >= 0.0 && it <= MAX_TIME }?.let { Math.floor(it).toLong() }

        /** A whole number from 0 to [max], however org.json parsed it (Integer, Long or Double). */
        private fun wholeNumber(value: Any?, max: Long): Long? {
            val number = (value as? Number)?.toDouble() ?: return null
            return if (number % 1.0 == 0.0 && number >= 0.0 && number <= max.toDouble()) number.toLong() else null
        }

        /** The latest time a JavaScript Date holds, in ms since the epoch. */
        private const val MAX_TIME = 8.64e15
        private const val MAX_SAFE_INTEGER = 9007199254740991L

        /** Keeps the fields whose problems are a list of strings, as the service sends them. */
        private fun fieldErrors(json: JSONObject): Map<String, List<String>> {
            val fields = LinkedHashMap<String, List<String>>()
            for (field in json.keys()) {
                val problems = json.opt(field) as? JSONArray ?: continue
                val texts = (0 until problems.length()).map { problems.opt(it) }
                if (texts.all { it is String }) fields[field] = texts.map { it as String }
            }
            return fields
        }

        /** JSONObject to Map, JSONArray to List, JSONObject.NULL to null, other values as they are. */
        private fun toKotlin(value: Any?): Any? = when (value) {
            null, JSONObject.NULL -> null
            is JSONObject -> toMap(value)
            is JSONArray -> (0 until value.length()).map { toKotlin(value.opt(it)) }
            else -> value
        }

        private fun toMap(json: JSONObject): Map<String, Any?> = json.keys().asSequence().associateWith { toKotlin(json.opt(it)) }

        private fun toJsonValue(value: Any?): Any = when (value) {
            null -> JSONObject.NULL
            is Map<*, *> -> JSONObject().also { json -> value.forEach { (key, item) -> json.put(key.toString(), toJsonValue(item)) } }
            is List<*> -> JSONArray().also { array -> value.forEach { array.put(toJsonValue(it)) } }
            else -> value
        }

        private fun parseError(detail: String) = Error("parse_error", "[chat-bridge] $detail")
    }
}

/** The states of [ChatEvent.Message], as a chat UI shows them. */
enum class MessageState(val wire: String) {
    /** Waiting for its first attempt, or for the next one (a clock). */
    QUEUED("queued"),
    /** An attempt is under way (a spinner, or an upload bar with progress). */
    SENDING("sending"),
    /** The backend has it (a tick). */
    SENT("sent"),
    /** Final: no more automatic attempts (a retry button; the event's error says why). */
    FAILED("failed");

    companion object {
        /** The state named [wire] as the bridge spells it, or null for anything else. */
        @JvmStatic
        fun of(wire: Any?): MessageState? = values().firstOrNull { it.wire == wire }
    }
}
