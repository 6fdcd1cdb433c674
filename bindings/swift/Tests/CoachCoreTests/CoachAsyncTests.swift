// The async part of the Swift binding test: the generated `async throws` calls and the shipped
// wrappers of CoachAsync.swift (Task cancellation, AsyncThrowingStream of events), the streamed
// chat answer (`replyText`), and an app model with an `async` generate (AsyncLanguageModel).
import Foundation
import XCTest
import coachcore

/// Waits for `semaphore` without blocking a thread of Swift's cooperative pool.
func awaitSignal(_ semaphore: DispatchSemaphore, _ what: String, seconds: Double = 30) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while semaphore.wait(timeout: .now()) == .timedOut {
        if Date() >= deadline { throw NSError(domain: "timeout: \(what)", code: 1) }
        try await Task.sleep(nanoseconds: 2_000_000)
    }
}

let allAssistantEvents = ["stage", "stage", "ops", "stage", "summary", "result", "done"]

let rawChat = "Drink **water** and sleep well tonight."
let chatSummary = "Drink water and sleep well tonight."

func chatRequest(_ message: String) -> AssistantRequest {
    AssistantRequest(message: message, mode: .chat, today: assistantToday)
}

/// The events' names with each run of text deltas as one "textDelta".
func shape(_ events: [AssistantEvent]) -> [String] {
    var out: [String] = []
    for name in events.map(eventName) where !(name == "textDelta" && out.last == "textDelta") {
        out.append(name)
    }
    return out
}

func deltas(_ events: [AssistantEvent]) -> [String] {
    events.compactMap { if case .textDelta(let text) = $0 { return text } else { return nil } }
}

/// An app's model with an `async` generate (as a FoundationModels adapter is): replies from a
/// script after a suspension, streaming words to the listener; `failure` is thrown instead.
/// `started` is signalled when a call runs; with `hang` the call sleeps until its `Task` is
/// cancelled, and `cancelled` is signalled when it saw the cancellation.
final class AsyncFakeModel: AsyncLanguageModel, @unchecked Sendable {
    private let lock = NSLock()
    private let replies: [String]
    private let failure: Error?
    private let hang: Bool
    private var _calls = 0
    let started = DispatchSemaphore(value: 0)
    let cancelled = DispatchSemaphore(value: 0)

    init(replies: [String] = [rawChat], failure: Error? = nil, hang: Bool = false) {
        self.replies = replies
        self.failure = failure
        self.hang = hang
    }

    var calls: Int { lock.lock(); defer { lock.unlock() }; return _calls }

    /// Counts a call (a synchronous helper: NSLock is not for async contexts).
    private func nextCall() -> Int {
        lock.lock()
        defer { lock.unlock() }
        _calls += 1
        return _calls
    }

    func info() -> ModelInfo { ModelInfo(name: "async-swift-model", contextTokens: 4096, constrainsJsonSchema: false) }

    func generate(request: GenerationRequest, listener: TokenListener?) async throws -> GenerationResult {
        let n = nextCall()
        started.signal()
        if hang {
            do {
                try await Task.sleep(nanoseconds: 600_000_000_000)
            } catch {
                cancelled.signal()
                throw error
            }
        }
        try await Task.sleep(nanoseconds: 5_000_000)
        if let failure { throw failure }
        let text = replies[min(n, replies.count) - 1]
        if let listener {
            var word = ""
            for c in text {
                word.append(c)
                if c == " " { listener.onToken(piece: word); word = "" }
            }
            if !word.isEmpty { listener.onToken(piece: word) }
        }
        return GenerationResult(text: text, finish: .stop, promptTokens: 10, completionTokens: 5, promptMs: 1,
                                generationMs: 5)
    }
}

struct NotAnLlmError: Error {}

final class CoachAsyncTests: XCTestCase {
    func testAsyncMessageReturnsItsResultAndStreamsItsEvents() async throws {
        let coach = try Coach.openInMemory()
        try coach.model().set(model: FakeModel(replies: [proposal, assistantSummary]))
        let listener = CollectingAssistantListener()
        let generated = try await coach.assistant().sendAsync(request: planRequest("something about mom"), listener: listener)
        XCTAssertEqual(generated.summary, assistantSummary)
        XCTAssertEqual(listener.events.map(eventName), allAssistantEvents)
        // A fresh script per call (a FakeModel's replies are used up).
        try coach.model().set(model: FakeModel(replies: [proposal, assistantSummary]))
        let result = try await coach.assistant().message(planRequest("something about mom"))
        XCTAssertEqual(result.operations.map { $0.title }, ["Call mom"])
        try coach.model().set(model: FakeModel(replies: [proposal, assistantSummary]))
        var events: [AssistantEvent] = []
        for try await event in coach.assistant().messageEvents(planRequest("something about mom")) where event != .heartbeat {
            events.append(event)
        }
        XCTAssertEqual(events.map(eventName), allAssistantEvents)
        guard case .result(let streamed) = events[5] else { return XCTFail("\(events)") }
        XCTAssertEqual(streamed.summary, assistantSummary)
    }

