/*
 * What any script of the page can post to the Android channel, decoded (ChatEvent.decodeAll and
 * decode): "decoding never throws", on the main thread's stack and on a binder thread's (1 MiB),
 * whatever the nesting (issue 34, case 6: org.json's JSONTokener recurses once per level, and
 * `'['.repeat(300000)` threw StackOverflowError through a catch of Exception alone). Each hostile
 * payload becomes one parse_error event; the bridge's own deepest messages still decode.
 * Compiled and run by scripts/test-native.mjs.
 *
 * Prints one line per failure and "hostile: N passed, N failed".
 */
import dev.chatbridge.ChatEvent
import kotlin.system.exitProcess

private class Case(val name: String, val payload: String, val expect: (List<ChatEvent>) -> Boolean)

private fun parseErrors(count: Int): (List<ChatEvent>) -> Boolean =
    { events -> events.size == count && events.all { it is ChatEvent.Error && it.code == "parse_error" } }

/** A widget event whose data nests [depth] levels, as the bridge may deliver it (it cuts at 64). */
private fun deepWidget(depth: Int) =
    "{\"type\":\"widget\",\"event\":\"onMessage\",\"data\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}"

private val cases = listOf(
    Case("300,000 [", "[".repeat(300_000), parseErrors(1)),
    Case("300,000 [ closed", "[".repeat(300_000) + "]".repeat(300_000), parseErrors(1)),
    Case("100,000 {\"a\": in an event", "{\"type\":\"widget\",\"data\":" + "{\"a\":".repeat(100_000), parseErrors(1)),
    Case("deep array after a good message", "[{\"type\":\"ready\"}," + "[".repeat(300_000) + "]".repeat(300_000) + "]", parseErrors(1)),
    Case("brackets inside strings do not count", "{\"type\":\"widget\",\"event\":\"x\",\"data\":{\"t\":\"" + "[".repeat(300_000) + "\"}}",
        { events -> events.size == 1 && events[0] is ChatEvent.Widget }),
    Case("the bridge's own deepest message (64 levels, in a batch)", "[" + deepWidget(64) + ",{\"type\":\"ready\"}]",
        { events -> events.size == 2 && events[0] is ChatEvent.Widget && events[1] is ChatEvent.Ready }),
)

/** Runs [block] on a thread with [stackBytes] of stack (0: the JVM's default); its throwable, if any. */
private fun onStack(stackBytes: Long, block: () -> Unit): Throwable? {
    var thrown: Throwable? = null
    val thread = Thread(null, { try { block() } catch (t: Throwable) { thrown = t } }, "decode", stackBytes)
    thread.start()
    thread.join()
    return thrown
}

fun main() {
    var passed = 0
    var failed = 0
    for ((stackName, stack) in listOf("default stack" to 0L, "1 MiB binder stack" to (1L shl 20), "256 KiB stack" to (256L shl 10))) {
        for (case in cases) {
            for ((how, decode) in listOf<Pair<String, (String) -> List<ChatEvent>>>(
                "decodeAll" to { text -> ChatEvent.decodeAll(text) },
                "decode" to { text -> listOf(ChatEvent.decode(text)) },
            )) {
                // decode() takes one message: a batch is one parse_error there, by design.
                val expect = if (how == "decode" && case.payload.startsWith("[{")) parseErrors(1) else case.expect
                var events: List<ChatEvent> = emptyList()
                val thrown = onStack(stack) { events = decode(case.payload) }
                val problem = when {
                    thrown != null -> "threw ${thrown.javaClass.name}"
                    !expect(events) -> "got ${events.map { it.toJson() }}"
                    else -> null
                }
                if (problem == null) passed++ else {
                    failed++
                    println("FAIL $how(${case.name}) on a $stackName: $problem")
                }
            }
        }
    }
    println("hostile: $passed passed, $failed failed")
    exitProcess(if (failed == 0 && passed > 0) 0 else 1)
}
