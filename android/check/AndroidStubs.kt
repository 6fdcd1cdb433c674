// AndroidStubs.kt: the three Android APIs the Android flavour of the generated bindings uses
// (`uniffi-android.toml`: `android = true`), for compiling and running the AAR's Kotlin on a
// desktop JVM (android/check.sh). Never shipped: on a device these are Android's own classes.
// `-Dandroid.sdk=34` takes the API 34+ path (SystemCleaner), 0 the JNA cleaner below it.
@file:Suppress("ClassName", "unused")

package android.os

object Build {
    object VERSION {
        /** The device's API level: a run-time value on Android, a system property here. */
        @JvmField val SDK_INT: Int = Integer.getInteger("android.sdk", 0)
    }

    object VERSION_CODES {
        const val UPSIDE_DOWN_CAKE = 34
    }
}
