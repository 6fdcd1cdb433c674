// CoachAsync.swift: Swift-style async calls and event streams over the generated coachcore
// bindings. Shipped next to the generated coachcore.swift (same module); it only calls the
// library's public API.
//
// The generated `...Async` methods of the service objects (`assistant().sendAsync`,
// `suggestions().generateAsync`, `model().loadAsync`, `workouts().generateAsync`,
// `workouts().todayPlanAsync`, `meals().planAsync`) are already `async throws`, but UniFFI's Swift
// code does not see a `Task` being cancelled. The methods here, in extensions of those service
// objects, pass a `CancelToken` that is cancelled when the calling `Task` is (or when the consumer
// of a stream stops), so the Rust work stops.
import Foundation

/// Runs `body` with a fresh `CancelToken` that is cancelled as soon as the current `Task` is.
public func withCoachCancellation<T>(_ body: (CancelToken) async throws -> T) async throws -> T {
    let token = CancelToken()
    return try await withTaskCancellationHandler {
        try await body(token)
    } onCancel: {
        token.cancel()
    }
}

/// The progress of an AI suggestion run, as a stream element (see `Suggestions.suggestionEvents`).
public enum SuggestionProgressEvent: Equatable {
    /// The model starts on exercise `index` (0-based) of `count`.
    case exercise(index: UInt32, count: UInt32, name: String)
    /// A piece of the model's output (untrusted, not yet validated: for a "thinking" indicator).
    case token(String)
    /// The run finished with these suggestions (the last element).
    case finished([PrescriptionChange])
}

/// Turns the library's listener calls into stream elements.
final class CoachStreamListener<Element>: AssistantListener, WorkoutListener, MealPlanListener,
    SuggestionProgressListener, @unchecked Sendable {
    private let emit: (Element) -> Void
    private let assistant: ((AssistantEvent) -> Element)?
    private let workout: ((WorkoutEvent) -> Element)?
    private let meal: ((MealPlanEvent) -> Element)?
    private let progress: ((SuggestionProgressEvent) -> Element)?

    init(emit: @escaping (Element) -> Void,
         assistant: ((AssistantEvent) -> Element)? = nil,
         workout: ((WorkoutEvent) -> Element)? = nil,
         meal: ((MealPlanEvent) -> Element)? = nil,
         progress: ((SuggestionProgressEvent) -> Element)? = nil) {
        self.emit = emit
        self.assistant = assistant
        self.workout = workout
        self.meal = meal
        self.progress = progress
    }

    func onEvent(event: AssistantEvent) { if let f = assistant { emit(f(event)) } }
    func onEvent(event: WorkoutEvent) { if let f = workout { emit(f(event)) } }
    func onEvent(event: MealPlanEvent) { if let f = meal { emit(f(event)) } }
    func onExercise(index: UInt32, count: UInt32, exerciseName: String) {
        if let f = progress { emit(f(.exercise(index: index, count: count, name: exerciseName))) }
    }
    func onToken(piece: String) { if let f = progress { emit(f(.token(piece))) } }
}

