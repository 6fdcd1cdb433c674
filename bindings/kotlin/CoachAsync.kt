// CoachAsync.kt: Kotlin Flows of the events of the library's long calls, over the generated
// coachcore bindings (package uniffi.coachcore). Shipped next to the generated coachcore.kt; needs
// kotlinx-coroutines-core (1.3 or later), as the generated `suspend` functions do.
//
// The generated `...Async` functions of the service objects a `Coach` hands out
// (assistant().sendAsync, suggestions().generateAsync, model().loadAsync, workouts().generateAsync,
// workouts().todayPlanAsync, meals().planAsync) are `suspend` and cancellable: cancelling the
// coroutine stops the Rust work. The flows here are extensions of those services (Assistant,
// Suggestions, Workouts, Meals): they run the same calls and emit their listener's events;
// cancelling the collector cancels the call. A flow fails with what its call throws (e.g.
// CoachException.Closed after Coach.shutdown()).
package uniffi.coachcore

import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.launch

/** The progress of an AI suggestion run, as a flow element (see [Suggestions.suggestionEvents]). */
sealed class SuggestionProgressEvent {
    /** The model starts on exercise [index] (0-based) of [count]. */
    data class Exercise(val index: UInt, val count: UInt, val name: String) : SuggestionProgressEvent()
    /** A piece of the model's output (untrusted, not yet validated: for a "thinking" indicator). */
    data class Token(val piece: String) : SuggestionProgressEvent()
    /** The run finished with these suggestions (the last element). */
    data class Finished(val changes: List<PrescriptionChange>) : SuggestionProgressEvent()
}

/**
 * A flow of the events [run] reports through `emit`, completed when [run] returns (after [last] of
 * its result, if given) or failed with what it throws. Cancelling the collector cancels [run] (its
 * coroutine, and the token it was given): the Rust work stops.
 */
internal fun <E, R> coachEvents(
    last: ((R) -> E)? = null,
    run: suspend (token: CancelToken, emit: (E) -> Unit) -> R,
): Flow<E> = callbackFlow {
    val token = CancelToken()
    launch {
        try {
            val result = run(token) { trySend(it) }
            if (last != null) send(last(result))
            close()
        } catch (e: Throwable) {
            close(e)
        }
    }
    awaitClose { token.cancel() }
}.buffer(Channel.UNLIMITED)

/**
 * The events of a message (stages, operations, the TextDeltas of a chat answer, summary, Result,
 * Done last), as [Assistant.sendAsync] reports them; fails with what the message fails with.
 */
fun Assistant.messageEvents(request: AssistantRequest): Flow<AssistantEvent> = coachEvents { token, emit ->
    sendAsync(request, object : AssistantListener {
        override fun onEvent(event: AssistantEvent) = emit(event)
    }, token)
}

/**
 * The answer's text as it is written, for a chat UI: each element is the whole reply so far (show
 * it in place of the previous one). A chat answer (chat mode, or small talk in auto mode) grows
 * token by token; the last element is always the message's summary, the cleaned and authoritative
 * answer, which replaces the streamed text. A plan's answer is not streamed: its summary is the
 * only element; a clarifying question gives none (use [messageEvents]). Fails with what the
 * message fails with: then the text shown is no answer, remove it. Cancelling the collector
 * cancels the message.
 */
fun Assistant.replyText(request: AssistantRequest): Flow<String> = coachEvents { token, emit ->
    val reply = StringBuilder()
    sendAsync(request, object : AssistantListener {
        override fun onEvent(event: AssistantEvent) = synchronized(reply) {
            when (event) {
                is AssistantEvent.TextDelta -> emit(reply.append(event.text).toString())
                is AssistantEvent.Summary -> emit(event.text)
                else -> {}
            }
        }
    }, token)
}

/**
 * The progress of a suggestion run for a logged session ([Suggestions.generateAsync]), then
 * [SuggestionProgressEvent.Finished].
 */
fun Suggestions.suggestionEvents(sessionId: String): Flow<SuggestionProgressEvent> =
    coachEvents<SuggestionProgressEvent, List<PrescriptionChange>>(last = { SuggestionProgressEvent.Finished(it) }) { token, emit ->
        generateAsync(sessionId, object : SuggestionProgressListener {
            override fun onExercise(index: UInt, count: UInt, exerciseName: String) =
                emit(SuggestionProgressEvent.Exercise(index, count, exerciseName))
            override fun onToken(piece: String) = emit(SuggestionProgressEvent.Token(piece))
        }, token)
    }

/** The events of a workout generation ([Workouts.generateAsync]; DONE last). */
fun Workouts.workoutEvents(request: WorkoutRequest): Flow<WorkoutEvent> = coachEvents { token, emit ->
    generateAsync(request, object : WorkoutListener {
        override fun onEvent(event: WorkoutEvent) = emit(event)
    }, token)
}

/** The events of a meal plan ([Meals.planAsync]: Progress per slot, then Completed or Failed). */
fun Meals.mealPlanEvents(request: MealPlanRequest): Flow<MealPlanEvent> = coachEvents { token, emit ->
    planAsync(request, object : MealPlanListener {
        override fun onEvent(event: MealPlanEvent) = emit(event)
    }, token)
}
