// SystemCleanerStub.kt: android.system.SystemCleaner (API 33+) for the desktop check of the AAR's
// Kotlin (android/check.sh): the same contract, a process-wide java.lang.ref.Cleaner. Never shipped.
package android.system

object SystemCleaner {
    private val shared: java.lang.ref.Cleaner = java.lang.ref.Cleaner.create()

    @JvmStatic fun cleaner(): java.lang.ref.Cleaner = shared
}
