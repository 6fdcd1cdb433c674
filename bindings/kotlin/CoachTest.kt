// Binding test for coachcore on the JVM: the generated Kotlin (package uniffi.coachcore) + JNA.
// Run by bindings/kotlin/test.sh. Prints "N passed, M failed"; exit code 1 on any failure.
import uniffi.coachcore.*
import java.io.File
import java.nio.file.Files
import kotlin.system.exitProcess

const val WORKED_EXAMPLE = """{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai","energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,"focus":"Prep"},{"title":"Main Set","durationMinutes":20,"focus":"Strength"}],"exercises":[{"blockIndex":0,"order":0,"name":"Jumping Jacks","prescription":"2 x 30s","detail":null},{"blockIndex":1,"order":0,"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}"""

val BAD_BLOCK_INDEX = WORKED_EXAMPLE.replace(
    """{"blockIndex":1,"order":0,"name":"DB Press"""",
    """{"blockIndex":5,"order":0,"name":"DB Press"""",
)

const val V1_EXAMPLE = """{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai","energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,"focus":"Prep","exercises":[{"name":"Jumping Jacks","prescription":"2 x 30s","detail":null}]},{"title":"Main Set","durationMinutes":20,"focus":"Strength","exercises":[{"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}]}"""

val UUID_LIKE = Regex("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")

val V2 = SchemaSelection(SchemaVersion.V2_FLAT, SelectionReason.OVERRIDE)
val V1 = SchemaSelection(SchemaVersion.V1_CURRENT, SelectionReason.OVERRIDE)

class Failure(msg: String) : Exception(msg)

fun check(cond: Boolean, msg: () -> String) {
    if (!cond) throw Failure(msg())
}

fun <T> eq(actual: T, expected: T, what: String) =
    check(actual == expected) { "$what: expected <$expected>, got <$actual>" }

inline fun <reified E : Throwable> expectThrows(what: String, block: () -> Unit): E {
    try {
        block()
    } catch (e: Throwable) {
        if (e is E) return e
        throw Failure("$what: expected ${E::class.simpleName}, got $e")
    }
    throw Failure("$what: expected ${E::class.simpleName}, nothing was thrown")
}

fun tempDir(): File = Files.createTempDirectory("coachcore-kotlin-").toFile()

fun allIds(plan: TodayPlan): List<String> =
    listOf(plan.id) + plan.blocks.flatMap { b -> listOf(b.id) + b.exercises.map { it.id } }

fun checkWorkedExample(plan: TodayPlan) {
    eq(plan.focus, "Upper Body Strength", "focus")
    eq(plan.durationMinutes, 30u, "durationMinutes")
    eq(plan.equipment, listOf("Dumbbells"), "equipment")
    eq(plan.source, PlanSource.AI, "source")
    eq(plan.energy, Energy.MODERATE, "energy")
    eq(plan.summary, "Sample plan", "summary")
    eq(plan.blocks.size, 2, "blocks.size")
    eq(plan.blocks.map { it.title }, listOf("Warm-up", "Main Set"), "block titles")
    eq(plan.blocks.map { it.durationMinutes }, listOf(5u, 20u), "block durations")
    eq(plan.blocks.map { it.focus }, listOf("Prep", "Strength"), "block focus")
    eq(plan.blocks[0].exercises.map { it.name }, listOf("Jumping Jacks"), "block 0 exercises")
    eq(plan.blocks[1].exercises.map { it.name }, listOf("DB Press"), "block 1 exercises")
    val jj = plan.blocks[0].exercises[0]
    eq(jj.prescription, "2 x 30s", "Jumping Jacks prescription")
    eq(jj.detail, null, "Jumping Jacks detail")
    val press = plan.blocks[1].exercises[0]
    eq(press.prescription, "3 x 10", "DB Press prescription")
    eq(press.detail, "Controlled tempo", "DB Press detail")
    val ids = allIds(plan)
    for (id in ids) check(UUID_LIKE.matches(id)) { "id <$id> is not UUID-like" }
    eq(ids.toSet().size, ids.size, "distinct ids")
}

fun writeGarbage(file: File): ByteArray {
    val bytes = ByteArray(4096) { i -> ((i * 37 + 11) % 251).toByte() }
    "this is not a sqlite database\n".toByteArray().copyInto(bytes)
    file.writeBytes(bytes)
    return bytes
}

// ---- suggestions (spec 004): one barbell exercise in a one-exercise plan ----

const val DAY_MS = 86_400_000L
const val T0_MS = 1_763_000_000_000L
const val PLAN_ID = "push-day"
const val RX_ID = "rx-bench"
const val DOUBLE_PROGRESSION = "double_progression_range"

fun benchExercise() = CatalogExercise("bench", "Bench Press", Equipment.BARBELL, listOf(Muscle.CHEST))

/** Bench 3 x 8-12 at 135 lb, all sets resting 120 s. */
fun pushPlan() = WorkoutPlan(
    settings = PlanSettings(PLAN_ID, WeightUnit.LBS, TrainingStyle.STRAIGHT_SETS, LoadConfig(emptyList(), 0.0, emptyList())),
    name = "Push day",
    exercises = listOf(
        ExercisePrescription(
            id = RX_ID, catalogId = "bench", position = 0u,
            repRange = RepRange(RepRangeMode.RANGE, lower = 8u, upper = 12u, target = 0u),
            restMode = RestMode.ALL_SAME, restSeconds = 120u,
            sets = (0u until 3u).map { SetPrescription(it, SetType.REGULAR, 135.0, 8u, 120u) },
        ),
    ),
)

fun performedSets(reps: UInt = 12u): List<PerformedSet> =
    (0u until 3u).map { PerformedSet(it, SetType.REGULAR, weight = 135.0, reps = reps, restSeconds = 120u, completed = true) }

/** Session sN, 2 days after s(N-1): bench 3 x [reps] at 135 (12: the top of the range). */
fun sessionLog(n: Int, planId: String? = PLAN_ID, reps: UInt = 12u) = SessionLog(
    id = "s$n", planId = planId, performedAtMs = T0_MS + 2 * n * DAY_MS,
    exercises = listOf(ExerciseLog("bench-s$n", "bench", RX_ID, performedSets(reps))),
)

/** Session sN's bench performance, as the engine sees it (for evaluateExercise). */
fun performance(n: Int) = ExercisePerformance("bench-s$n", "s$n", "bench", T0_MS + 2 * n * DAY_MS, performedSets())

/** Saves the exercise and the plan and logs s0 and s1. */
fun setupLogged(coach: Coach) {
    coach.workouts().saveCatalogExercise(benchExercise())
    coach.workouts().savePlan(pushPlan())
    coach.workouts().logSession(sessionLog(0))
    coach.workouts().logSession(sessionLog(1))
}

fun weightChanges(changes: List<PrescriptionChange>) = changes.filter { it.draft.property == ChangeProperty.WEIGHT }

fun targetWeights(coach: Coach): List<Double> =
    (coach.workouts().plan(PLAN_ID) ?: throw Failure("plan $PLAN_ID is missing")).exercises[0].sets.map { it.targetWeight }

/** The weight changes of s1: double-progression increases 135 -> 140 on sets 0 and 1, by set. */
fun checkIncreases(changes: List<PrescriptionChange>): List<PrescriptionChange> {
    val incs = weightChanges(changes).sortedBy { it.draft.targetSetIndex }
    eq(incs.map { it.draft.targetSetIndex }, listOf(0u, 1u), "weight change sets (all changes: $changes)")
    for (c in incs) {
        val d = c.draft
        eq(d.changeType, ChangeType.INCREASE_WEIGHT, "changeType")
        eq(d.ruleId, DOUBLE_PROGRESSION, "ruleId")
        eq(d.source, SuggestionSource.RULE, "source")
        eq(d.oldValue, ChangeValue.Number(135.0), "oldValue")
        eq(d.newValue, ChangeValue.Number(140.0), "newValue")
        eq((d.newValue as? ChangeValue.Number)?.value, 140.0, "newValue as Number")
        check(d.reasoning.isNotBlank()) { "reasoning is blank" }
        eq(d.evidence.performanceIds, listOf("bench-s1", "bench-s0"), "evidence.performanceIds")
    }
    return incs
}

// ---- an app-provided language model: the library's LanguageModel trait implemented in Kotlin ----

const val MID_REPS = 10u // mid-range (8-12): the rules propose reps increases only, no weight or rest change
const val AI_REST = 120.0 + 30.0 // the fake's exercise-level rest: the current 120 s + 30
const val AI_REASONING = "Reps held at 10 on 120 s; 150 s of rest should help you reach 12."
const val TOOL_CALL = """{"tool":"getRecentExercisePerformances","limit":2}"""
const val FINAL_ANSWER = """{"suggestions":[""" +
    """{"changeType":"increaseRest","targetSetIndex":-1,"newValue":150,"reasoning":"$AI_REASONING"},""" +
    """{"changeType":"increaseReps","targetSetIndex":9,"newValue":9,"reasoning":"There is no set 9."}]}"""
