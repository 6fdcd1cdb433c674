// PlanDemoModel.kt: the demo's non-UI logic in plain Kotlin (no android.* imports), so it also
// compiles and runs on a desktop JVM: android-demo/check.sh runs it with check/DemoCheck.kt.
package com.coachcore.demo

import uniffi.coachcore.Coach
import uniffi.coachcore.CoachException
import uniffi.coachcore.InternalException
import uniffi.coachcore.PlanTransform
import uniffi.coachcore.SchemaVersion
import uniffi.coachcore.selectPlanSchema

/** What the demo shows: readable lines, or an error message. Immutable; safe to pass between threads. */
data class PlanDemoResult(
    /** Plan title, summary, then each block with its exercises. Empty when [errorMessage] is set. */
    val lines: List<String>,
    /** Set when the transform (or opening the database) failed; null on success. */
    val errorMessage: String?,
)

/**
 * Opens a [Coach] on a database file, turns model output into a plan and formats it for display.
 *
 * [run] blocks (it opens the SQLite file and records the generation in it): call it on
 * `Dispatchers.IO`, never on the main thread.
 *
 * @param dbPath the SQLite file, e.g. `File(context.filesDir, "coach.sqlite").path`; created if absent.
 * @param modelOutput raw model text in the `v2-flat` schema.
 */
class PlanDemoModel(
    private val dbPath: String,
    private val modelOutput: String = SAMPLE_MODEL_OUTPUT,
) {
    /** Opens the database, picks the schema, transforms [modelOutput]. Never throws. */
    fun run(): PlanDemoResult =
        try {
            // A real app opens one Coach per file at startup and keeps it; the demo runs once and
            // closes it. Coach and the service objects it hands out (workouts(), ...) are
            // AutoCloseable; the connection closes when the Coach and every service object taken
            // from it are closed (or at once with coach.shutdown()).
            Coach.open(dbPath).use { coach ->
                val selection = selectPlanSchema(listOf(SchemaVersion.V2_FLAT), null)
                val transform = coach.workouts().use { it.transformPlan(modelOutput, selection) }
                PlanDemoResult(lines(transform), null)
            }
        } catch (e: CoachException.InvalidModelOutput) {
            // The model wrote something unusable: `code` says which rule, `path` where.
            PlanDemoResult(
                emptyList(),
                "The model output was rejected (${e.code}) at ${e.path ?: "top level"}: ${e.detail}",
            )
        } catch (e: CoachException) {
            // DatabaseTooNew, NotADatabase, Storage, ...: the file could not be used.
            PlanDemoResult(emptyList(), "coachcore failed: ${e::class.simpleName}: ${e.message}")
        } catch (e: InternalException) {
            // A panic inside the library (a bug): it arrives as InternalException, not CoachException.
            PlanDemoResult(emptyList(), "coachcore internal error: ${e.message}")
        }

    companion object {
        /** A plan as the on-device model writes it in the `v2-flat` schema (bundled for the demo). */
        const val SAMPLE_MODEL_OUTPUT =
            """{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai","energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,"focus":"Prep"},{"title":"Main Set","durationMinutes":20,"focus":"Strength"}],"exercises":[{"blockIndex":0,"order":0,"name":"Jumping Jacks","prescription":"2 x 30s","detail":null},{"blockIndex":1,"order":0,"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}"""

        /**
         * The same output with an exercise pointing at a block that does not exist (`blockIndex` 9):
         * the library rejects it with [CoachException.InvalidModelOutput].
         */
        val BROKEN_SAMPLE_MODEL_OUTPUT: String =
            SAMPLE_MODEL_OUTPUT.replace(""""blockIndex":1,""", """"blockIndex":9,""")

        /** The plan as display lines: title, summary, equipment, then blocks with their exercises. */
        fun lines(transform: PlanTransform): List<String> = buildList {
            val plan = transform.plan
            add("${plan.focus} (${plan.durationMinutes} min, ${plan.energy.name.lowercase()})")
            add(plan.summary)
            if (plan.equipment.isNotEmpty()) add("Equipment: ${plan.equipment.joinToString(", ")}")
            plan.blocks.forEachIndexed { i, block ->
                add("Block ${i + 1}: ${block.title} (${block.durationMinutes} min, ${block.focus})")
                for (exercise in block.exercises) {
                    add("  - ${exercise.name}: ${exercise.prescription}" +
                        (exercise.detail?.let { " ($it)" } ?: ""))
                }
            }
            add("Schema ${transform.schemaVersion}, ruleset ${transform.rulesetVersion}")
        }
    }
}
