// The async part of the Kotlin binding test: the generated `suspend` functions and the shipped
// Flows (CoachAsync.kt), the streamed chat answer, and an app model with a `suspend` generate
// (AsyncLanguageModel), on kotlinx-coroutines. Registered in CoachTest.kt's main().
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
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

fun chatRequest(message: String) = AssistantRequest(message, AssistantMode.CHAT, today = TODAY)

/** The events' names with each run of TextDeltas as one "textDelta". */
fun shape(events: List<AssistantEvent>): List<String> =
    events.map(::eventName).fold(mutableListOf()) { acc, n ->
        if (!(n == "textDelta" && acc.lastOrNull() == "textDelta")) acc.add(n)
        acc
    }

fun deltas(events: List<AssistantEvent>) = events.filterIsInstance<AssistantEvent.TextDelta>().map { it.text }

const val RAW_CHAT = "Drink **water** and sleep well tonight."
const val CHAT_SUMMARY = "Drink water and sleep well tonight."

/**
 * An app's model with a `suspend` generate (as one bridging Gemini Nano would be): replies from a
 * script after a suspension, streaming words to the listener; [fail] is thrown instead. [started]
 * opens when a call runs; with [hang] the call suspends until cancelled, and [cancelled] opens
 * when the coroutine saw the CancellationException.
 */
class AsyncFakeModel(
    private val replies: List<String> = listOf(RAW_CHAT),
    private val fail: LlmException? = null,
    private val hang: Boolean = false,
) : AsyncLanguageModel {
    val calls = java.util.concurrent.atomic.AtomicInteger()
    val started = java.util.concurrent.CountDownLatch(1)
    val cancelled = java.util.concurrent.CountDownLatch(1)
    override fun info() = ModelInfo("async-kotlin-model", 4096u, false)
    override suspend fun generate(request: GenerationRequest, listener: TokenListener?): GenerationResult {
        val n = calls.incrementAndGet()
        started.countDown()
        if (hang) {
            try {
                delay(600_000)
            } catch (e: CancellationException) {
                cancelled.countDown()
                throw e
            }
        }
        delay(5)
        fail?.let { throw it }
        val text = replies[minOf(n, replies.size) - 1]
        if (listener != null) for (w in text.split(Regex("(?<= )"))) listener.onToken(w)
        return GenerationResult(text, FinishReason.STOP, 10u, 5u, 1uL, 5uL)
    }
}

