/* A stand-in for android.util.Log (see android.kt). */
@file:Suppress("UNUSED_PARAMETER", "unused")

package android.util

import android.webkit.standIn

object Log {
    @JvmStatic
    fun i(tag: String, msg: String): Int = standIn()

    @JvmStatic
    fun w(tag: String, msg: String): Int = standIn()
}
