/* A stand-in for android.content.Context (see android.kt). */
@file:Suppress("UNUSED_PARAMETER", "unused")

package android.content

import android.content.res.AssetManager

abstract class Context {
    abstract val applicationContext: Context
    abstract val assets: AssetManager
}
