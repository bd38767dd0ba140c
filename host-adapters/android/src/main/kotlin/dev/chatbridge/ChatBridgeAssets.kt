/*
 * The bridge's scripts as this library ships them: src/main/assets/chat-bridge/, copied from the
 * npm package's dist/ by its build, merged into the app's assets by Gradle. Android glue
 * (AssetManager): compiled against stand-ins by `npm run test:native`, not run there.
 */
package dev.chatbridge

import android.content.Context

/** Reads the bundle and the starter from the app's assets, once each. */
class ChatBridgeAssets(context: Context) {
    private val assets = context.applicationContext.assets

    /** `chat-bridge.js`: the bridge, to inject at document start (or after load, with the starter). */
    val bundle: String by lazy { read("$FOLDER/chat-bridge.js") }

    /** `chat-bridge.start.js`: the small starter, for document start when the bundle comes after load. */
    val starter: String by lazy { read("$FOLDER/chat-bridge.start.js") }

    private fun read(path: String): String = assets.open(path).bufferedReader(Charsets.UTF_8).use { it.readText() }

    companion object {
        /** Where the scripts are in the assets. */
        const val FOLDER = "chat-bridge"
    }
}
