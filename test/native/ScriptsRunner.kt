/*
 * Prints the scripts ChatBridgeScripts builds for a set of commands and settings with hard
 * characters, one JSON line each: {"name", "script", "command"} or {"name", "script", "settings"}.
 * scripts/test-native.mjs evaluates each script in a JavaScript engine and checks that the bridge
 * receives exactly the command (or that window.chatBridgeSettings is exactly the settings).
 */
import dev.chatbridge.ChatBridgeScripts
import org.json.JSONArray
import org.json.JSONObject

private val HARD = listOf(
    "line\u2028separator" to "U+2028",
    "paragraph\u2029separator" to "U+2029",
    "quote \" backslash \\ slash /" to "quotes and backslashes",
    "</script><script>alert(1)</script>" to "a closing script tag",
    "nul \u0000 and \n newline \t tab" to "control characters",
    "emoji \uD83D\uDE00 and é" to "non-ASCII",
)

fun main() {
    for ((text, what) in HARD) {
        val params = JSONObject().put("content", text).put("attachments", JSONArray().put(JSONObject().put("name", text)))
        val command = JSONObject().put("id", "c-$what").put("method", "sendMessage").put("params", params)
        val script = ChatBridgeScripts.command("c-$what", "sendMessage", params)
        println(JSONObject().put("name", "command with $what").put("script", script).put("command", command))

        val settings = JSONObject().put("baseUrl", "https://chat.example.com/api/v1").put("websiteToken", text)
        val install = ChatBridgeScripts.install(settings, "window.installed = true;")
        println(JSONObject().put("name", "settings with $what").put("script", install).put("settings", settings))
    }
    val bare = ChatBridgeScripts.command("c-bare", "init")
    println(JSONObject().put("name", "command without params").put("script", bare)
        .put("command", JSONObject().put("id", "c-bare").put("method", "init").put("params", JSONObject())))
}
