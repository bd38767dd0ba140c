/*
 * Stand-ins for the activity the docs' whole-screen snippet extends, and what it calls
 * (androidx.appcompat's AppCompatActivity, android.os.Bundle, android.view.View, android.util.Log;
 * see android.kt).
 */
@file:Suppress("UNUSED_PARAMETER", "unused")

package androidx.appcompat.app

import android.content.Context
import android.content.res.AssetManager
import android.os.Bundle
import android.view.View
import android.webkit.standIn

open class AppCompatActivity : Context() {
    override val applicationContext: Context get() = standIn()
    override val assets: AssetManager get() = standIn()
    protected open fun onCreate(savedInstanceState: Bundle?) {}
    open fun setContentView(view: View) {}
}
