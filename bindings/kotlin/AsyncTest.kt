// The async part of the Kotlin binding test: the generated `suspend` functions and the shipped
// Flows (CoachAsync.kt), on kotlinx-coroutines. Registered in CoachTest.kt's main().
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import uniffi.coachcore.*
import java.util.concurrent.TimeUnit

/** Waits (off the coroutine's thread) until [model] runs, then until it saw the cancel. */
suspend fun awaitStarted(model: BlockingModel) = withContext(Dispatchers.IO) {
    check(model.started.await(30, TimeUnit.SECONDS)) { "the model never ran" }
}

suspend fun awaitStopped(model: BlockingModel) = withContext(Dispatchers.IO) {
    check(model.stopped.await(30, TimeUnit.SECONDS)) { "the Rust work was not cancelled" }
}

val asyncTests: List<Pair<String, () -> Unit>> = listOf(
    "async: assistant().sendAsync returns the result; messageEvents flows the events then completes" to {
        Coach.openInMemory().use { coach ->
            coach.model().set(FakeModel(listOf(PROPOSAL, ASSISTANT_SUMMARY)))
            val listener = CollectingAssistantListener()
            val result = runBlocking { coach.assistant().sendAsync(planRequest("something about mom"), listener) }
            eq(result.summary, ASSISTANT_SUMMARY, "summary")
            eq(result.operations.map { it.title }, listOf("Call mom"), "operations")
            eq(listener.events.map(::eventName), listOf("stage", "stage", "ops", "stage", "summary", "result", "done"),
                "listener events")
            coach.model().set(FakeModel(listOf(PROPOSAL, ASSISTANT_SUMMARY)))  // a fresh script
            val events = runBlocking { coach.assistant().messageEvents(planRequest("something about mom")).toList() }
                .filter { it != AssistantEvent.Heartbeat }
            eq(events.map(::eventName), listOf("stage", "stage", "ops", "stage", "summary", "result", "done"), "flow")
            eq((events[5] as AssistantEvent.Result).result.summary, ASSISTANT_SUMMARY, "the result event")
        }
    },
    "async: cancelling the coroutine of assistant().sendAsync cancels the Rust work" to {
        Coach.openInMemory().use { coach ->
            val model = BlockingModel()
            coach.model().set(model)
            val listener = CollectingAssistantListener()
            runBlocking {
                withTimeout(60_000) {
                    val call = async(Dispatchers.Default) { coach.assistant().sendAsync(planRequest("plan my weekend"), listener) }
                    awaitStarted(model)
                    check(call.isActive) { "ended before it was cancelled" }
                    call.cancel()
                    call.join()
                    check(call.isCancelled) { "not cancelled" }
                    awaitStopped(model)
                }
            }
            val deadline = System.nanoTime() + 30_000_000_000L
            while (listener.events.lastOrNull() != AssistantEvent.Done) {
                check(System.nanoTime() < deadline) { "no done after the cancel: ${listener.events}" }
                Thread.sleep(5)
            }
            check(listener.events.none { it is AssistantEvent.Result }) { "a result after the cancel" }
        }
    },
    "async: cancelling the collector of messageEvents cancels the Rust work" to {
        Coach.openInMemory().use { coach ->
            val model = BlockingModel()
            coach.model().set(model)
            val seen = java.util.Collections.synchronizedList(mutableListOf<AssistantEvent>())
            runBlocking {
                withTimeout(60_000) {
                    val collector = launch(Dispatchers.Default) {
                        coach.assistant().messageEvents(planRequest("plan my weekend")).collect { seen.add(it) }
                    }
                    awaitStarted(model)
                    collector.cancel()
                    collector.join()
                    awaitStopped(model)
                }
            }
            check(seen.none { it is AssistantEvent.Result }) { "a result: $seen" }
        }
    },
    "async: suggestions().generateAsync, suggestionEvents, and cancelling the model's run" to {
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val changes = runBlocking { coach.suggestions().generateAsync("s1") }
            checkIncreases(changes)
            val events = runBlocking { coach.suggestions().suggestionEvents("s1").toList() }
            eq(events, listOf<SuggestionProgressEvent>(SuggestionProgressEvent.Finished(changes)), "stored: finished at once")
        }
        Coach.openInMemory().use { coach ->
            setupLogged(coach)
            val model = BlockingModel()
            coach.model().set(model)
            runBlocking {
                withTimeout(60_000) {
                    val call = async(Dispatchers.Default) { coach.suggestions().generateAsync("s1") }
                    awaitStarted(model)
                    call.cancel()
                    call.join()
                    awaitStopped(model)
                }
            }
        }
    },
    "async: workouts().todayPlanAsync returns the plan; cancelling the coroutine stops the model" to {
        Coach.openInMemory().use { coach ->
            // One exercise per slot of today's skeleton ("30 minutes, upper body", a full gym).
            coach.model().set(FakeModel(replies = listOf("""{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}""")))
            val t = runBlocking { coach.workouts().todayPlanAsync(todayPlanRequest()) }
            eq(t.plan.focus, "Upper Body Session", "focus")
            eq(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press", "the model's pick")
            val model = BlockingModel()
            coach.model().set(model)
            runBlocking {
                withTimeout(60_000) {
                    val call = async(Dispatchers.Default) { coach.workouts().todayPlanAsync(todayPlanRequest()) }
                    awaitStarted(model)
                    call.cancel()
                    call.join()
                    awaitStopped(model)
                }
            }
        }
    },
    "async: workouts().generateAsync and workoutEvents; model().loadAsync throws typed errors" to {
        Coach.openInMemory().use { coach ->
            val result = runBlocking { coach.workouts().generateAsync(workoutRequest()) }
            eq(result.source, WorkoutSource.DETERMINISTIC, "source")
            eq(coach.workouts().get(result.workout.workoutId), result, "saved")
            val stages = runBlocking { coach.workouts().workoutEvents(workoutRequest()).toList() }.map { it.stage }
            eq(stages, listOf(WorkoutStage.PRE_ANALYSIS, WorkoutStage.DONE), "stages")
            expectThrows<CoachException.ModelUnusable>("missing file") {
                runBlocking { coach.model().loadAsync("/no/such/model.gguf", ModelOptions(2048u, 2u)) }
            }
            eq(coach.model().info(), null, "no model")
        }
    },
    "async: meals().planAsync waits for the job; mealPlanEvents ends with Completed" to {
        Coach.openInMemoryWithOptions(OpenOptions(builtinRecipes = false)).use { coach ->
            coach.meals().importRecipes(starterRecipesJson())
            val request = mealRequest(listOf("2026-11-23" to dayMeals(breakfast = mealSlot(1u), dinner = mealSlot(2u))))
            val job = runBlocking { coach.meals().planAsync(request) }
            eq(job.status to job.errorCode, JobStatus.COMPLETE to null, "status")
            eq(coach.meals().job(job.id)?.status, JobStatus.COMPLETE, "stored")
            val events = runBlocking { coach.meals().mealPlanEvents(request).toList() }
            eq(events.filterIsInstance<MealPlanEvent.Progress>().map { it.processedSlots }, listOf(1u, 2u), "progress")
            check(events.last() is MealPlanEvent.Completed) { "last: ${events.last()}" }
            expectThrows<CoachException.InvalidArgument>("no days") {
                runBlocking { coach.meals().planAsync(mealRequest(emptyList())) }
            }
        }
    },
)
