/*
 * The JavaScript a host evaluates in the WebView: the bridge's settings with its script, and host
 * commands. Pure Kotlin over org.json, compiled and checked by `npm run test:native` (each script
 * is evaluated by a JavaScript engine there and must hand the bridge exactly the command built).
 */
package dev.chatbridge

import org.json.JSONObject

/** Builds the scripts to pass to `WebView.evaluateJavascript` or `addDocumentStartJavaScript`. */
object ChatBridgeScripts {
    /**
     * [json] made safe inside a script: U+2028 and U+2029 end a string literal in engines before
     * ES2019 (Android System WebView before 66), and org.json leaves them raw.
     */
    @JvmStatic
    fun jsSafe(json: String): String = json.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")

    /**
     * The script that installs the bridge: [settings] (the bridge's options: `baseUrl`,
     * `websiteToken`, ...) as `window.chatBridgeSettings`, then [script], the bundle or the
     * starter ([ChatBridgeAssets]). It carries the website token: never log it.
     */
    @JvmStatic
    fun install(settings: JSONObject, script: String): String =
        "window.chatBridgeSettings=${jsSafe(settings.toString())};$script"

    /**
     * The script that hands one host command to the bridge. Its answer arrives as a
     * [ChatEvent.Response] with the same [id]; pick ids that are unique for the page.
     */
    @JvmStatic
    fun command(id: String, method: String, params: JSONObject = JSONObject()): String {
        val command = JSONObject().put("id", id).put("method", method).put("params", params)
        return "ChatBridge.receive(${jsSafe(JSONObject.quote(command.toString()))})"
    }
}
