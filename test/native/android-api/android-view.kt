/* Stand-ins for android.view.View, ViewParent and ViewGroup (see android.kt). */
@file:Suppress("UNUSED_PARAMETER", "unused")

package android.view

import android.content.Context
import android.webkit.standIn

interface ViewParent

open class View(context: Context) {
    /** Final in Android, as getParent(). */
    val parent: ViewParent? get() = standIn()
}

abstract class ViewGroup(context: Context) : View(context), ViewParent {
    open fun addView(child: View): Unit = standIn()
    open fun removeView(view: View): Unit = standIn()
}