/** The user's texts, which must never reach the log. */
val PRIVATE_TEXTS = listOf("Bench Press", "Push day", AI_REASONING)

/** Saves the exercise and the plan and logs s0 and s1 at 3 x 10 (mid-range). */
fun setupMidRange(coach: Coach) {
    coach.workouts().saveCatalogExercise(benchExercise())
    coach.workouts().savePlan(pushPlan())
    coach.workouts().logSession(sessionLog(0, reps = MID_REPS))
    coach.workouts().logSession(sessionLog(1, reps = MID_REPS))
}

fun aiChanges(changes: List<PrescriptionChange>) = changes.filter { it.draft.source == SuggestionSource.AI }

/**
 * A LanguageModel implemented in Kotlin: records every request and replies from a script (the last
 * reply repeats, so repairs get it again). [fail] is thrown from generate; [stream] sends the reply in
 * pieces to the listener when the library passes one; [checkCancel] asks the CancelToken on every call.
 */
class FakeModel(
    private val replies: List<String> = listOf(TOOL_CALL, FINAL_ANSWER),
    private val name: String = "fake-kotlin-model",
    private val fail: LlmException? = null,
    private val stream: Boolean = false,
    private val checkCancel: Boolean = false,
) : LanguageModel {
    val requests: MutableList<GenerationRequest> = java.util.Collections.synchronizedList(mutableListOf())
    val listenerPassed: MutableList<Boolean> = java.util.Collections.synchronizedList(mutableListOf())
    val streamed: MutableList<String> = java.util.Collections.synchronizedList(mutableListOf())
    val cancelled: MutableList<Boolean> = java.util.Collections.synchronizedList(mutableListOf())
    val infoCalls = java.util.concurrent.atomic.AtomicInteger()

    override fun info(): ModelInfo {
        infoCalls.incrementAndGet()
        return ModelInfo(name, 4096u, false)
    }

    override fun generate(request: GenerationRequest, listener: TokenListener?, cancel: CancelToken): GenerationResult {
        val n = synchronized(requests) { requests.add(request); requests.size }
        listenerPassed.add(listener != null)
        if (checkCancel) cancelled.add(cancel.isCancelled())
        fail?.let { throw it }
        val text = replies[minOf(n, replies.size) - 1]
        if (stream && listener != null) {
            val pieces = text.chunked(7)
            for (piece in pieces) listener.onToken(piece)
            streamed.add(pieces.joinToString(""))
        }
        return GenerationResult(text, FinishReason.STOP, (100 * request.messages.size).toUInt(),
            (text.length / 4).toUInt(), 1uL, 2uL)
    }
}

data class LogRecord(val level: LogLevel, val target: String, val message: String)

/** A LogListener implemented in Kotlin: keeps every record. */
class CollectingLogListener : LogListener {
    val records: MutableList<LogRecord> = java.util.Collections.synchronizedList(mutableListOf())
    override fun onLog(level: LogLevel, target: String, message: String) {
        records.add(LogRecord(level, target, message))
    }
}

/** The fake's exercise-level rest increase was kept and its set-9 suggestion dropped. */
fun checkAiRun(changes: List<PrescriptionChange>, fake: FakeModel) {
    val ai = aiChanges(changes)
    eq(ai.size, 1, "AI changes (all changes: $changes)")
    val d = ai[0].draft
    eq(d.source, SuggestionSource.AI, "AI source")
    eq(d.ruleId, null, "AI ruleId")
    eq(d.changeType, ChangeType.INCREASE_REST, "AI changeType")
    eq(d.property, ChangeProperty.REST, "AI property")
    eq(d.targetSetIndex, null, "AI targetSetIndex (exercise-level rest)")
    eq(d.oldValue, ChangeValue.Number(120.0), "AI oldValue")
    eq(d.newValue, ChangeValue.Number(AI_REST), "AI newValue")
    eq(d.reasoning, AI_REASONING, "AI reasoning")
    check("bench-s1" in d.evidence.performanceIds) { "AI evidence ${d.evidence.performanceIds}" }
    eq(ai[0].prescriptionId, RX_ID, "AI prescriptionId")
    eq(changes.filter { it.draft.targetSetIndex == 9u }, emptyList(), "changes on set 9 (does not exist)")
    eq(weightChanges(changes), emptyList(), "mid-range: weight changes")
    check(changes.any { it.draft.source == SuggestionSource.RULE }) { "the rules did not run: $changes" }
    check(fake.requests.size >= 2) { "a tool call and the final answer: ${fake.requests.size} requests" }
}

fun <T> withLogListener(listener: LogListener, level: LogLevel, block: () -> T): T {
    setLogListener(listener, level)
    try {
        return block()
    } finally {
        setLogListener(null, LogLevel.INFO)
    }
}

// ---- the assistant (spec 002): a Kotlin listener, an app-implemented model, apply and reads ----

const val TODAY = "2026-11-20" // a Friday: its week runs from Monday 2026-11-16 to Sunday 2026-11-22
const val PROPOSAL = """{"operations":[{"op":"create","kind":"todo","title":"Call mom","scheduledFor":"2026-11-21","priority":"High"}]}"""
const val ASSISTANT_SUMMARY = "I added a call to mom on Saturday."

/** An AssistantListener implemented in Kotlin: keeps every event but heartbeats. */
class CollectingAssistantListener : AssistantListener {
    val events: MutableList<AssistantEvent> = java.util.Collections.synchronizedList(mutableListOf())
    override fun onEvent(event: AssistantEvent) {
        if (event != AssistantEvent.Heartbeat) events.add(event)
    }
}

fun eventName(e: AssistantEvent) = when (e) {
    is AssistantEvent.Stage -> "stage"
    is AssistantEvent.Clarify -> "clarify"
    is AssistantEvent.Ops -> "ops"
    is AssistantEvent.TextDelta -> "textDelta"
    is AssistantEvent.Summary -> "summary"
    is AssistantEvent.Result -> "result"
    AssistantEvent.Heartbeat -> "heartbeat"
    AssistantEvent.Done -> "done"
}

/** A model whose generate blocks until the call is cancelled; [started] opens when it runs, [stopped] when it saw the cancel. */
class BlockingModel : LanguageModel {
    val started = java.util.concurrent.CountDownLatch(1)
    val stopped = java.util.concurrent.CountDownLatch(1)
    override fun info() = ModelInfo("blocking-kotlin-model", 4096u, false)
    override fun generate(request: GenerationRequest, listener: TokenListener?, cancel: CancelToken): GenerationResult {
        started.countDown()
        while (!cancel.isCancelled()) Thread.sleep(2)
        stopped.countDown()
        throw LlmException.Cancelled()
    }
}

fun todoOp(title: String, date: String? = null, priority: Priority? = null) =
    PlannerOperation(OpType.CREATE, ItemKind.TODO, title = title, scheduledFor = date, priority = priority)

fun dailyHabit(title: String, anchor: String) = PlannerOperation(OpType.CREATE, ItemKind.HABIT, title = title,
    scheduledFor = anchor, timeOfDay = "21:00", recurrence = Recurrence(RecurrenceType.DAILY))

fun planRequest(message: String) = AssistantRequest(message, AssistantMode.PLAN, today = TODAY)


// ---- meal planning (spec 003): recipes, a plan job without a model, history, staging ----

/** The starter recipes of the repository (test.sh passes the repository as -Dcoachcore.repo). */
fun starterRecipesJson(): String =
    File(System.getProperty("coachcore.repo") ?: ".", "tests/data/recipes/starter.json").readText()

const val FALLBACK_WARNING = "Model unavailable: picked by the deterministic fallback"

fun mealSlot(servings: UInt, tags: List<String> = emptyList(), note: String? = null) =
    MealSlotRequest(servings, tags, note, false, null, null)

fun dayMeals(breakfast: MealSlotRequest? = null, lunch: MealSlotRequest? = null, dinner: MealSlotRequest? = null) =
    MealsRequest(breakfast, lunch, dinner, null, null)

fun mealRequest(days: List<Pair<String, MealsRequest>>, excluded: List<String> = emptyList()) =
    MealPlanRequest(days.map { DayRequest(it.first, it.second) }, MealPreferences(null, excluded, null, null), null)

/** A MealPlanListener implemented in Kotlin: keeps every event. */
class CollectingMealListener : MealPlanListener {
    val events: MutableList<MealPlanEvent> = java.util.Collections.synchronizedList(mutableListOf())
    override fun onEvent(event: MealPlanEvent) {
        events.add(event)
    }
}


// ---- workouts (spec 001) and today-plan generation (spec 000) ----

class CollectingWorkoutListener : WorkoutListener {
    val stages: MutableList<WorkoutStage> = java.util.Collections.synchronizedList(mutableListOf())
    override fun onEvent(event: WorkoutEvent) {
        stages.add(event.stage)
    }
}

