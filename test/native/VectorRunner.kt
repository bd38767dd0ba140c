/*
 * Runs the Kotlin decoder (host-adapters/android/.../dev/chatbridge/ChatEvent.kt) over the shared test vectors:
 * each "payload" is decoded (decodeAll) and the events' toJson() compared with the vector's "events",
 * or its one "event". Compiled and run
 * by scripts/test-native.mjs (npm run test:native) against AOSP's org.json.
 *
 * Usage: VectorRunnerKt <vector file>...   Prints one line per failure and "vectors: N passed, N failed".
 */
import dev.chatbridge.ChatEvent
import java.io.File
import java.math.BigDecimal
import kotlin.system.exitProcess
import org.json.JSONArray
import org.json.JSONObject

fun main(args: Array<String>) {
    var passed = 0
    var failed = 0
    var notApplicable = 0
    for (path in args) {
        val file = JSONObject(File(path).readText())
        val vectors = file.getJSONArray("vectors")
        for (i in 0 until vectors.length()) {
            val vector = vectors.getJSONObject(i)
            val name = "${file.getString("host")}: ${vector.getString("name")}"
            // Android's channels deliver text; the object payloads of the browser file go through
            // decode(JSONObject), the step after parsing. Other JSON values (numbers, arrays)
            // cannot arrive through a String channel at all.
            val events = when (val payload = vector.opt("payload")) {
                is String -> ChatEvent.decodeAll(payload)
                is JSONObject -> listOf(ChatEvent.decode(payload))
                else -> { notApplicable++; continue }
            }
            // A payload of several messages (one task's) has "events"; one of one message, "event".
            val expected = vector.optJSONArray("events") ?: JSONArray().put(vector.get("event"))
            val actual = JSONArray(events.map { it.toJson() })
            if (same(expected, actual)) passed++ else {
                failed++
                println("FAIL $name\n  expected $expected\n  actual   $actual")
            }
        }
    }
    if (notApplicable > 0) println("($notApplicable vectors whose payload is neither text nor an object: not applicable to a String channel)")
    println("vectors: $passed passed, $failed failed")
    exitProcess(if (failed == 0 && passed > 0) 0 else 1)
}

/** JSON equality: same keys, same items in order, numbers equal by value (401 == 401L == 401.0). */
fun same(a: Any?, b: Any?): Boolean = when {
    a == null || a == JSONObject.NULL -> b == null || b == JSONObject.NULL
    a is JSONObject -> b is JSONObject && a.length() == b.length() &&
        a.keys().asSequence().all { key -> b.has(key) && same(a.opt(key), b.opt(key)) }
    a is JSONArray -> b is JSONArray && a.length() == b.length() && (0 until a.length()).all { same(a.opt(it), b.opt(it)) }
    a is Number -> b is Number && BigDecimal(a.toString()).compareTo(BigDecimal(b.toString())) == 0
    else -> a == b
}
