// AndroidxStubs.kt: androidx.annotation.RequiresApi and android.system.SystemCleaner for the
// desktop check of the AAR's Kotlin (android/check.sh). Never shipped.
@file:Suppress("unused")

package androidx.annotation

@Retention(AnnotationRetention.BINARY)
annotation class RequiresApi(val value: Int = 1, val api: Int = 1)
