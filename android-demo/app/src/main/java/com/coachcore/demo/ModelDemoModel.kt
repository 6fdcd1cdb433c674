// ModelDemoModel.kt: the demo's on-device model, in plain Kotlin (no android.* imports), so it also
// compiles and runs on a desktop JVM: android-demo/check.sh runs it with check/DemoCheck.kt.
//
// The library never downloads a model. The app ships a GGUF file (MainActivity copies
// `assets/model.gguf` to `<filesDir>/model.gguf` once: an asset inside the APK has no file path)
// or downloads one to `<filesDir>/model.gguf` itself, then passes the file's path to
// `coach.model().load`. This class loads it (with the memory pre-flight), shows what it is and asks it
// for today's plan.
package com.coachcore.demo

import uniffi.coachcore.Coach
import uniffi.coachcore.CoachException
import uniffi.coachcore.InternalException
import uniffi.coachcore.LoadedModelInfo
import uniffi.coachcore.ModelOptions
import uniffi.coachcore.TodayPlanRequest
import java.io.File

/**
 * Loads the GGUF model file and generates today's plan with it.
 *
 * [run] blocks (it reads the file, then generates for seconds): call it on `Dispatchers.IO` (or
 * `Dispatchers.Default`), never on the main thread.
 *
 * @param dbPath the SQLite file, e.g. `File(context.filesDir, "coach.sqlite").path`.
 * @param modelPath the GGUF file; null when the app has not shipped or downloaded one.
 */
class ModelDemoModel(
    private val dbPath: String,
    private val modelPath: String?,
) {
    /** Loads the model and generates the plan for [today] (`YYYY-MM-DD`). Never throws. */
    fun run(today: String): PlanDemoResult {
        if (modelPath == null) {
            return PlanDemoResult(
                emptyList(),
                "No model yet: add assets/$FILE_NAME to the app, or download one to <filesDir>/$FILE_NAME.",
            )
        }
        return try {
            Coach.open(dbPath).use { coach ->
                // 2048 tokens of context: enough for a plan; the KV cache grows with it.
                // Closing the Coach and the service objects taken from it (model(), workouts()) lets
                // go of the model's memory and the database file.
                val info = coach.model().use { it.load(modelPath, ModelOptions(contextTokens = 2048u, threads = null)) }
                val plan = coach.workouts().use {
                    it.todayPlan(TodayPlanRequest(date = today, notes = "30 minutes, upper body, dumbbells only"))
                }
                PlanDemoResult(describe(info) + PlanDemoModel.lines(plan), null)
            }
        } catch (e: CoachException.InsufficientMemory) {
            // Refused before loading: the app would have been killed. Offer a smaller model.
            PlanDemoResult(
                emptyList(),
                "This model needs ${e.neededBytes / MB} MB; the device has ${e.availableBytes / MB} MB free. Try a smaller model.",
            )
        } catch (e: CoachException.ModelUnusable) {
            // Missing file, not GGUF, an architecture this build cannot run, or no engine.
            PlanDemoResult(emptyList(), "The model cannot be used: ${e.detail}")
        } catch (e: CoachException) {
            PlanDemoResult(emptyList(), "coachcore failed: ${e::class.simpleName}: ${e.message}")
        } catch (e: InternalException) {
            PlanDemoResult(emptyList(), "coachcore internal error: ${e.message}")
        }
    }

    companion object {
        /** The file name the demo looks for in `filesDir` (and in the APK's assets). */
        const val FILE_NAME = "model.gguf"
        private val MB = 1_048_576uL

        /** `<dir>/model.gguf` when it exists (shipped and copied, or downloaded), else null. */
        fun findModel(dir: File): String? = File(dir, FILE_NAME).takeIf { it.isFile }?.path

        /** What the loaded model is, as display lines. */
        fun describe(info: LoadedModelInfo): List<String> = buildList {
            add("Model: ${info.name}")
            info.parameterCount?.let { add("  ${it / 1_000_000uL}M parameters") }
            info.quantization?.let { add("  quantization $it") }
            add("  context ${info.contextTokens} tokens")
            info.estimatedMemoryBytes?.let { add("  about ${it / MB} MB in memory") }
        }
    }
}