    func testAChatAnswerStreamsAndReplyTextEndsWithTheSummary() async throws {
        let coach = try Coach.openInMemory()
        try coach.model().set(model: FakeModel(replies: [rawChat], stream: true))
        let listener = CollectingAssistantListener()
        let result = try await coach.assistant().message(chatRequest("tips for tonight?"), listener: listener)
        XCTAssertEqual(result.summary, chatSummary)
        XCTAssertEqual(shape(listener.events), ["textDelta", "summary", "done"])
        XCTAssertGreaterThan(deltas(listener.events).count, 3, "streamed in pieces")
        XCTAssertEqual(deltas(listener.events).joined(), rawChat, "the deltas are the model's text")

        try coach.model().set(model: FakeModel(replies: [rawChat], stream: true))
        var texts: [String] = []
        for try await text in coach.assistant().replyText(chatRequest("tips for tonight?")) { texts.append(text) }
        XCTAssertEqual(texts.last, chatSummary, "the summary comes last")
        let streamed = Array(texts.dropLast())
        XCTAssertGreaterThan(streamed.count, 3, "grows piece by piece: \(texts)")
        XCTAssertEqual(streamed.last, rawChat)
        for (a, b) in zip(streamed, streamed.dropFirst()) {
            XCTAssertTrue(b.hasPrefix(a) && b.count > a.count, "grows: \(a) -> \(b)")
        }
        // A plan is not streamed: its summary is the only text.
        try coach.model().set(model: FakeModel(replies: [proposal, assistantSummary], stream: true))
        var planTexts: [String] = []
        for try await text in coach.assistant().replyText(planRequest("something about mom")) { planTexts.append(text) }
        XCTAssertEqual(planTexts, [assistantSummary])
    }

    func testAnAsyncModelAnswersStreamsAndItsJsonIsValidatedAndRepaired() async throws {
        let coach = try Coach.openInMemory()
        try coach.model().setAsyncModel(model: AsyncFakeModel())
        XCTAssertEqual(coach.model().info()?.name, "async-swift-model")
        let listener = CollectingAssistantListener()
        let result = try await coach.assistant().message(chatRequest("tips?"), listener: listener)
        XCTAssertEqual(result.summary, chatSummary)
        XCTAssertEqual(deltas(listener.events), ["Drink ", "**water** ", "and ", "sleep ", "well ", "tonight."])
        // Plan mode: an unreadable first answer, then the proposal (the one repair), then the summary.
        let planner = AsyncFakeModel(replies: ["I would add a call.", proposal, assistantSummary])
        try coach.model().setAsyncModel(model: planner)
        let plan = try await coach.assistant().message(planRequest("something about mom"))
        XCTAssertEqual(plan.operations.map { $0.title }, ["Call mom"])
        XCTAssertEqual(plan.summary, assistantSummary)
        XCTAssertEqual(planner.calls, 3, "proposal, repair, summary")
    }

    func testAnAsyncModelThatThrowsFailsTheMessage() async throws {
        let coach = try Coach.openInMemory()
        try coach.model().setAsyncModel(model: AsyncFakeModel(failure: LlmError.Backend(detail: "the system model is not ready")))
        do {
            _ = try await coach.assistant().message(chatRequest("tips?"))
            XCTFail("a throwing model answered")
        } catch CoachError.ModelFailure(let detail) {
            XCTAssertTrue(detail.contains("not ready"), detail)
        }
        try coach.model().setAsyncModel(model: AsyncFakeModel(failure: NotAnLlmError()))
        do {
            _ = try await coach.assistant().message(chatRequest("tips?"))
            XCTFail("a throwing model answered")
        } catch CoachError.ModelFailure(let detail) {
            XCTAssertTrue(detail.contains("NotAnLlmError"), detail)
        }
    }

