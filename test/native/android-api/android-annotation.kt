/* A stand-in for android.annotation.TargetApi (see android.kt). */
package android.annotation

@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION, AnnotationTarget.CONSTRUCTOR)
@Retention(AnnotationRetention.BINARY)
annotation class TargetApi(val value: Int)