/// A stream of the events `run` reports through its listener, finished when `run` returns (after
/// `last` of its result, if given) or with the error it throws. When the consumer stops (its `Task`
/// cancelled, or it leaves the `for try await` loop) the token is cancelled: the Rust work stops.
func coachEventStream<Element, R>(
    last: ((R) -> Element)? = nil,
    _ run: @escaping (CancelToken, @escaping (Element) -> Void) async throws -> R
) -> AsyncThrowingStream<Element, Error> {
    AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
        let token = CancelToken()
        let task = Task {
            do {
                let result = try await run(token) { continuation.yield($0) }
                if let last { continuation.yield(last(result)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            token.cancel()
            task.cancel()
        }
    }
}

/// Joins a message's `textDelta`s into the reply so far and passes each state on, then the
/// `summary` (see `Assistant.replyText`).
final class CoachReplyListener: AssistantListener, @unchecked Sendable {
    private let lock = NSLock()
    private var reply = ""
    private let emit: (String) -> Void

    init(emit: @escaping (String) -> Void) { self.emit = emit }

    func onEvent(event: AssistantEvent) {
        lock.lock(); defer { lock.unlock() }
        switch event {
        case .textDelta(let text):
            reply += text
            emit(reply)
        case .summary(let text):
            emit(text)
        default:
            break
        }
    }
}

extension Assistant {
    /// Sends a message to the assistant and returns its result; cancelling the calling `Task`
    /// stops the message (this throws `CoachError.Cancelled`). `listener` hears the events as
    /// `send` describes them. Never blocks the caller's thread.
    public func message(_ request: AssistantRequest, listener: AssistantListener? = nil) async throws
        -> AssistantResult {
        try await withCoachCancellation { token in
            try await self.sendAsync(request: request, listener: listener, cancel: token)
        }
    }

    /// The events of a message (stages, operations, `.textDelta`s of a chat answer, summary,
    /// `.result`, `.done` last), finishing after `.done`, or throwing what the message failed
    /// with. Stop consuming to cancel it.
    public func messageEvents(_ request: AssistantRequest) -> AsyncThrowingStream<AssistantEvent, Error> {
        coachEventStream { token, emit in
            try await self.sendAsync(
                request: request, listener: CoachStreamListener(emit: emit, assistant: { $0 }), cancel: token)
        }
    }

    /// The answer's text as it is written, for a chat UI: each element is the whole reply so far
    /// (show it in place of the previous one). A chat answer (chat mode, or small talk in auto
    /// mode) grows token by token; the last element is always the message's summary, the cleaned
    /// and authoritative answer, which replaces the streamed text. A plan's answer is not streamed:
    /// its summary is the only element; a clarifying question gives none (use `messageEvents`).
    /// Throws what the message fails with: then the text shown is no answer, remove it. Stop
    /// consuming (or cancel the `Task`) to cancel the message.
    public func replyText(_ request: AssistantRequest) -> AsyncThrowingStream<String, Error> {
        coachEventStream { token, emit in
            _ = try await self.sendAsync(request: request, listener: CoachReplyListener(emit: emit), cancel: token)
        }
    }
}

extension Suggestions {
    /// The suggestions for a logged session (see `forSession(sessionId:)`), generated off the
    /// caller's thread; cancelling the calling `Task` stops the model and stores nothing (this then
    /// throws `CoachError.Cancelled`).
    public func generate(forSession sessionId: String, listener: SuggestionProgressListener? = nil)
        async throws -> [PrescriptionChange] {
        try await withCoachCancellation { token in
            try await self.generateAsync(sessionId: sessionId, listener: listener, cancel: token)
        }
    }

    /// The progress of a suggestion run (`.exercise`, `.token`), then `.finished` with the
    /// suggestions. Stop consuming to cancel the run.
    public func suggestionEvents(forSession sessionId: String)
        -> AsyncThrowingStream<SuggestionProgressEvent, Error> {
        coachEventStream(last: { .finished($0) }) { token, emit in
            try await self.generateAsync(
                sessionId: sessionId, listener: CoachStreamListener(emit: emit, progress: { $0 }), cancel: token)
        }
    }
}

extension Models {
    /// Loads the GGUF model at `path` and makes it every feature's model (see `load(path:)`), on a
    /// library thread. Cancelling the calling `Task` lets the model go once read: no model is
    /// then in use and this throws `CoachError.Cancelled`.
    public func load(atPath path: String, options: ModelOptions,
                     progress: LoadProgressListener? = nil) async throws -> LoadedModelInfo {
        try await withCoachCancellation { token in
            try await self.loadAsync(path: path, options: options, progress: progress, cancel: token)
        }
    }
}

extension Workouts {
    /// Generates and saves a workout (see `generate(request:)`); cancelling the calling `Task`
    /// stops it (this then throws `CoachError.Cancelled`).
    public func generate(_ request: WorkoutRequest, listener: WorkoutListener? = nil) async throws -> WorkoutResult {
        try await withCoachCancellation { token in
            try await self.generateAsync(request: request, listener: listener, cancel: token)
        }
    }

    /// The events of a workout generation (`.done` last). Stop consuming to cancel it.
    public func workoutEvents(_ request: WorkoutRequest) -> AsyncThrowingStream<WorkoutEvent, Error> {
        coachEventStream { token, emit in
            try await self.generateAsync(
                request: request, listener: CoachStreamListener(emit: emit, workout: { $0 }), cancel: token)
        }
    }

    /// Makes today's plan with the model in use (see `todayPlan(request:)`); cancelling the
    /// calling `Task` stops the model call (this then throws `CoachError.Cancelled`).
    public func todayPlan(_ request: TodayPlanRequest) async throws -> PlanTransform {
        try await withCoachCancellation { token in
            try await self.todayPlanAsync(request: request, cancel: token)
        }
    }
}

extension Meals {
    /// Plans meals and returns the finished job (see `plan(request:listener:)`); cancelling the
    /// calling `Task` stops the plan (the job then ends `FAILED` with error code `cancelled`).
    public func plan(_ request: MealPlanRequest, listener: MealPlanListener? = nil) async throws -> MealPlanJob {
        try await withCoachCancellation { token in
            try await self.planAsync(request: request, listener: listener, cancel: token)
        }
    }

    /// The events of a meal plan (`.progress` per slot, then `.completed` or `.failed`). Stop
    /// consuming to cancel it.
    public func mealPlanEvents(_ request: MealPlanRequest) -> AsyncThrowingStream<MealPlanEvent, Error> {
        coachEventStream { token, emit in
            try await self.planAsync(
                request: request, listener: CoachStreamListener(emit: emit, meal: { $0 }), cancel: token)
        }
    }
}
