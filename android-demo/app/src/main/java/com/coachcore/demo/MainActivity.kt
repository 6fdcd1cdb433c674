// MainActivity.kt: shows the plan PlanDemoModel builds from the bundled sample output in a
// TextView, then the plan the on-device model writes (ModelDemoModel: the GGUF file the app ships
// as assets/model.gguf or downloads to <filesDir>/model.gguf). (Android code: not compiled on the
// Linux check machine; see android-demo/README.md.)
//
// Start it with the broken sample (an exercise with blockIndex 9) to see the error path:
//   adb shell am start -n com.coachcore.demo/.MainActivity --ez broken true
package com.coachcore.demo

import android.os.Bundle
import android.widget.ScrollView
import android.widget.TextView
import androidx.activity.ComponentActivity
import androidx.lifecycle.lifecycleScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import java.io.File
import java.io.FileNotFoundException
import java.text.SimpleDateFormat
import java.util.Date
import java.util.Locale

class MainActivity : ComponentActivity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        val text = TextView(this).apply {
            setPadding(48, 48, 48, 48)
            textSize = 16f
            setText("Transforming the sample plan…")
        }
        setContentView(ScrollView(this).apply {
            fitsSystemWindows = true // keep clear of the status bar (edge-to-edge on Android 15)
            addView(text)
        })

        // App-private storage: <filesDir>/coach.sqlite, created by the library on first open.
        val dbPath = File(filesDir, "coach.sqlite").path
        val modelOutput = if (intent.getBooleanExtra("broken", false)) {
            PlanDemoModel.BROKEN_SAMPLE_MODEL_OUTPUT
        } else {
            PlanDemoModel.SAMPLE_MODEL_OUTPUT
        }

        lifecycleScope.launch {
            // run() opens SQLite and writes to it: keep it off the main thread.
            val result = withContext(Dispatchers.IO) { PlanDemoModel(dbPath, modelOutput).run() }
            text.text = (listOfNotNull(result.errorMessage) + result.lines).joinToString("\n")

            text.append("\n\nOn-device model: loading…")
            // Loading reads the file and generation takes seconds: off the main thread too.
            val modelResult = withContext(Dispatchers.IO) {
                val modelPath = ModelDemoModel.findModel(filesDir) ?: copyShippedModel()
                // The user's local date, YYYY-MM-DD (java.time needs API 26; minSdk is 24).
                val today = SimpleDateFormat("yyyy-MM-dd", Locale.US).format(Date())
                ModelDemoModel(dbPath, modelPath).run(today)
            }
            text.text = (listOfNotNull(result.errorMessage) + result.lines + "" + "On-device model:" +
                listOfNotNull(modelResult.errorMessage) + modelResult.lines).joinToString("\n")
        }
    }

    /**
     * Copies `assets/model.gguf`, if the APK ships one, to `<filesDir>/model.gguf` (an asset has no
     * file path for the library to open) and returns that path; null without the asset. Copies to a
     * temporary name first, so an interrupted copy is never taken for the model.
     */
    private fun copyShippedModel(): String? {
        val target = File(filesDir, ModelDemoModel.FILE_NAME)
        val partial = File(filesDir, ModelDemoModel.FILE_NAME + ".part")
        try {
            assets.open(ModelDemoModel.FILE_NAME).use { input ->
                partial.outputStream().use { input.copyTo(it) }
            }
        } catch (e: FileNotFoundException) {
            return null
        }
        return if (partial.renameTo(target)) target.path else null
    }
}