/** `tests/data/workout/request.json` as records. */
fun workoutRequest() = WorkoutRequest(
    meta = WorkoutMeta(date = "2025-08-17", location = "gym:downtown", units = WeightUnit.LBS,
        durationMinutes = 60u, goal = Goal.HYPERTROPHY),
    instructions = "Upper/lower split, 3 days a week.\n- no bb-deadlift",
    bans = listOf("eq_smith_machine"),
    equipment = listOf("eq_barbell_olympic", "eq_squat_rack", "eq_bench_adjustable", "eq_dumbbells_set_5-50",
        "eq_cable_machine_dual_stack", "eq_pullup_bar"),
    recentCardio = listOf(CardioActivity(date = "2025-08-16", activityType = "run", durationMinutes = 45u,
        relativeEffort = 62u)),
    upcomingCardio = "Long run (90 min) on 2025-08-19.",
    recovery = Recovery(sleepScore = 72u, bodyBattery = 58u),
    historyText = null,
)

fun todayPlanRequest() = TodayPlanRequest(date = "2025-08-18", notes = "30 minutes, upper body",
    schemaVersion = null, timezone = "Europe/Berlin", seed = 7uL)

val tests: List<Pair<String, () -> Unit>> = listOf(
    "workout: generate (no model), list, get, log back, validate" to {
        Coach.openInMemory().use { coach ->
            val listener = CollectingWorkoutListener()
            val result = coach.workouts().generate(workoutRequest(), listener).use { task ->
                val r = task.wait()
                check(task.isFinished()) { "not finished" }
                r
            }
            eq(result.source, WorkoutSource.DETERMINISTIC, "source")
            val workout = result.workout
            eq(workout.workoutId, "2025-08-17-gym-downtown-01", "workout id")
            // The original app's shape (issue 23): the number 1.2, the tiers to drop, C first.
            eq(workout.version, 1.2, "version")
            eq(workout.cutOrder, listOf("C", "B"), "cut order")
            check(workout.sets.none { it.equipment == "eq_smith_machine" }) { "a banned key" }
            eq(listener.stages.toList(), listOf(WorkoutStage.PRE_ANALYSIS, WorkoutStage.DONE), "stages")
            val listed = coach.workouts().list(10u)
            eq(listed.map { it.workoutId }, listOf(workout.workoutId), "listed")
            eq(listed[0].logged, false, "logged before")
            eq(coach.workouts().get(workout.workoutId), result, "read back")
            eq(coach.workouts().get("no-such-workout"), null, "unknown id")
            val first = workout.sets[0]
            coach.workouts().log(WorkoutLog(workout.workoutId, 1_755_432_000_000L,
                listOf(SetActual(first.id, 95.0, 8u)), null))
            eq(coach.workouts().list(10u)[0].logged, true, "logged after")
            val logged = coach.workouts().get(workout.workoutId)!!.workout.sets[0]
            eq(Pair(logged.actualWeight, logged.actualReps), Pair(95.0, 8u), "actual values")
            expectThrows<CoachException.NotFound>("unknown workout") {
                coach.workouts().log(WorkoutLog("nope", 0L, listOf(), null))
            }
            val ok = validateWorkoutYaml(result.yaml)
            eq(ok.workout, workout, "valid yaml")
            eq(ok.error, null, "no error")
            val bad = validateWorkoutYaml(result.yaml.replaceFirst("id: ${first.id}", "id: bad"))
            eq(bad.workout, null, "invalid yaml")
            eq(bad.error?.code, "schema_violation", "code")
            eq(bad.error?.path, "sets[0].id", "path")
            eq(validateWorkoutYaml("sets: [").error?.code, "invalid_yaml", "broken yaml")
            // The library's earlier form (version '1.2', cut_order set ids) is read as the original's.
            val tiers = "cut_order:\n- C\n- B\n"
            check(result.yaml.startsWith("version: 1.2\n") && result.yaml.contains(tiers)) { result.yaml }
            val lastOf = { t: SetTier -> workout.sets.last { it.tier == t }.id }
            val earlier = validateWorkoutYaml(result.yaml.replaceFirst("version: 1.2\n", "version: '1.2'\n")
                .replaceFirst(tiers, "cut_order:\n- ${lastOf(SetTier.B)}\n- ${lastOf(SetTier.C)}\n"))
            eq(earlier.workout, workout, "earlier form upgraded")
            val bFirst = validateWorkoutYaml(result.yaml.replaceFirst(tiers, "cut_order:\n- B\n- C\n"))
            eq(bFirst.error?.path, "cut_order[1]", "C is cut before B")
        }
    },
    "plan: workouts().todayPlan with an app model picking per slot, repaired; deterministic otherwise; saved, done" to {
        Coach.openInMemory().use { coach ->
            val d = coach.workouts().todayPlan(todayPlanRequest())
            eq(d.plan.source, PlanSource.DETERMINISTIC, "no model: code's plan")
            eq(d.fallbackReason, PlanFallbackReason.NO_MODEL, "fallback reason")
            eq(coach.workouts().savedTodayPlan("2025-08-18")?.plan, d.plan, "saved")
            // One exercise per slot of today's skeleton ("30 minutes, upper body", a full gym).
            val model = FakeModel(replies = listOf("""{"focus": 1}""", """{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}"""))
            coach.model().set(model)
            val t = coach.workouts().todayPlan(todayPlanRequest())
            eq(t.schemaVersion, SchemaVersion.V1_CURRENT, "schema version")
            eq(t.plan.focus, "Upper Body Session", "focus")
            eq(t.plan.durationMinutes, 30u, "durationMinutes")
            eq(t.plan.blocks.map { it.title }, listOf("Warm-up", "Main Lifts", "Accessories", "Cool-down"), "blocks")
            eq(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press", "the model's pick")
            eq(model.requests.size, 2, "one repair")
            check(model.requests[0].jsonSchema!!.contains("\"A1\"")) { "one enum per slot" }
            eq(coach.workouts().planGenerations(1u)[0].feature, "plan.generate", "recorded")
            coach.model().set(FakeModel(replies = listOf("no json")))
            val f = coach.workouts().todayPlan(todayPlanRequest())
            eq(f.fallbackReason, PlanFallbackReason.INVALID_ANSWERS, "invalid answers")
            eq(f.plan.source, PlanSource.DETERMINISTIC, "invalid answers: code's plan")
            val saved = coach.workouts().recentTodayPlans(5u)
            eq(saved.size, 1, "one plan per seed and date")
            val performed = saved[0].targets.map { TodayExerciseDone(it.exerciseId, listOf(TodaySetDone(20.0, 8u))) }
            val done = coach.workouts().markTodayPlanDone(f.plan.id, performed, 1_755_500_000_000L)
            eq(done.doneAtMs, 1_755_500_000_000L, "done")
            eq(done.sessionId, "today:${f.plan.id}", "logged as a session")
            expectThrows<CoachException.InvalidArgument>("done once") {
                coach.workouts().markTodayPlanDone(f.plan.id, null, null)
            }
        }
    },
    "libraryVersion" to {
        check(libraryVersion().isNotBlank()) { "libraryVersion() is blank" }
    },
    "selectPlanSchema override wins" to {
        Coach.openInMemory().use { coach ->
            val all = listOf(SchemaVersion.V1_CURRENT, SchemaVersion.V2_FLAT)
            eq(selectPlanSchema(all, SchemaVersion.V1_CURRENT),
                SchemaSelection(SchemaVersion.V1_CURRENT, SelectionReason.OVERRIDE), "override v1")
            eq(selectPlanSchema(listOf(SchemaVersion.V1_CURRENT), SchemaVersion.V2_FLAT),
                SchemaSelection(SchemaVersion.V2_FLAT, SelectionReason.OVERRIDE), "override beats single supported")
        }
    },
    "selectPlanSchema single supported and smallest estimate" to {
        Coach.openInMemory().use { coach ->
            eq(selectPlanSchema(listOf(SchemaVersion.V1_CURRENT), null),
                SchemaSelection(SchemaVersion.V1_CURRENT, SelectionReason.SINGLE_SUPPORTED), "single v1")
            eq(selectPlanSchema(listOf(SchemaVersion.V2_FLAT), null),
                SchemaSelection(SchemaVersion.V2_FLAT, SelectionReason.SINGLE_SUPPORTED), "single v2")
            val both = selectPlanSchema(listOf(SchemaVersion.V1_CURRENT, SchemaVersion.V2_FLAT), null)
            eq(both.reason, SelectionReason.SMALLEST_ESTIMATE, "reason with two supported")
            eq(selectPlanSchema(emptyList(), null), both, "empty list means all")
        }
    },
    "transformPlan worked example (v2-flat)" to {
        Coach.openInMemory().use { coach ->
            val t = coach.workouts().transformPlan(WORKED_EXAMPLE, V2, null)
            checkWorkedExample(t.plan)
            eq(t.schemaVersion, SchemaVersion.V2_FLAT, "schemaVersion")
            check(t.rulesetVersion.isNotBlank()) { "rulesetVersion is blank" }
        }
    },
    "transformPlan fenced and wrapped model output" to {
        Coach.openInMemory().use { coach ->
            val fenced = "Here is your plan for today:\n```json\n$WORKED_EXAMPLE\n```\nHave a good workout!"
            checkWorkedExample(coach.workouts().transformPlan(fenced, V2, 1uL).plan)
            val wrapped = "<think>The user wants an upper body session; keep it to 30 minutes.</think>" +
                "<response>$WORKED_EXAMPLE</response>"
            checkWorkedExample(coach.workouts().transformPlan(wrapped, V2, 1uL).plan)
        }
    },
    "transformPlan v1-current nested exercises" to {
        Coach.openInMemory().use { coach ->
            val t = coach.workouts().transformPlan(V1_EXAMPLE, V1, 3uL)
            checkWorkedExample(t.plan)
            eq(t.schemaVersion, SchemaVersion.V1_CURRENT, "schemaVersion")
        }
    },
    "typed error: block index out of range" to {
        Coach.openInMemory().use { coach ->
            val e = expectThrows<CoachException.InvalidModelOutput>("blockIndex 5") {
                coach.workouts().transformPlan(BAD_BLOCK_INDEX, V2, null)
            }
            eq(e.code, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE, "code")
            eq(e.path, "exercises[1].blockIndex", "path")
            check(e.detail.isNotBlank()) { "detail is blank" }
            // still usable after an error
            checkWorkedExample(coach.workouts().transformPlan(WORKED_EXAMPLE, V2, null).plan)
        }
    },
    "typed error: invalid JSON" to {
        Coach.openInMemory().use { coach ->
            val e = expectThrows<CoachException.InvalidModelOutput>("not json") {
                coach.workouts().transformPlan("I could not make a plan today, sorry.", V2, null)
            }
            eq(e.code, OutputErrorCode.INVALID_JSON, "code")
        }
    },
    "determinism with a seed" to {
        Coach.openInMemory().use { coach ->
            val a = coach.workouts().transformPlan(WORKED_EXAMPLE, V2, 42uL).plan
            val b = coach.workouts().transformPlan(WORKED_EXAMPLE, V2, 42uL).plan
            eq(b, a, "same seed, same plan")
            Coach.openInMemory().use { other ->
                eq(other.workouts().transformPlan(WORKED_EXAMPLE, V2, 42uL).plan, a, "same seed, other Coach")
            }
            val c = coach.workouts().transformPlan(WORKED_EXAMPLE, V2, 43uL).plan
            check(c.id != a.id) { "different seeds gave the same plan id ${a.id}" }
        }
    },
    "file database records generations and survives reopen" to {
        val dir = tempDir()
        try {
            val path = File(dir, "coach.sqlite3").path
            var okId: Long? = null
            var ruleset = ""
            Coach.open(path).use { coach ->
                eq(coach.workouts().planGenerations(10u).size, 0, "fresh database has no generations")
                val t = coach.workouts().transformPlan(WORKED_EXAMPLE, V2, 7uL)
                okId = t.generationId
                ruleset = t.rulesetVersion
                check(okId != null) { "generationId is null for a file database" }
                expectThrows<CoachException.InvalidModelOutput>("bad block index") {
                    coach.workouts().transformPlan(BAD_BLOCK_INDEX, V2, 7uL)
                }
                val rows = coach.workouts().planGenerations(10u)
                eq(rows.size, 2, "rows after two transforms")
                val (failed, ok) = rows
                eq(failed.succeeded, false, "newest row (the failure) succeeded")
                eq(failed.errorCode, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE, "failed row errorCode")
                eq(ok.succeeded, true, "older row succeeded")
                eq(ok.errorCode, null, "ok row errorCode")
                eq(ok.id, okId, "ok row id == generationId")
                check(failed.id != ok.id) { "rows share id ${ok.id}" }
                for (r in rows) {
                    check(r.feature.isNotBlank()) { "feature is blank" }
                    eq(r.schemaVersion, SchemaVersion.V2_FLAT, "row schemaVersion")
                    eq(r.selectionReason, SelectionReason.OVERRIDE, "row selectionReason")
                    eq(r.rulesetVersion, ruleset, "row rulesetVersion")
                    check(r.createdAtMs > 1_600_000_000_000L) { "createdAtMs ${r.createdAtMs} is not a recent epoch-ms" }
                }
                check(failed.createdAtMs >= ok.createdAtMs) { "rows not newest first" }
                eq(coach.workouts().planGenerations(1u).map { it.id }, listOf(failed.id), "limit 1")
            }
            check(File(path).length() > 0) { "database file is empty" }
            Coach.open(path).use { coach ->
                val rows = coach.workouts().planGenerations(10u)
                eq(rows.size, 2, "rows after reopen")
                eq(rows[1].id, okId, "ok row after reopen")
                eq(rows[1].succeeded, true, "ok row succeeded after reopen")
                eq(rows[0].errorCode, OutputErrorCode.BLOCK_INDEX_OUT_OF_RANGE, "failed row after reopen")
            }
        } finally {
            dir.deleteRecursively()
        }
    },
    "shutdown: services taken before and after throw Closed; twice is fine; the data survives reopen" to {
        val dir = tempDir()
        try {
            val path = File(dir, "shutdown.sqlite3").path
            Coach.open(path).use { coach ->
                val planner = coach.planner()
                planner.apply(listOf(todoOp("Buy milk")), null, TODAY)
                eq(planner.backlog(5u).map { it.title }, listOf("Buy milk"), "backlog before shutdown")
                coach.shutdown()
                val before = expectThrows<CoachException.Closed>("a planner taken before shutdown") { planner.backlog(5u) }
                check(before.detail.isNotBlank()) { "detail is blank" }
                expectThrows<CoachException.Closed>("a planner asked for after shutdown") { coach.planner().backlog(5u) }
                coach.shutdown()
                expectThrows<CoachException.Closed>("after a second shutdown") { planner.backlog(5u) }
            }
            Coach.open(path).use { coach ->
                eq(coach.planner().backlog(5u).map { it.title }, listOf("Buy milk"), "backlog after reopen")
            }
        } finally {
            dir.deleteRecursively()
        }
    },
    "a database from a newer version throws DatabaseTooNew and is left unchanged" to {
        val dir = tempDir()
        try {
            val file = File(dir, "newer.sqlite3")
            // The file closes when the Coach and every service object from it are closed.
            Coach.open(file.path).use { coach -> coach.workouts().use { it.transformPlan(WORKED_EXAMPLE, V2, 1uL) } }
            check(!File(dir, "newer.sqlite3-wal").exists() || File(dir, "newer.sqlite3-wal").length() == 0L) {
                "WAL not checkpointed on close"
            }
            val bytes = file.readBytes()
            bytes[60] = 0; bytes[61] = 0; bytes[62] = 0; bytes[63] = 99 // PRAGMA user_version = 99
            file.writeBytes(bytes)
            val e = expectThrows<CoachException.DatabaseTooNew>("user_version 99") {
                Coach.open(file.path).use { }
            }
            eq(e.foundVersion, 99u, "foundVersion")
            check(e.supportedVersion in 1u..98u) { "supportedVersion ${e.supportedVersion}" }
            check(file.readBytes().contentEquals(bytes)) { "newer database was modified" }
        } finally {
            dir.deleteRecursively()
        }
    },
    "opening a non-database file throws NotADatabase and leaves it unchanged" to {
        val dir = tempDir()
        try {
            val file = File(dir, "garbage.db")
            val bytes = writeGarbage(file)
            expectThrows<CoachException.NotADatabase>("garbage file") {
                Coach.open(file.path).use { }
            }
            check(file.readBytes().contentEquals(bytes)) { "garbage file was modified" }
        } finally {
            dir.deleteRecursively()
        }
    },
    "suggestions: catalog exercise and plan round trip" to {
        Coach.openInMemory().use { coach ->
            coach.workouts().saveCatalogExercise(benchExercise())
            coach.workouts().savePlan(pushPlan())
            eq(coach.workouts().plan(PLAN_ID), pushPlan(), "plan read back")
            eq(coach.workouts().plan("no-such-plan"), null, "unknown plan")
            eq(coach.workouts().history("bench"), null, "history of a never logged exercise")
            coach.workouts().savePlan(pushPlan().copy(name = "Push day (heavy)"))
            eq(coach.workouts().plan(PLAN_ID)?.name, "Push day (heavy)", "plan replaced")
        }
    },
    "suggestions: double progression generated once" to {
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val h = coach.workouts().history("bench") ?: throw Failure("no history after two sessions")
            eq(h.sessionCount, 2u, "history sessionCount")
            eq(h.typicalLowerReps to h.typicalUpperReps, 12u to 12u, "history typical reps")
            val first = coach.suggestions().forSession("s1")
            checkIncreases(first)
            for (c in first) {
                eq(c.decision, Decision.PENDING, "decision")
                eq(listOf(c.sessionId, c.planId, c.prescriptionId, c.catalogId), listOf("s1", PLAN_ID, RX_ID, "bench"), "change ids")
                eq(c.outcome, Outcome.NOT_EVALUATED, "outcome")
                eq(c.decidedAtMs, null, "decidedAtMs")
                eq(c.userOverride, false, "userOverride")
                check(c.id.isNotBlank()) { "change id is blank" }
            }
            eq(first.map { it.id }.toSet().size, first.size, "distinct change ids")
            eq(coach.suggestions().forSession("s1"), first, "second call")
        }
    },
    "suggestions: accept applies to the plan once" to {
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val (inc0, _) = checkIncreases(coach.suggestions().forSession("s1"))
            val accepted = coach.suggestions().accept(inc0.id)
            eq(accepted.id, inc0.id, "accepted id")
            eq(accepted.decision, Decision.ACCEPTED, "accepted decision")
            check(accepted.decidedAtMs != null) { "decidedAtMs is null" }
            eq(accepted.draft, inc0.draft, "accepted draft")
            eq(targetWeights(coach), listOf(140.0, 135.0, 135.0), "plan after accept")
            val e = expectThrows<CoachException.InvalidArgument>("accept twice") { coach.suggestions().accept(inc0.id) }
            check(e.detail.isNotBlank()) { "detail is blank" }
            eq(targetWeights(coach), listOf(140.0, 135.0, 135.0), "applied once")
            eq(coach.suggestions().forSession("s1").single { it.id == inc0.id }.decision, Decision.ACCEPTED, "stored decision")
        }
    },
    "suggestions: defer pending, deferred for plan, reject" to {
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val first = coach.suggestions().forSession("s1")
            val (inc0, inc1) = checkIncreases(first)
            coach.suggestions().accept(inc0.id)
            eq(coach.suggestions().deferred(PLAN_ID), emptyList(), "nothing deferred yet")
            val n = coach.suggestions().deferPending("s1")
            eq(n.toInt(), first.size - 1, "deferPending count")
            eq(coach.suggestions().deferPending("s1"), 0u, "nothing left pending")
            val deferred = coach.suggestions().deferred(PLAN_ID)
            eq(deferred.map { it.id }.sorted(), first.map { it.id }.filter { it != inc0.id }.sorted(), "deferred ids")
            for (c in deferred) {
                eq(c.decision, Decision.DEFERRED, "deferred decision")
                check(c.decidedAtMs != null) { "deferred decidedAtMs is null" }
            }
            val rejected = coach.suggestions().reject(inc1.id)
            eq(rejected.id to rejected.decision, inc1.id to Decision.REJECTED, "rejected")
            val left = coach.suggestions().deferred(PLAN_ID)
            check(left.none { it.id == inc1.id }) { "rejected change still deferred" }
            eq(left.size, n.toInt() - 1, "deferred after reject")
            expectThrows<CoachException.InvalidArgument>("defer a rejected change") { coach.suggestions().deferChange(inc1.id) }
            eq(targetWeights(coach), listOf(140.0, 135.0, 135.0), "rejecting changes nothing")
        }
    },
    "suggestions: deferChange, then accept a deferred change" to {
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val first = coach.suggestions().forSession("s1")
            val (_, inc1) = checkIncreases(first)
            val d = coach.suggestions().deferChange(inc1.id)
            eq(d.id to d.decision, inc1.id to Decision.DEFERRED, "deferred")
            eq(coach.suggestions().deferred(PLAN_ID).map { it.id }, listOf(inc1.id), "suggestions().deferred")
            eq(coach.suggestions().deferPending("s1").toInt(), first.size - 1, "deferPending count")
            eq(coach.suggestions().accept(inc1.id).decision, Decision.ACCEPTED, "accept a deferred change")
            eq(targetWeights(coach), listOf(135.0, 140.0, 135.0), "plan after accepting set 1")
        }
    },
    "suggestions: acceptEdited records the user's value as an override" to {
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val (inc0, _) = checkIncreases(coach.suggestions().forSession("s1"))
            val e = coach.suggestions().acceptEdited(inc0.id, ChangeValue.Number(145.0))
            eq(Triple(e.id, e.decision, e.userOverride), Triple(inc0.id, Decision.ACCEPTED, true), "edited acceptance")
            eq(e.draft.newValue, ChangeValue.Number(145.0), "the user's value")
            eq(targetWeights(coach), listOf(145.0, 135.0, 135.0), "plan after the edited acceptance")
            expectThrows<CoachException.InvalidArgument>("edit an accepted change") {
                coach.suggestions().acceptEdited(inc0.id, ChangeValue.Number(150.0))
            }
        }
    },
    "suggestions: NotFound and InvalidArgument" to {
        Coach.openInMemory().use { coach ->
            coach.workouts().saveCatalogExercise(benchExercise())
            coach.workouts().savePlan(pushPlan())
            val e = expectThrows<CoachException.NotFound>("unknown plan id") {
                coach.workouts().logSession(sessionLog(0, planId = "no-such-plan"))
            }
            check(e.detail.isNotBlank()) { "detail is blank" }
            expectThrows<CoachException.NotFound>("nothing was stored") { coach.suggestions().forSession("s0") }
            expectThrows<CoachException.NotFound>("accept unknown") { coach.suggestions().accept("no-such-change") }
            expectThrows<CoachException.NotFound>("reject unknown") { coach.suggestions().reject("no-such-change") }
            expectThrows<CoachException.NotFound>("deferred of unknown plan") { coach.suggestions().deferred("no-such-plan") }
            expectThrows<CoachException.NotFound>("deferPending of unknown session") { coach.suggestions().deferPending("no-such-session") }
            coach.workouts().logSession(sessionLog(0))
            expectThrows<CoachException.InvalidArgument>("same session id twice") { coach.workouts().logSession(sessionLog(0)) }
            eq(coach.workouts().history("bench")?.sessionCount, 1u, "history after one session")
        }
    },
    "suggestions: evaluateExercise with a Kotlin-built context" to {
        val plan = pushPlan()
        val ctx = ExerciseContext(plan.settings, benchExercise(), plan.exercises[0], performance(1), listOf(performance(0)), null)
        val drafts = evaluateExercise(ctx, emptyList(), T0_MS + 2 * DAY_MS).filter { it.property == ChangeProperty.WEIGHT }
        eq(drafts.map { it.targetSetIndex }, listOf(0u, 1u), "evaluated weight drafts ($drafts)")
        for (d in drafts) {
            eq(d.changeType to d.ruleId, ChangeType.INCREASE_WEIGHT to DOUBLE_PROGRESSION, "evaluated draft")
            eq(d.newValue, ChangeValue.Number(140.0), "evaluated newValue")
        }
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val stored = weightChanges(coach.suggestions().forSession("s1")).sortedBy { it.draft.targetSetIndex }
            eq(stored.map { it.draft }, drafts, "same drafts as the stored suggestions")
            val created = stored[0].createdAtMs
            val blocked = evaluateExercise(ctx, stored, created + DAY_MS)
            eq(blocked.filter { it.changeType == ChangeType.INCREASE_WEIGHT }, emptyList(), "in cooldown")
            val later = evaluateExercise(ctx, stored, created + 8 * DAY_MS)
            eq(later.filter { it.property == ChangeProperty.WEIGHT }, drafts, "after the cooldown")
        }
    },
    "suggestions: file database survives reopen" to {
        val dir = tempDir()
        try {
            val path = File(dir, "coach.sqlite3").path
            val first = Coach.open(path).use { coach ->
                setupLogged(coach)
                coach.suggestions().forSession("s1").also { coach.suggestions().accept(checkIncreases(it)[0].id) }
            }
            val inc0 = checkIncreases(first)[0]
            Coach.open(path).use { coach ->
                val again = coach.suggestions().forSession("s1")
                eq(again.map { it.id }.sorted(), first.map { it.id }.sorted(), "ids after reopen")
                eq(again.single { it.id == inc0.id }.decision, Decision.ACCEPTED, "decision after reopen")
                eq(targetWeights(coach), listOf(140.0, 135.0, 135.0), "plan after reopen")
                eq(coach.workouts().history("bench")?.sessionCount, 2u, "history after reopen")
            }
        } finally {
            dir.deleteRecursively()
        }
    },
    "AI: a Kotlin LanguageModel runs the tool loop and its answer is validated" to {
        Coach.openInMemory().use { coach ->
            setupMidRange(coach)
            val fake = FakeModel()
            coach.model().set(fake)
            val changes = coach.suggestions().forSession("s1")
            checkAiRun(changes, fake)
            check(fake.infoCalls.get() > 0) { "info() was never called" }
            val reqs = fake.requests.toList()
            for (r in reqs) {
                val schema = r.jsonSchema ?: throw Failure("a request without jsonSchema")
                check("suggestions" in schema) { "schema without the final answer: $schema" }
                check(r.maxTokens > 0u) { "maxTokens ${r.maxTokens}" }
            }
            val first = reqs[0].messages
            eq(first.map { it.role }, listOf(ChatRole.SYSTEM, ChatRole.USER), "first request roles")
            check("Bench Press" in first[1].content) { "the prompt does not describe the exercise: ${first[1].content}" }
            check("getRecentExercisePerformances" in reqs[0].jsonSchema!!) { "the first step does not offer the tool" }
            val second = reqs[1].messages
            eq(second.size, 4, "second request messages (${second.map { it.content }})")
            eq(second[2].role to second[2].content, ChatRole.ASSISTANT to TOOL_CALL, "the tool call in the chat")
            val result = second[3]
            eq(result.role, ChatRole.USER, "tool result role")
            check("getRecentExercisePerformances result" in result.content) { "no tool result: ${result.content}" }
            // s0's bench, 3 x 10 at 135 (in whatever compact form the library writes it).
            check("135" in result.content && "10" in result.content) {
                "the tool result lacks the performance data: ${result.content}"
            }
            check("getRecentExercisePerformances" !in reqs[1].jsonSchema!!) { "a used tool is offered again" }
            check(reqs.drop(2).any { r -> r.messages.any { "suggestions[1].targetSetIndex" in it.content } }) {
                "no repair request naming the invalid suggestion: ${reqs.last().messages.map { it.content }}"
            }
            val n = reqs.size
            eq(coach.suggestions().forSession("s1"), changes, "stored changes")
            eq(fake.requests.size, n, "requests after asking again (stored)")
        }
    },
    "AI: a Kotlin model that throws LlmException.Backend leaves the rule suggestions" to {
        Coach.openInMemory().use { coach ->
            setupMidRange(coach)
            val fake = FakeModel(fail = LlmException.Backend("fake backend outage"))
            coach.model().set(fake)
            val logs = CollectingLogListener()
            val changes = withLogListener(logs, LogLevel.INFO) { coach.suggestions().forSession("s1") }
            check(fake.requests.size >= 1) { "the model was not asked" }
            check(changes.isNotEmpty()) { "no rule suggestions" }
            eq(aiChanges(changes), emptyList(), "AI changes")
            check(changes.all { it.draft.source == SuggestionSource.RULE && it.draft.ruleId != null }) { "$changes" }
            // The typed error crossed the boundary as itself (not as an unexpected callback error).
            val errors = logs.records.filter { "fake backend outage" in it.message }
            check(errors.isNotEmpty()) { "the error is not logged: ${logs.records}" }
            check(errors.none { "app model failed" in it.message }) { "not a typed error: $errors" }
            // Still usable: the next session with a working model gets the AI change.
            coach.workouts().logSession(sessionLog(2, reps = MID_REPS))
            coach.model().set(FakeModel())
            eq(aiChanges(coach.suggestions().forSession("s2")).size, 1, "AI changes with a working model")
        }
    },
    "AI: a streaming Kotlin model sends pieces to the listener if one is given" to {
        Coach.openInMemory().use { coach ->
            setupMidRange(coach)
            val fake = FakeModel(stream = true)
            coach.model().set(fake)
            checkAiRun(coach.suggestions().forSession("s1"), fake)
            eq(fake.listenerPassed.size, fake.requests.size, "listener seen per request")
            eq(fake.streamed.size, fake.listenerPassed.count { it }, "replies streamed to the listeners given")
        }
    },
    "AI: a Kotlin model checks the CancelToken (not cancelled)" to {
        Coach.openInMemory().use { coach ->
            setupMidRange(coach)
            val fake = FakeModel(checkCancel = true)
            coach.model().set(fake)
            checkAiRun(coach.suggestions().forSession("s1"), fake)
            eq(fake.cancelled.size, fake.requests.size, "isCancelled calls")
            eq(fake.cancelled.toSet(), setOf(false), "isCancelled values")
        }
        CancelToken().use { token ->
            eq(token.isCancelled(), false, "new token")
            token.cancel()
            eq(token.isCancelled(), true, "after cancel()")
        }
    },
    "AI: a Kotlin LogListener gets the model records without user text" to {
        Coach.openInMemory().use { coach ->
            setupMidRange(coach)
            val fake = FakeModel(name = "fake-kotlin-model")
            coach.model().set(fake)
            val logs = CollectingLogListener()
            withLogListener(logs, LogLevel.INFO) { checkAiRun(coach.suggestions().forSession("s1"), fake) }
            val records = logs.records.toList()
            val llm = records.filter { it.target == "coachcore::llm" }
            check(llm.any { "model=" in it.message }) { "no coachcore::llm record with model=: $records" }
            check(llm.any { "model=fake-kotlin-model" in it.message }) { "the model name is not logged: $llm" }
            check(records.none { it.level == LogLevel.DEBUG }) { "Debug records at Info level: $records" }
            for (r in records) {
                check(r.target.startsWith("coachcore")) { "target ${r.target}" }
                for (text in PRIVATE_TEXTS) check(text !in r.message) { "user text <$text> in the log: $r" }
            }
            // After setLogListener(null) nothing more arrives.
            val n = logs.records.size
            coach.workouts().logSession(sessionLog(2, reps = MID_REPS))
            val asked = fake.requests.size
            coach.suggestions().forSession("s2")
            check(fake.requests.size > asked) { "the model was not asked for s2" }
            eq(logs.records.size, n, "records after setLogListener(null)")
        }
    },
    "AI: model().set(null) turns AI off" to {
        Coach.openInMemory().use { coach ->
            setupMidRange(coach)
            val fake = FakeModel()
            coach.model().set(fake)
            checkAiRun(coach.suggestions().forSession("s1"), fake)
            val n = fake.requests.size
            coach.model().set(null)
            coach.workouts().logSession(sessionLog(2, reps = MID_REPS))
            val changes = coach.suggestions().forSession("s2")
            eq(aiChanges(changes), emptyList(), "AI changes after model().set(null)")
            eq(fake.requests.size, n, "requests after model().set(null)")
        }
    },
    "assistant: assistant().send streams events to a Kotlin listener; wait returns the result" to {
        Coach.openInMemory().use { coach ->
            val fake = FakeModel(listOf(PROPOSAL, ASSISTANT_SUMMARY))
            coach.model().set(fake)
            val listener = CollectingAssistantListener()
            coach.assistant().send(planRequest("something about mom"), listener).use { task ->
                val result = task.wait()
                check(task.isFinished()) { "not finished after wait" }
                eq(task.wait(), result, "second wait")
                eq(result.decision, RouteDecision.PLAN, "decision")
                eq(result.operations.map { listOf(it.op, it.kind, it.title, it.scheduledFor, it.priority) },
                    listOf(listOf(OpType.CREATE, ItemKind.TODO, "Call mom", "2026-11-21", Priority.HIGH)), "operations")
                eq(result.operations[0].recurrence, Recurrence(RecurrenceType.NONE), "repaired recurrence")
                eq(result.summary, ASSISTANT_SUMMARY, "summary")
                val events = listener.events.toList()
                eq(events.map(::eventName), listOf("stage", "stage", "ops", "stage", "summary", "result", "done"), "events")
                eq(events.filterIsInstance<AssistantEvent.Stage>().map { it.stage },
                    listOf(AssistantStage.PROPOSING, AssistantStage.VALIDATING, AssistantStage.SUMMARIZING), "stages")
                eq(events[2], AssistantEvent.Ops(1u, result.operations, 1u, 0u), "ops event")
                eq(events[5], AssistantEvent.Result(result), "result event")
                eq(fake.requests.size, 2, "model calls")
                eq(coach.planner().auditLog(10u), emptyList(), "a message applies nothing")
            }
        }
    },
    "assistant: planner().dryRun validates and repairs without applying" to {
        Coach.openInMemory().use { coach ->
            val ops = listOf(todoOp("Call mom", "2026-11-21", Priority.HIGH), todoOp("Buy milk"),
                dailyHabit("Stretch", TODAY), PlannerOperation(OpType.COMPLETE, ItemKind.TODO, id = "no-such-todo"))
            val v = coach.planner().dryRun(ops, TODAY)
            eq(listOf(v.validCount, v.invalidCount), listOf(3u, 1u), "counts")
            eq(v.checks.map { it.valid }, listOf(true, true, true, false), "valid")
            eq(v.checks[0].operation?.recurrence, Recurrence(RecurrenceType.NONE), "repair")
            check(v.checks[3].errors.any { it.code == "unknown_id" }) { "errors: ${v.checks[3].errors}" }
            eq(coach.planner().backlog(10u), emptyList(), "backlog after dry-run")
            expectThrows<CoachException.InvalidArgument>("bad today") { coach.planner().dryRun(ops, "next friday") }
        }
    },
    "assistant: planner().apply, week, backlog, item and the audit log on a file" to {
        val dir = tempDir()
        try {
            Coach.open(File(dir, "planner.sqlite3").path).use { coach ->
                val r = coach.planner().apply(listOf(todoOp("Call mom", "2026-11-21", Priority.HIGH), todoOp("Buy milk"),
                    dailyHabit("Stretch", TODAY)), "key-1", TODAY)
                check(!r.replayed) { "replayed" }
                check(UUID_LIKE.matches(r.requestId)) { r.requestId }
                eq(r.applied.map { Triple(it.index, it.op, it.kind) }, listOf(Triple(0u, OpType.CREATE, ItemKind.TODO),
                    Triple(1u, OpType.CREATE, ItemKind.TODO), Triple(2u, OpType.CREATE, ItemKind.HABIT)), "applied")
                val week = coach.planner().week(TODAY)
                eq(week.weekStart to week.weekEnd, "2026-11-16" to "2026-11-22", "week bounds")
                eq(week.entries.map { it.date to it.item.title }, listOf("2026-11-20" to "Stretch",
                    "2026-11-21" to "Stretch", "2026-11-21" to "Call mom", "2026-11-22" to "Stretch"), "week")
                eq(coach.planner().backlog(10u).map { it.title }, listOf("Buy milk"), "backlog")
                val item = coach.planner().item(ItemKind.TODO, r.applied[0].id)
                eq(item?.title to item?.priority, "Call mom" to Priority.HIGH, "item")
                eq(coach.planner().item(ItemKind.GOAL, r.applied[0].id), null, "wrong kind")
                val log = coach.planner().auditLog(10u)
                eq(log.reversed().map { it.itemId }, r.applied.map { it.id }, "audit log")
                check(log.all { it.requestId == r.requestId }) { "request ids: $log" }
                eq(coach.planner().auditLog(10u, log[0].seq), log.drop(1), "audit paging")
                expectThrows<CoachException.InvalidArgument>("bad date") { coach.planner().week("2026-02-30") }
            }
        } finally {
            dir.deleteRecursively()
        }
    },
    "assistant: idempotent replay, conflict and rejection are typed" to {
        Coach.openInMemory().use { coach ->
            val ops = listOf(todoOp("Call mom", "2026-11-21"))
            val first = coach.planner().apply(ops, "key-7", TODAY)
            val again = coach.planner().apply(ops, "key-7", TODAY)
            check(again.replayed) { "not replayed" }
            eq(again.requestId to again.applied, first.requestId to first.applied, "replay")
            eq(coach.planner().auditLog(10u).size, 1, "applied once")
            expectThrows<CoachException.IdempotencyConflict>("conflict") {
                coach.planner().apply(listOf(todoOp("Call dad")), "key-7", TODAY)
            }
            val e = expectThrows<CoachException.OperationsRejected>("rejected") {
                coach.planner().apply(listOf(todoOp("Buy milk"),
                    PlannerOperation(OpType.DELETE, ItemKind.EVENT, id = "no-such-event")), null, TODAY)
            }
            eq(e.invalidCount to e.totalCount, 1u to 2u, "rejected counts")
            eq(coach.planner().backlog(10u), emptyList(), "all or nothing")
        }
    },
    "assistant: a listener that always throws cannot hang wait()" to {
        Coach.openInMemory().use { coach ->
            coach.model().set(FakeModel(listOf(PROPOSAL, ASSISTANT_SUMMARY)))
            var calls = 0
            val throwing = object : AssistantListener {
                override fun onEvent(event: AssistantEvent) {
                    calls++
                    throw IllegalStateException("listener bug")
                }
            }
            coach.assistant().send(planRequest("something about mom"), throwing).use { task ->
                val result = task.wait()
                eq(result.summary, ASSISTANT_SUMMARY, "summary")
                eq(result.operations.size, 1, "operations")
                eq(calls, 1, "listener calls (ignored after it threw)")
            }
        }
    },
    "model: model().load errors are typed; info and unload" to {
        Coach.openInMemory().use { coach ->
            eq(coach.model().info(), null, "no model")
            eq(coach.model().unload(), false, "nothing to unload")
            expectThrows<CoachException.ModelUnusable>("missing file") {
                coach.model().load("/no/such/model.gguf", ModelOptions(2048u, 2u))
            }
            val huge = File("tests/data/models/huge-kv-header.bin").absolutePath
            val e = expectThrows<CoachException.InsufficientMemory>("pre-flight") {
                coach.model().load(huge, ModelOptions(2048u, 2u))
            }
            check(e.neededBytes > e.availableBytes) { "needed ${e.neededBytes} available ${e.availableBytes}" }
            coach.model().set(FakeModel())
            eq(coach.model().info()?.embedded, false, "an app model")
            eq(coach.model().unload(), true, "unloaded")
            eq(coach.model().info(), null, "no model after unload")
        }
    },
    "model: modelAvailability decides without loading, one status per reason" to {
        // The bindings' library is built without the engine (bindings/generate.sh: default
        // features), so a good file is ENGINE_MISSING here; with the engine it is AVAILABLE.
        val models = File("tests/data/models").absoluteFile
        val tiny = File(models, "tiny-llama.bin").path
        val plenty = ModelCheckOptions(2048u, 1uL shl 40)
        val dir = Files.createTempDirectory("coachcore-kotlin-").toFile()
        try {
            val text = File(dir, "notes.gguf").apply { writeText("not a model at all") }
            // An interrupted download: the tensor data is missing.
            val cut = File(dir, "cut.gguf").apply { writeBytes(File(tiny).readBytes().copyOf(300)) }
            val cases = listOf(
                File(dir, "absent.gguf").path to ModelAvailabilityStatus.FILE_MISSING,
                dir.path to ModelAvailabilityStatus.UNREADABLE,
                text.path to ModelAvailabilityStatus.NOT_GGUF,
                cut.path to ModelAvailabilityStatus.NOT_GGUF,
                File(models, "tiny-mamba.bin").path to ModelAvailabilityStatus.UNSUPPORTED_ARCHITECTURE,
                tiny to ModelAvailabilityStatus.ENGINE_MISSING,
            )
            for ((path, status) in cases) {
                val a = modelAvailability(path, plenty)
                eq(a.status, status, path)
                eq(a.detail == null, status == ModelAvailabilityStatus.AVAILABLE, "detail of $path")
            }
        } finally {
            dir.deleteRecursively()
        }
        val a = modelAvailability(tiny, plenty)
        eq(a.architecture, "llama", "architecture")
        eq(a.ggufVersion, 3u, "GGUF version")
        eq(a.parameterCount, 8uL, "parameters")
        eq(a.fileBytes, File(tiny).length().toULong(), "file size")
        // Memory: the device's reading (the huge header never fits), or the figure given.
        val huge = modelAvailability(File(models, "huge-kv-header.bin").path)
        eq(huge.status, ModelAvailabilityStatus.INSUFFICIENT_MEMORY, "huge header")
        check(huge.neededBytes!! > huge.availableBytes!!) { "needed ${huge.neededBytes} available ${huge.availableBytes}" }
        val tight = modelAvailability(tiny, ModelCheckOptions(availableBytes = 1000uL))
        eq(tight.status, ModelAvailabilityStatus.INSUFFICIENT_MEMORY, "tight")
        eq(tight.contextTokens, 2048u, "default context")
        check(tight.neededBytes!! > 1000uL) { "needed ${tight.neededBytes}" }
    },
    "assistant: cancel() stops a running message" to {
        Coach.openInMemory().use { coach ->
            val model = BlockingModel()
            coach.model().set(model)
            val listener = CollectingAssistantListener()
            coach.assistant().send(planRequest("something about mom"), listener).use { task ->
                while (!model.started.await(10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    check(!task.isFinished()) { "ended before the model ran" }
                }
                check(!task.isFinished()) { "finished while the model works" }
                task.cancel()
                expectThrows<CoachException.Cancelled>("wait after cancel") { task.wait() }
                check(task.isFinished()) { "not finished" }
                expectThrows<CoachException.Cancelled>("second wait") { task.wait() }
                val names = listener.events.map(::eventName)
                eq(names.last(), "done", "last event")
                eq(names.count { it == "done" }, 1, "done count")
                check("result" !in names) { "result after cancel: $names" }
            }
        }
    },
    "meals: import, a plan without a model, the job read back, confirm, log and history" to {
        val dir = tempDir()
        try {
            val path = File(dir, "meals.sqlite3").path
            val starter = starterRecipesJson()
            val request = mealRequest(listOf(
                "2026-11-24" to dayMeals(breakfast = mealSlot(2u, listOf("eggs")), dinner = mealSlot(4u, listOf("chicken"))),
                "2026-11-23" to dayMeals(breakfast = mealSlot(1u), dinner = mealSlot(2u, note = "something with rice")),
            ), excluded = listOf("peanut"))
            val listener = CollectingMealListener()
            // The starter recipes are the only ones: no built-in recipes.
            val (taskId, job) = Coach.openWithOptions(path, OpenOptions(builtinRecipes = false)).use { coach ->
                eq(coach.meals().importRecipes(starter), Regex("\"id\":").findAll(starter).count().toUInt(), "imported")
                coach.meals().plan(request, listener).use { task ->
                    check(UUID_LIKE.matches(task.id())) { task.id() }
                    val job = task.wait()
                    check(task.isFinished()) { "not finished" }
                    eq(task.wait(), job, "second wait")
                    task.id() to job
                }
            }
            eq(job.status to job.errorCode, JobStatus.COMPLETE to null, "status")
            eq(job.processedSlots to job.totalSlots, 4u to 4u, "progress")
            val result = job.result!!
            eq(result.slotFailuresCount, 0u, "slotFailuresCount")
            eq(result.days.map { it.date }, listOf("2026-11-23", "2026-11-24"), "days in date order")
            val selections = result.days.flatMap { listOf(it.meals.breakfast!!.selection!!, it.meals.dinner!!.selection!!) }
            for (sel in selections) {
                eq(sel.pickedBy, PickedBy.FALLBACK, "pickedBy")
                check(FALLBACK_WARNING in sel.warnings) { "warnings: ${sel.warnings}" }
                eq(sel.source, RecipeSource.STAGE, "a core pick is staged")
                check(sel.alternatives.size <= 2) { "alternatives: ${sel.alternatives}" }
            }
            eq(selections.map { it.recipeId }.toSet().size, 4, "no repeats")
            eq(selections[3].matchedTags, listOf("chicken"), "matchedTags")
            val events = listener.events.toList()
            eq(events.size, 5, "events")
            eq(events.take(4).map { (it as MealPlanEvent.Progress).processedSlots }, listOf(1u, 2u, 3u, 4u), "progress")
            val done = events[4] as MealPlanEvent.Completed
            eq(Triple(done.status, done.slotFailuresCount, done.result), Triple(PlanOutcome.COMPLETED, 0u, result), "completed")
            Coach.open(path).use { coach ->
                val back = coach.meals().job(taskId)!!
                eq(Triple(back.id, back.status, back.result), Triple(taskId, JobStatus.COMPLETE, result), "read back")
                eq(coach.meals().job("no-such-job"), null, "unknown job")
                val staged = coach.meals().recipe(selections[3].recipeId)!!
                eq(staged.source, RecipeSource.STAGE, "staged source")
                check(staged.expiresMs != null) { "a staged copy expires" }
                eq(coach.meals().confirm(result), 4u, "confirmed")
                eq(coach.meals().recipe(staged.id)!!.expiresMs, null, "kept on confirm")
                val history = coach.meals().history("2026-11-23", "2026-11-24")
                eq(history.map { it.date to it.mealType }, listOf("2026-11-23" to MealType.BREAKFAST,
                    "2026-11-23" to MealType.DINNER, "2026-11-24" to MealType.BREAKFAST, "2026-11-24" to MealType.DINNER),
                    "history")
                eq(history[3].recipeId, staged.originId, "history names the core recipe")
                val logged = coach.meals().log(MealLog("2026-11-25", MealType.LUNCH, "core-greek-salad"))
                eq(logged.title, "Greek Village Salad", "logged")
                eq(coach.meals().history("2026-11-23", "2026-11-25").size, 5, "history after log")
                expectThrows<CoachException.NotFound>("unknown recipe") {
                    coach.meals().log(MealLog("2026-11-25", MealType.LUNCH, "core-nope"))
                }
            }
        } finally {
            dir.deleteRecursively()
        }
    },
    "meals: a shopping list of a plan, pantry staples left out" to {
        Coach.openInMemory().use { coach ->
            val meals = coach.meals()
            meals.importRecipes(starterRecipesJson())
            // Shakshuka (serves 3) for 6, paella (serves 6) for 6: both pinned.
            val request = mealRequest(listOf(
                "2026-12-05" to dayMeals(breakfast = MealSlotRequest(6u, emptyList(), null, false, null, "core-shakshuka")),
                "2026-12-06" to dayMeals(dinner = MealSlotRequest(6u, emptyList(), null, false, null, "core-paella")),
            ))
            val job = meals.plan(request, null).use { it.wait() }
            eq(job.status, JobStatus.COMPLETE, "status")
            eq(meals.setPantryStaples(listOf("salt", " Salt ", "olive oil")), listOf("salt", "olive oil"), "staples set")
            eq(meals.pantryStaples(), listOf("salt", "olive oil"), "staples read")
            val list = meals.shoppingList(job.id)
            eq(list.dates, listOf("2026-12-05", "2026-12-06"), "dates")
            eq(list.sections[0].section, StoreSection.PRODUCE, "produce first")
            val garlic = list.sections[0].items[0]
            // 4 cloves (shakshuka for 6) + 3 cloves (paella for 6).
            eq(garlic.name to garlic.amounts, "garlic" to listOf(ShoppingAmount(7.0, "cloves")), "garlic")
            eq(garlic.meals.map { Triple(it.date, it.mealType, it.recipeTitle) },
                listOf(Triple("2026-12-05", MealType.BREAKFAST, "Shakshuka"),
                    Triple("2026-12-06", MealType.DINNER, "Seafood Paella")), "garlic meals")
            eq(list.skippedStaples.map { it.name }, listOf("olive oil", "salt"), "skipped staples")
            eq(list.missingRecipes, emptyList<MissingRecipe>(), "missing")
            val sunday = meals.shoppingList(job.id, ShoppingListOptions(listOf("2026-12-06"), true))
            val names = sunday.sections.flatMap { s -> s.items.map { it.name } }
            check("olive oil" in names && "eggs" !in names) { "sunday: $names" }
            expectThrows<CoachException.NotFound>("unknown job") { meals.shoppingList("no-such-job") }
            expectThrows<CoachException.InvalidArgument>("a day outside the plan") {
                meals.shoppingList(job.id, ShoppingListOptions(listOf("2026-12-07"), false))
            }
            expectThrows<CoachException.InvalidArgument>("a long staple") { meals.setPantryStaples(listOf("x".repeat(81))) }
            eq(meals.pantryStaples(), listOf("salt", "olive oil"), "a refused list changes nothing")
        }
    },
    "meals: stage, keep and cleanup" to {
        Coach.openInMemory().use { coach ->
            coach.meals().importRecipes(starterRecipesJson())
            val staged = coach.meals().stageRecipe("core-shakshuka")
            eq(Triple(staged.source, staged.originId, staged.title), Triple(RecipeSource.STAGE, "core-shakshuka", "Shakshuka"),
                "staged")
            check(staged.expiresMs != null) { "expires" }
            eq(coach.meals().recipe(staged.id), staged, "read back")
            val other = coach.meals().stageRecipe("core-menemen")
            coach.meals().keepStaged(staged.id)
            eq(coach.meals().recipe(staged.id)!!.expiresMs, null, "kept")
            eq(coach.meals().cleanupStaged(), 0u, "nothing is 72 h old yet")
            check(coach.meals().recipe(other.id) != null) { "the other copy stays" }
            expectThrows<CoachException.NotFound>("stage unknown") { coach.meals().stageRecipe("core-nope") }
            expectThrows<CoachException.NotFound>("keep unknown") { coach.meals().keepStaged("stage-nope") }
        }
    },
    "meals: the built-in recipes are there on open; list, search, hide and delete" to {
        Coach.openInMemory().use { coach ->
            val meals = coach.meals()
            val core = meals.listRecipes(0u, 5u, RecipeSource.CORE)
            check(core.total >= 120u) { "built-in recipes: ${core.total}" }
            eq(core.recipes.size, 5, "page size")
            eq(meals.searchRecipes("shakshuka", null, 5u).first().id, "core-shakshuka", "search")
            eq(meals.searchRecipes("shakshuka").first().id, "core-shakshuka", "default arguments")
            meals.hideRecipe("core-shakshuka")
            eq(meals.hiddenRecipes(), listOf("core-shakshuka"), "hidden")
            eq(meals.searchRecipes("shakshuka", null, 5u), emptyList<Recipe>(), "hidden from search")
            eq(meals.listRecipes(0u, 200u, null).total, core.total - 1u, "hidden from the list")
            eq(meals.unhideRecipe("core-shakshuka"), true, "unhidden")
            expectThrows<CoachException.InvalidArgument>("delete core") { meals.deleteRecipe("core-shakshuka") }
            expectThrows<CoachException.NotFound>("delete unknown") { meals.deleteRecipe("no-such-recipe") }
            expectThrows<CoachException.InvalidArgument>("limit 0") { meals.listRecipes(0u, 0u, null) }
        }
        Coach.openInMemoryWithOptions(OpenOptions(builtinRecipes = false)).use { coach ->
            eq(coach.meals().listRecipes(0u, 5u, null).total, 0u, "without the built-in recipes")
        }
    },
    "meals: a bad request is a typed error naming the field" to {
        Coach.openInMemory().use { coach ->
            val e = expectThrows<CoachException.InvalidArgument>("no days") { coach.meals().plan(mealRequest(emptyList()), null) }
            check("days" in e.detail) { e.detail }
            val s = expectThrows<CoachException.InvalidArgument>("servings 0") {
                coach.meals().plan(mealRequest(listOf("2026-11-23" to dayMeals(lunch = mealSlot(0u)))), null)
            }
            check("servings" in s.detail) { s.detail }
            expectThrows<CoachException.InvalidArgument>("bad recipe JSON") { coach.meals().importRecipes("""[{"title": 1}]""") }
        }
    },
)

fun main() {
    var passed = 0
    var failed = 0
    for ((name, body) in tests + asyncTests) {
        try {
            body()
            passed++
        } catch (e: Throwable) {
            failed++
            println("FAIL: $name: $e")
            if (e !is Failure) e.printStackTrace(System.out)
        }
    }
    println("$passed passed, $failed failed")
    if (failed > 0) exitProcess(1)
}
