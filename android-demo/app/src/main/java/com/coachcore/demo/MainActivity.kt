// MainActivity.kt: shows the plan PlanDemoModel builds from the bundled sample output in a
// TextView. (Android code: not compiled on the Linux check machine; see android-demo/README.md.)
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
        }
    }
}
