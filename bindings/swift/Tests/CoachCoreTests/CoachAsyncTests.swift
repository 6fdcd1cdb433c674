// The async part of the Swift binding test: the generated `async throws` calls and the shipped
// wrappers of CoachAsync.swift (Task cancellation, AsyncThrowingStream of events).
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

    func testCancellingTheTaskCancelsTheRustWork() async throws {
        let coach = try Coach.openInMemory()
        let model = BlockingModel()
        try coach.model().set(model: model)
        let listener = CollectingAssistantListener()
        let task = Task { try await coach.assistant().message(planRequest("plan my weekend"), listener: listener) }
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
            for try await event in coach.assistant().messageEvents(planRequest("plan my weekend")) { seen.append(event) }
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