    func testCancellingTheMessageCancelsTheAsyncModelsTask() async throws {
        let coach = try Coach.openInMemory()
        let model = AsyncFakeModel(hang: true)
        try coach.model().setAsyncModel(model: model)
        let task = Task { try await coach.assistant().message(chatRequest("tips?")) }
        try await awaitSignal(model.started, "the model never ran")
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("an answer after the cancel")
        } catch CoachError.Cancelled {
        }
        try await awaitSignal(model.cancelled, "the model's Task was not cancelled")
    }

    func testCancellingTheTaskCancelsTheRustWork() async throws {
        let coach = try Coach.openInMemory()
        let model = BlockingModel()
        try coach.model().set(model: model)
        let listener = CollectingAssistantListener()
        let task = Task { try await coach.assistant().message(planRequest("something about mom"), listener: listener) }
        try await awaitSignal(model.started, "the model never ran")
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a result after the cancel")
        } catch CoachError.Cancelled {
        }
        try await awaitSignal(model.stopped, "the model did not see the cancel")
        XCTAssertEqual(listener.events.last.map(eventName), "done")
        XCTAssertFalse(listener.events.map(eventName).contains("result"))
    }

    func testStoppingTheStreamConsumerCancelsTheRustWork() async throws {
        let coach = try Coach.openInMemory()
        let model = BlockingModel()
        try coach.model().set(model: model)
        let consumer = Task { () -> [AssistantEvent] in
            var seen: [AssistantEvent] = []
            for try await event in coach.assistant().messageEvents(planRequest("something about mom")) { seen.append(event) }
            return seen
        }
        try await awaitSignal(model.started, "the model never ran")
        consumer.cancel()
        let seen = try? await consumer.value
        XCTAssertFalse((seen ?? []).contains { if case .result = $0 { return true } else { return false } })
        try await awaitSignal(model.stopped, "the model did not see the cancel")
    }

    func testAsyncSuggestionsWorkoutMealsAndModelLoad() async throws {
        let coach = try Coach.openInMemoryWithOptions(options: OpenOptions(builtinRecipes: false))
        try setupLogged(coach)
        let changes = try await coach.suggestions().generate(forSession: "s1")
        XCTAssertFalse(weightChanges(changes).isEmpty, "\(changes)")
        var progress: [SuggestionProgressEvent] = []
        for try await e in coach.suggestions().suggestionEvents(forSession: "s1") { progress.append(e) }
        XCTAssertEqual(progress, [.finished(changes)], "stored suggestions finish at once")

        let workout = try await coach.workouts().generate(workoutRequest())
        XCTAssertEqual(workout.source, .deterministic)
        XCTAssertEqual(try coach.workouts().get(workoutId: workout.workout.workoutId), workout)
        var stages: [WorkoutStage] = []
        for try await e in coach.workouts().workoutEvents(workoutRequest()) { stages.append(e.stage) }
        XCTAssertEqual(stages, [.preAnalysis, .done])

        _ = try coach.meals().importRecipes(json: try starterRecipesJson())
        let request = mealRequest([("2026-11-23", dayMeals(breakfast: mealSlot(1), dinner: mealSlot(2)))])
        let job = try await coach.meals().plan(request)
        XCTAssertEqual(job.status, .complete)
        var mealEvents: [MealPlanEvent] = []
        for try await e in coach.meals().mealPlanEvents(request) { mealEvents.append(e) }
        guard case .completed = mealEvents.last else { return XCTFail("\(mealEvents)") }

        do {
            _ = try await coach.model().load(atPath: "/no/such/model.gguf", options: ModelOptions(contextTokens: 2048, threads: 2))
            XCTFail("loaded a missing file")
        } catch CoachError.ModelUnusable {
        }
        XCTAssertNil(coach.model().info())
    }

    func testAsyncTodayPlanAndCancellingIt() async throws {
        let coach = try Coach.openInMemory()
        // One exercise per slot of today's skeleton ("30 minutes, upper body", a full gym).
        try coach.model().set(model: FakeModel(replies: [#"{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}"#]))
        let t = try await coach.workouts().todayPlan(todayPlanRequest())
        XCTAssertEqual(t.plan.focus, "Upper Body Session")
        XCTAssertEqual(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press")
        let model = BlockingModel()
        try coach.model().set(model: model)
        let task = Task { try await coach.workouts().todayPlan(todayPlanRequest()) }
        try await awaitSignal(model.started, "the model never ran")
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a plan after the cancel")
        } catch CoachError.Cancelled {
        }
        try await awaitSignal(model.stopped, "the model did not see the cancel")
    }

    func testCancellingSuggestionsStopsTheModel() async throws {
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let model = BlockingModel()
        try coach.model().set(model: model)
        let task = Task { try await coach.suggestions().generate(forSession: "s1") }
        try await awaitSignal(model.started, "the model never ran")
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("suggestions after the cancel")
        } catch CoachError.Cancelled {
        }
        try await awaitSignal(model.stopped, "the model did not see the cancel")
    }
}
