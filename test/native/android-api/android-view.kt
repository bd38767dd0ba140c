/* A stand-in for android.view.View (see android.kt). */
@file:Suppress("UNUSED_PARAMETER", "unused")

package android.view

import android.content.Context

open class View(context: Context)
