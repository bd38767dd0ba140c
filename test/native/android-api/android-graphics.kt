/* A stand-in for android.graphics.Bitmap (see android.kt). */
@file:Suppress("unused")

package android.graphics

abstract class Bitmap