val asyncTests: List<Pair<String, () -> Unit>> = listOf(
    "stream: a chat answer arrives as TextDeltas then the summary; replyText grows then ends with it" to {
        Coach.openInMemory().use { coach ->
            val model = FakeModel(listOf(RAW_CHAT), stream = true)
            coach.model().set(model)
            val listener = CollectingAssistantListener()
            val result = runBlocking { coach.assistant().sendAsync(chatRequest("tips for tonight?"), listener) }
            eq(result.summary, CHAT_SUMMARY, "summary")
            val events = listener.events.toList()
            eq(shape(events), listOf("textDelta", "summary", "done"), "events")
            check(deltas(events).size > 3) { "streamed in pieces: ${deltas(events)}" }
            eq(deltas(events).joinToString(""), RAW_CHAT, "the deltas are the model's text")
            coach.model().set(FakeModel(listOf(RAW_CHAT), stream = true))
            val texts = runBlocking { coach.assistant().replyText(chatRequest("tips for tonight?")).toList() }
            eq(texts.last(), CHAT_SUMMARY, "the summary comes last")
            val streamed = texts.dropLast(1)
            check(streamed.size > 3) { "grows piece by piece: $texts" }
            eq(streamed.last(), RAW_CHAT, "the streamed text")
            streamed.zipWithNext { a, b -> check(b.startsWith(a) && b.length > a.length) { "grows: $a -> $b" } }
            // A plan is not streamed: its summary is the only text.
            coach.model().set(FakeModel(listOf(PROPOSAL, ASSISTANT_SUMMARY), stream = true))
            eq(runBlocking { coach.assistant().replyText(planRequest("something about mom")).toList() },
                listOf(ASSISTANT_SUMMARY), "plan text")
        }
    },
    "async model: a suspend generate answers, streams, and its JSON is validated and repaired" to {
        Coach.openInMemory().use { coach ->
            coach.model().setAsyncModel(AsyncFakeModel())
            eq(coach.model().info()?.name, "async-kotlin-model", "info")
            val listener = CollectingAssistantListener()
            val result = runBlocking { coach.assistant().sendAsync(chatRequest("tips?"), listener) }
            eq(result.summary, CHAT_SUMMARY, "summary")
            eq(deltas(listener.events.toList()), listOf("Drink ", "**water** ", "and ", "sleep ", "well ", "tonight."), "deltas")
            // Plan mode: an unreadable first answer, then the proposal (the one repair), then the summary.
            val planner = AsyncFakeModel(listOf("I would add a call.", PROPOSAL, ASSISTANT_SUMMARY))
            coach.model().setAsyncModel(planner)
            val plan = runBlocking { coach.assistant().sendAsync(planRequest("something about mom")) }
            eq(plan.operations.map { it.title }, listOf("Call mom"), "repaired proposal")
            eq(plan.summary, ASSISTANT_SUMMARY, "plan summary")
            eq(planner.calls.get(), 3, "proposal, repair, summary")
        }
    },
    "async model: one that throws fails the message with ModelFailure" to {
        Coach.openInMemory().use { coach ->
            coach.model().setAsyncModel(AsyncFakeModel(fail = LlmException.Backend("the system model is not ready")))
            val e = expectThrows<CoachException.ModelFailure>("a throwing model") {
                runBlocking { coach.assistant().sendAsync(chatRequest("tips?")) }
            }
            check("not ready" in e.detail) { "detail: ${e.detail}" }
            coach.model().setAsyncModel(object : AsyncLanguageModel {
                override fun info() = ModelInfo("odd", 4096u, false)
                override suspend fun generate(request: GenerationRequest, listener: TokenListener?): GenerationResult =
                    throw IllegalStateException("not an LlmException")
            })
            val odd = expectThrows<CoachException.ModelFailure>("another exception") {
                runBlocking { coach.assistant().sendAsync(chatRequest("tips?")) }
            }
            check("not an LlmException" in odd.detail) { "detail: ${odd.detail}" }
        }
    },
    "async model: cancelling the message cancels the model's coroutine" to {
        Coach.openInMemory().use { coach ->
            val model = AsyncFakeModel(hang = true)
            coach.model().setAsyncModel(model)
            val listener = CollectingAssistantListener()
            runBlocking {
                withTimeout(60_000) {
                    val call = async(Dispatchers.Default) { coach.assistant().sendAsync(chatRequest("tips?"), listener) }
                    withContext(Dispatchers.IO) { check(model.started.await(30, TimeUnit.SECONDS)) { "the model never ran" } }
                    call.cancel()
                    call.join()
                    check(call.isCancelled) { "not cancelled" }
                    withContext(Dispatchers.IO) {
                        check(model.cancelled.await(30, TimeUnit.SECONDS)) { "the model's coroutine was not cancelled" }
                    }
                }
            }
            // Through the task handle: the message throws Cancelled.
            val again = AsyncFakeModel(hang = true)
            coach.model().setAsyncModel(again)
            val task = coach.assistant().send(chatRequest("tips?"), null)
            check(again.started.await(30, TimeUnit.SECONDS)) { "the model never ran" }
            task.cancel()
            expectThrows<CoachException.Cancelled>("wait after cancel") { task.wait() }
            check(again.cancelled.await(30, TimeUnit.SECONDS)) { "the model's coroutine was not cancelled" }
        }
    },
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
                    val call = async(Dispatchers.Default) { coach.assistant().sendAsync(planRequest("something about mom"), listener) }
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
                        coach.assistant().messageEvents(planRequest("something about mom")).collect { seen.add(it) }
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
