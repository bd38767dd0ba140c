/* Stand-ins for android.os.Looper, Handler and Bundle (see android.kt). */
@file:Suppress("UNUSED_PARAMETER", "unused")

package android.os

class Looper private constructor() {
    companion object {
        @JvmStatic
        fun getMainLooper(): Looper = android.webkit.standIn()
    }
}

open class Handler(looper: Looper) {
    fun post(r: Runnable): Boolean = android.webkit.standIn()
}

class Bundle
