/* A stand-in for android.net.Uri (see android.kt). */
@file:Suppress("unused")

package android.net

abstract class Uri
