// Binding test for coachcore from Swift (the UniFFI-generated module `coachcore`), run with
// `swift test` by bindings/swift/test.sh.
import Foundation
import XCTest
import coachcore

let workedExample = """
{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai","energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,"focus":"Prep"},{"title":"Main Set","durationMinutes":20,"focus":"Strength"}],"exercises":[{"blockIndex":0,"order":0,"name":"Jumping Jacks","prescription":"2 x 30s","detail":null},{"blockIndex":1,"order":0,"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}
"""

let badBlockIndex = workedExample.replacingOccurrences(
    of: #"{"blockIndex":1,"order":0,"name":"DB Press""#,
    with: #"{"blockIndex":5,"order":0,"name":"DB Press""#)

let v1Example = """
{"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai","energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,"focus":"Prep","exercises":[{"name":"Jumping Jacks","prescription":"2 x 30s","detail":null}]},{"title":"Main Set","durationMinutes":20,"focus":"Strength","exercises":[{"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}]}
"""

let v2 = SchemaSelection(schemaVersion: .v2Flat, reason: .override)
let v1 = SchemaSelection(schemaVersion: .v1Current, reason: .override)

func allIds(_ plan: TodayPlan) -> [String] {
    [plan.id] + plan.blocks.flatMap { b in [b.id] + b.exercises.map { $0.id } }
}

func isUuidLike(_ s: String) -> Bool {
    s.range(of: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
            options: .regularExpression) != nil
}

func makeTempDir() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("coachcore-swift-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

// ---- suggestions (spec 004): one barbell exercise in a one-exercise plan ----

let dayMs: Int64 = 86_400_000
let t0Ms: Int64 = 1_763_000_000_000
let planId = "push-day"
let rxId = "rx-bench"
let doubleProgression = "double_progression_range"

func benchExercise() -> CatalogExercise {
    CatalogExercise(catalogId: "bench", name: "Bench Press", equipment: .barbell, targetMuscles: [.chest])
}

/// Bench 3 x 8-12 at 135 lb, all sets resting 120 s.
func pushPlan() -> WorkoutPlan {
    WorkoutPlan(
        settings: PlanSettings(planId: planId, unit: .lbs, trainingStyle: .straightSets,
                               load: LoadConfig(plates: [], barWeight: 0, dumbbells: [])),
        name: "Push day",
        exercises: [ExercisePrescription(
            id: rxId, catalogId: "bench", position: 0,
            repRange: RepRange(mode: .range, lower: 8, upper: 12, target: 0),
            restMode: .allSame, restSeconds: 120,
            sets: (0..<3).map { SetPrescription(index: UInt32($0), setType: .regular, targetWeight: 135, targetReps: 8, restSeconds: 120) })])
}

func performedSets(reps: UInt32 = 12) -> [PerformedSet] {
    (0..<3).map { PerformedSet(index: UInt32($0), setType: .regular, weight: 135, reps: reps, restSeconds: 120, completed: true) }
}

/// Session sN, 2 days after s(N-1): bench 3 x `reps` at 135 (12: the top of the range).
func sessionLog(_ n: Int64, planId: String? = planId, reps: UInt32 = 12) -> SessionLog {
    SessionLog(id: "s\(n)", planId: planId, performedAtMs: t0Ms + 2 * n * dayMs,
               exercises: [ExerciseLog(id: "bench-s\(n)", catalogId: "bench", prescriptionId: rxId, sets: performedSets(reps: reps))])
}

/// Session sN's bench performance, as the engine sees it (for evaluateExercise).
func performance(_ n: Int64) -> ExercisePerformance {
    ExercisePerformance(id: "bench-s\(n)", sessionId: "s\(n)", catalogId: "bench",
                        performedAtMs: t0Ms + 2 * n * dayMs, sets: performedSets())
}

/// Saves the exercise and the plan and logs s0 and s1.
func setupLogged(_ coach: Coach) throws {
    try coach.workouts().saveCatalogExercise(exercise: benchExercise())
    try coach.workouts().savePlan(plan: pushPlan())
    try coach.workouts().logSession(session: sessionLog(0))
    try coach.workouts().logSession(session: sessionLog(1))
}

func weightChanges(_ changes: [PrescriptionChange]) -> [PrescriptionChange] {
    changes.filter { $0.draft.property == .weight }.sorted { ($0.draft.targetSetIndex ?? 0) < ($1.draft.targetSetIndex ?? 0) }
}

func targetWeights(_ coach: Coach) throws -> [Double] {
    try coach.workouts().plan(planId: planId)?.exercises.first?.sets.map { $0.targetWeight } ?? []
}

func assertNotFound<T>(_ expr: @autoclosure () throws -> T, _ message: String = "",
                       file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try expr(), message, file: file, line: line) { error in
        guard case CoachError.NotFound(let detail) = error else {
            return XCTFail("expected NotFound, got \(error) \(message)", file: file, line: line)
        }
        XCTAssertFalse(detail.isEmpty, file: file, line: line)
    }
}

func assertInvalidArgument<T>(_ expr: @autoclosure () throws -> T, _ message: String = "",
                              file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try expr(), message, file: file, line: line) { error in
        guard case CoachError.InvalidArgument(let detail) = error else {
            return XCTFail("expected InvalidArgument, got \(error) \(message)", file: file, line: line)
        }
        XCTAssertFalse(detail.isEmpty, file: file, line: line)
    }
}

func assertClosed<T>(_ expr: @autoclosure () throws -> T, _ message: String = "",
                     file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertThrowsError(try expr(), message, file: file, line: line) { error in
        guard case CoachError.Closed(let detail) = error else {
            return XCTFail("expected Closed, got \(error) \(message)", file: file, line: line)
        }
        XCTAssertFalse(detail.isEmpty, file: file, line: line)
    }
}

// ---- an app-provided language model: the library's LanguageModel protocol implemented in Swift ----

let midReps: UInt32 = 10  // mid-range (8-12): the rules propose reps increases only, no weight or rest change
let aiRest: Double = 120 + 30  // the fake's exercise-level rest: the current 120 s + 30
let aiReasoning = "Reps held at 10 on 120 s; 150 s of rest should help you reach 12."
let toolCall = #"{"tool":"getRecentExercisePerformances","limit":2}"#
let finalAnswer = #"{"suggestions":["#
    + #"{"changeType":"increaseRest","targetSetIndex":-1,"newValue":150,"reasoning":""# + aiReasoning + #""},"#
    + #"{"changeType":"increaseReps","targetSetIndex":9,"newValue":9,"reasoning":"There is no set 9."}]}"#
/// The user's texts, which must never reach the log.
let privateTexts = ["Bench Press", "Push day", aiReasoning]

/// Saves the exercise and the plan and logs s0 and s1 at 3 x 10 (mid-range).
func setupMidRange(_ coach: Coach) throws {
    try coach.workouts().saveCatalogExercise(exercise: benchExercise())
    try coach.workouts().savePlan(plan: pushPlan())
    try coach.workouts().logSession(session: sessionLog(0, reps: midReps))
    try coach.workouts().logSession(session: sessionLog(1, reps: midReps))
}

func aiChanges(_ changes: [PrescriptionChange]) -> [PrescriptionChange] {
    changes.filter { $0.draft.source == .ai }
}

/// A LanguageModel implemented in Swift: records every request and replies from a script (the last
/// reply repeats, so repairs get it again). `failure` is thrown from generate; `stream` sends the reply
/// in pieces to the listener when the library passes one; `checkCancel` asks the CancelToken on every call.
final class FakeModel: LanguageModel, @unchecked Sendable {
    private let lock = NSLock()
    private let replies: [String]
    private let name: String
    private let failure: LlmError?
    private let stream: Bool
    private let checkCancel: Bool
    private var _requests: [GenerationRequest] = []
    private var _listenerPassed: [Bool] = []
    private var _streamed: [String] = []
    private var _cancelled: [Bool] = []
    private var _infoCalls = 0

    init(replies: [String] = [toolCall, finalAnswer], name: String = "fake-swift-model",
         failure: LlmError? = nil, stream: Bool = false, checkCancel: Bool = false) {
        self.replies = replies
        self.name = name
        self.failure = failure
        self.stream = stream
        self.checkCancel = checkCancel
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var requests: [GenerationRequest] { locked { _requests } }
    var listenerPassed: [Bool] { locked { _listenerPassed } }
    var streamed: [String] { locked { _streamed } }
    var cancelled: [Bool] { locked { _cancelled } }
    var infoCalls: Int { locked { _infoCalls } }

    func info() -> ModelInfo {
        locked { _infoCalls += 1 }
        return ModelInfo(name: name, contextTokens: 4096, constrainsJsonSchema: false)
    }

    func generate(request: GenerationRequest, listener: TokenListener?, cancel: CancelToken) throws -> GenerationResult {
        let n = locked { () -> Int in
            _requests.append(request)
            _listenerPassed.append(listener != nil)
            return _requests.count
        }
        if checkCancel {
            let c = cancel.isCancelled()
            locked { _cancelled.append(c) }
        }
        if let failure { throw failure }
        let text = replies[min(n, replies.count) - 1]
        if stream, let listener {
            var pieces: [String] = []
            var rest = Substring(text)
            while !rest.isEmpty {
                pieces.append(String(rest.prefix(7)))
                rest = rest.dropFirst(7)
            }
            for piece in pieces { listener.onToken(piece: piece) }
            locked { _streamed.append(pieces.joined()) }
        }
        return GenerationResult(text: text, finish: .stop, promptTokens: UInt32(100 * request.messages.count),
                                completionTokens: UInt32(text.count / 4), promptMs: 1, generationMs: 2)
    }
}

struct LogRecord: Equatable {
    let level: LogLevel
    let target: String
    let message: String
}

/// A LogListener implemented in Swift: keeps every record.
final class CollectingLogListener: LogListener, @unchecked Sendable {
    private let lock = NSLock()
    private var _records: [LogRecord] = []
    var records: [LogRecord] {
        lock.lock()
        defer { lock.unlock() }
        return _records
    }

    func onLog(level: LogLevel, target: String, message: String) {
        lock.lock()
        defer { lock.unlock() }
        _records.append(LogRecord(level: level, target: target, message: message))
    }
}

func withLogListener<T>(_ listener: LogListener, _ level: LogLevel, _ body: () throws -> T) rethrows -> T {
    setLogListener(listener: listener, level: level)
    defer { setLogListener(listener: nil, level: .info) }
    return try body()
}

// ---- the assistant (spec 002): a Swift listener, an app-implemented model, apply and reads ----


let assistantToday = "2026-11-20"  // a Friday: its week runs from Monday 2026-11-16 to Sunday 2026-11-22
let proposal = #"{"operations":[{"op":"create","kind":"todo","title":"Call mom","scheduledFor":"2026-11-21","priority":"High"}]}"#
let assistantSummary = "I added a call to mom on Saturday."

/// An AssistantListener implemented in Swift: keeps every event but heartbeats.

// ---- meal planning (spec 003) ----

/// The starter recipes, copied by test.sh to the package's root (`starter-recipes.json`).
func starterRecipesJson() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("starter-recipes.json"), encoding: .utf8)
}

let fallbackWarning = "Model unavailable: picked by the deterministic fallback"

func mealSlot(_ servings: UInt32, _ tags: [String] = [], note: String? = nil) -> MealSlotRequest {
    MealSlotRequest(servings: servings, tags: tags, note: note, isMealPrep: false, repeat: nil, pinnedRecipeId: nil)
}

func dayMeals(breakfast: MealSlotRequest? = nil, lunch: MealSlotRequest? = nil,
              dinner: MealSlotRequest? = nil) -> MealsRequest {
    MealsRequest(breakfast: breakfast, lunch: lunch, dinner: dinner, snack: nil, dessert: nil)
}

func mealRequest(_ days: [(String, MealsRequest)], excluded: [String] = []) -> MealPlanRequest {
    MealPlanRequest(days: days.map { DayRequest(date: $0.0, meals: $0.1) },
                    preferences: MealPreferences(diet: nil, excludedIngredients: excluded, maxPrepMinutes: nil,
                                                 maxCookMinutes: nil),
                    recentDays: nil)
}

final class CollectingMealListener: MealPlanListener, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [MealPlanEvent] = []
    var events: [MealPlanEvent] { lock.lock(); defer { lock.unlock() }; return _events }
    func onEvent(event: MealPlanEvent) {
        lock.lock(); defer { lock.unlock() }
        _events.append(event)
    }
}

final class CollectingAssistantListener: AssistantListener, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [AssistantEvent] = []
    var events: [AssistantEvent] { lock.lock(); defer { lock.unlock() }; return _events }
    func onEvent(event: AssistantEvent) {
        if event == .heartbeat { return }
        lock.lock(); defer { lock.unlock() }
        _events.append(event)
    }
}

func eventName(_ e: AssistantEvent) -> String {
    switch e {
    case .stage: return "stage"
    case .clarify: return "clarify"
    case .ops: return "ops"
    case .textDelta: return "textDelta"
    case .summary: return "summary"
    case .result: return "result"
    case .heartbeat: return "heartbeat"
    case .done: return "done"
    }
}

/// A model whose generate blocks until the call is cancelled; `started` is signalled when it runs,
/// `stopped` when it saw the cancel.
final class BlockingModel: LanguageModel, @unchecked Sendable {
    let started = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)
    func info() -> ModelInfo { ModelInfo(name: "blocking-swift-model", contextTokens: 4096, constrainsJsonSchema: false) }
    func generate(request: GenerationRequest, listener: TokenListener?, cancel: CancelToken) throws -> GenerationResult {
        started.signal()
        while !cancel.isCancelled() { Thread.sleep(forTimeInterval: 0.002) }
        stopped.signal()
        throw LlmError.Cancelled
    }
}

func todoOp(_ title: String, _ date: String? = nil, _ priority: Priority? = nil) -> PlannerOperation {
    PlannerOperation(op: .create, kind: .todo, title: title, scheduledFor: date, priority: priority)
}

func dailyHabit(_ title: String, _ anchor: String) -> PlannerOperation {
    PlannerOperation(op: .create, kind: .habit, title: title, scheduledFor: anchor, timeOfDay: "21:00",
              recurrence: Recurrence(kind: .daily))
}

func planRequest(_ message: String) -> AssistantRequest {
    AssistantRequest(message: message, mode: .plan, today: assistantToday)
}

final class CoachCoreTests: XCTestCase {
    func checkWorkedExample(_ plan: TodayPlan, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(plan.focus, "Upper Body Strength", file: file, line: line)
        XCTAssertEqual(plan.durationMinutes, 30, file: file, line: line)
        XCTAssertEqual(plan.equipment, ["Dumbbells"], file: file, line: line)
        XCTAssertEqual(plan.source, .ai, file: file, line: line)
        XCTAssertEqual(plan.energy, .moderate, file: file, line: line)
        XCTAssertEqual(plan.summary, "Sample plan", file: file, line: line)
        XCTAssertEqual(plan.blocks.map { $0.title }, ["Warm-up", "Main Set"], file: file, line: line)
        XCTAssertEqual(plan.blocks.map { $0.durationMinutes }, [5, 20], file: file, line: line)
        XCTAssertEqual(plan.blocks.map { $0.focus }, ["Prep", "Strength"], file: file, line: line)
        guard plan.blocks.count == 2,
              plan.blocks[0].exercises.count == 1, plan.blocks[1].exercises.count == 1 else {
            return XCTFail("unexpected plan shape: \(plan)", file: file, line: line)
        }
        let jj = plan.blocks[0].exercises[0], press = plan.blocks[1].exercises[0]
        XCTAssertEqual(jj.name, "Jumping Jacks", file: file, line: line)
        XCTAssertEqual(jj.prescription, "2 x 30s", file: file, line: line)
        XCTAssertNil(jj.detail, file: file, line: line)
        XCTAssertEqual(press.name, "DB Press", file: file, line: line)
        XCTAssertEqual(press.prescription, "3 x 10", file: file, line: line)
        XCTAssertEqual(press.detail, "Controlled tempo", file: file, line: line)
        let ids = allIds(plan)
        for id in ids { XCTAssertTrue(isUuidLike(id), "id \(id) is not UUID-like", file: file, line: line) }
        XCTAssertEqual(Set(ids).count, ids.count, "ids are not distinct", file: file, line: line)
    }

    func testLibraryVersion() {
        XCTAssertFalse(libraryVersion().isEmpty)
    }

    func testSelectOverrideWins() {
        XCTAssertEqual(selectPlanSchema(supported: [.v1Current, .v2Flat], overrideVersion: .v1Current),
                       SchemaSelection(schemaVersion: .v1Current, reason: .override))
        XCTAssertEqual(selectPlanSchema(supported: [.v1Current], overrideVersion: .v2Flat),
                       SchemaSelection(schemaVersion: .v2Flat, reason: .override))
    }

    func testSelectSingleSupportedAndSmallest() {
        XCTAssertEqual(selectPlanSchema(supported: [.v1Current], overrideVersion: nil),
                       SchemaSelection(schemaVersion: .v1Current, reason: .singleSupported))
        XCTAssertEqual(selectPlanSchema(supported: [.v2Flat], overrideVersion: nil),
                       SchemaSelection(schemaVersion: .v2Flat, reason: .singleSupported))
        let both = selectPlanSchema(supported: [.v1Current, .v2Flat], overrideVersion: nil)
        XCTAssertEqual(both.reason, .smallestEstimate)
        XCTAssertEqual(selectPlanSchema(supported: [], overrideVersion: nil), both)
    }

    func testTransformWorkedExample() throws {
        let coach = try Coach.openInMemory()
        let t = try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: nil)
        checkWorkedExample(t.plan)
        XCTAssertEqual(t.schemaVersion, .v2Flat)
        XCTAssertFalse(t.rulesetVersion.isEmpty)
    }

    func testTransformFencedAndWrapped() throws {
        let coach = try Coach.openInMemory()
        let fenced = "Here is your plan for today:\n```json\n\(workedExample)\n```\nHave a good workout!"
        checkWorkedExample(try coach.workouts().transformPlan(rawText: fenced, selection: v2, seed: 1).plan)
        let wrapped = "<think>The user wants an upper body session; keep it to 30 minutes.</think>"
            + "<response>\(workedExample)</response>"
        checkWorkedExample(try coach.workouts().transformPlan(rawText: wrapped, selection: v2, seed: 1).plan)
    }

    func testTransformV1Current() throws {
        let coach = try Coach.openInMemory()
        let t = try coach.workouts().transformPlan(rawText: v1Example, selection: v1, seed: 3)
        checkWorkedExample(t.plan)
        XCTAssertEqual(t.schemaVersion, .v1Current)
    }

    func testTypedErrorBlockIndexOutOfRange() throws {
        XCTAssertNotEqual(badBlockIndex, workedExample)
        let coach = try Coach.openInMemory()
        do {
            _ = try coach.workouts().transformPlan(rawText: badBlockIndex, selection: v2, seed: nil)
            XCTFail("no error thrown")
        } catch CoachError.InvalidModelOutput(let code, let path, let detail) {
            XCTAssertEqual(code, .blockIndexOutOfRange)
            XCTAssertEqual(path, "exercises[1].blockIndex")
            XCTAssertFalse(detail.isEmpty)
        }
        // still usable after an error
        checkWorkedExample(try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: nil).plan)
    }

    func testTypedErrorInvalidJson() throws {
        let coach = try Coach.openInMemory()
        do {
            _ = try coach.workouts().transformPlan(rawText: "I could not make a plan today, sorry.", selection: v2, seed: nil)
            XCTFail("no error thrown")
        } catch CoachError.InvalidModelOutput(let code, _, _) {
            XCTAssertEqual(code, .invalidJson)
        }
    }

    func testDeterminismWithSeed() throws {
        let coach = try Coach.openInMemory()
        let a = try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: 42).plan
        let b = try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: 42).plan
        XCTAssertEqual(a, b)
        let other = try Coach.openInMemory()
        XCTAssertEqual(try other.workouts().transformPlan(rawText: workedExample, selection: v2, seed: 42).plan, a)
        let c = try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: 43).plan
        XCTAssertNotEqual(c.id, a.id)
    }

    func testFileDatabaseRecordsGenerations() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("coach.sqlite3").path
        var okId: Int64?
        do {
            let coach = try Coach.open(dbPath: path)
            XCTAssertEqual(try coach.workouts().planGenerations(limit: 10).count, 0)
            let t = try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: 7)
            okId = t.generationId
            XCTAssertNotNil(okId)
            XCTAssertThrowsError(try coach.workouts().transformPlan(rawText: badBlockIndex, selection: v2, seed: 7))
            let rows = try coach.workouts().planGenerations(limit: 10)
            XCTAssertEqual(rows.count, 2)
            guard rows.count == 2 else { return }
            let failed = rows[0], ok = rows[1]
            XCTAssertFalse(failed.succeeded)
            XCTAssertEqual(failed.errorCode, .blockIndexOutOfRange)
            XCTAssertTrue(ok.succeeded)
            XCTAssertNil(ok.errorCode)
            XCTAssertEqual(ok.id, okId)
            XCTAssertNotEqual(failed.id, ok.id)
            for r in rows {
                XCTAssertFalse(r.feature.isEmpty)
                XCTAssertEqual(r.schemaVersion, .v2Flat)
                XCTAssertEqual(r.selectionReason, .override)
                XCTAssertEqual(r.rulesetVersion, t.rulesetVersion)
                XCTAssertGreaterThan(r.createdAtMs, 1_600_000_000_000)
            }
            XCTAssertGreaterThanOrEqual(failed.createdAtMs, ok.createdAtMs)
            XCTAssertEqual(try coach.workouts().planGenerations(limit: 1).map { $0.id }, [failed.id])
        }
        // the first Coach is released here, closing the database
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(size, 0)
        let reopened = try Coach.open(dbPath: path)
        let rows = try reopened.workouts().planGenerations(limit: 10)
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows.last?.id, okId)
        XCTAssertEqual(rows.last?.succeeded, true)
        XCTAssertEqual(rows.first?.errorCode, .blockIndexOutOfRange)
    }

    func testDatabaseTooNew() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("newer.sqlite3")
        do {
            let coach = try Coach.open(dbPath: url.path)
            _ = try coach.workouts().transformPlan(rawText: workedExample, selection: v2, seed: 1)
        }  // released here: the database is closed
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes.replaceSubrange(60..<64, with: [0, 0, 0, 99])  // PRAGMA user_version = 99
        let data = Data(bytes)
        try data.write(to: url)
        do {
            _ = try Coach.open(dbPath: url.path)
            XCTFail("no error thrown")
        } catch CoachError.DatabaseTooNew(let found, let supported) {
            XCTAssertEqual(found, 99)
            XCTAssertTrue(supported > 0 && supported < 99, "supportedVersion \(supported)")
        }
        XCTAssertEqual(try Data(contentsOf: url), data, "newer database was modified")
    }

    func testNotADatabase() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("garbage.db")
        var bytes = [UInt8]((0..<4096).map { UInt8(($0 * 37 + 11) % 251) })
        let head = Array("this is not a sqlite database\n".utf8)
        bytes.replaceSubrange(0..<head.count, with: head)
        let data = Data(bytes)
        try data.write(to: url)
        do {
            _ = try Coach.open(dbPath: url.path)
            XCTFail("no error thrown")
        } catch CoachError.NotADatabase {
            // expected
        }
        XCTAssertEqual(try Data(contentsOf: url), data, "garbage file was modified")
    }

    // ---- suggestions (spec 004) ----

    /// The weight changes of s1: double-progression increases 135 -> 140 on sets 0 and 1, by set.
    @discardableResult
    func checkIncreases(_ changes: [PrescriptionChange], file: StaticString = #filePath, line: UInt = #line) -> [PrescriptionChange] {
        let incs = weightChanges(changes)
        XCTAssertEqual(incs.map { $0.draft.targetSetIndex }, [0, 1], "all changes: \(changes)", file: file, line: line)
        for c in incs {
            let d = c.draft
            XCTAssertEqual(d.changeType, .increaseWeight, file: file, line: line)
            XCTAssertEqual(d.ruleId, doubleProgression, file: file, line: line)
            XCTAssertEqual(d.source, .rule, file: file, line: line)
            XCTAssertEqual(d.oldValue, .number(value: 135), file: file, line: line)
            XCTAssertEqual(d.newValue, .number(value: 140), file: file, line: line)
            if case .number(let value) = d.newValue {
                XCTAssertEqual(value, 140.0, file: file, line: line)
            } else {
                XCTFail("newValue is not a number: \(d.newValue)", file: file, line: line)
            }
            XCTAssertFalse(d.reasoning.isEmpty, file: file, line: line)
            XCTAssertEqual(d.evidence.performanceIds, ["bench-s1", "bench-s0"], file: file, line: line)
        }
        return incs
    }

    func testSuggestCatalogAndPlanRoundTrip() throws {
        let coach = try Coach.openInMemory()
        try coach.workouts().saveCatalogExercise(exercise: benchExercise())
        try coach.workouts().savePlan(plan: pushPlan())
        XCTAssertEqual(try coach.workouts().plan(planId: planId), pushPlan())
        XCTAssertNil(try coach.workouts().plan(planId: "no-such-plan"))
        XCTAssertNil(try coach.workouts().history(catalogId: "bench"), "never logged")
        var renamed = pushPlan()
        renamed.name = "Push day (heavy)"
        try coach.workouts().savePlan(plan: renamed)
        XCTAssertEqual(try coach.workouts().plan(planId: planId)?.name, "Push day (heavy)")
    }

    func testSuggestDoubleProgressionGeneratedOnce() throws {
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let h = try XCTUnwrap(try coach.workouts().history(catalogId: "bench"))
        XCTAssertEqual(h.sessionCount, 2)
        XCTAssertEqual([h.typicalLowerReps, h.typicalUpperReps], [12, 12])
        let first = try coach.suggestions().forSession(sessionId: "s1")
        checkIncreases(first)
        for c in first {
            XCTAssertEqual(c.decision, .pending)
            XCTAssertEqual([c.sessionId, c.planId, c.prescriptionId, c.catalogId], ["s1", planId, rxId, "bench"])
            XCTAssertEqual(c.outcome, .notEvaluated)
            XCTAssertNil(c.decidedAtMs)
            XCTAssertFalse(c.userOverride)
            XCTAssertFalse(c.id.isEmpty)
        }
        XCTAssertEqual(Set(first.map { $0.id }).count, first.count, "change ids are not distinct")
        XCTAssertEqual(try coach.suggestions().forSession(sessionId: "s1"), first, "second call")
    }

    func testSuggestAcceptAppliesToPlanOnce() throws {
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let incs = checkIncreases(try coach.suggestions().forSession(sessionId: "s1"))
        guard incs.count == 2 else { return }
        let accepted = try coach.suggestions().accept(changeId: incs[0].id)
        XCTAssertEqual(accepted.id, incs[0].id)
        XCTAssertEqual(accepted.decision, .accepted)
        XCTAssertNotNil(accepted.decidedAtMs)
        XCTAssertEqual(accepted.draft, incs[0].draft)
        XCTAssertEqual(try targetWeights(coach), [140, 135, 135])
        assertInvalidArgument(try coach.suggestions().accept(changeId: incs[0].id), "accept twice")
        XCTAssertEqual(try targetWeights(coach), [140, 135, 135], "applied once")
        let stored = try coach.suggestions().forSession(sessionId: "s1").first { $0.id == incs[0].id }
        XCTAssertEqual(stored?.decision, .accepted)
    }

    func testSuggestDeferPendingAndReject() throws {
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let first = try coach.suggestions().forSession(sessionId: "s1")
        let incs = checkIncreases(first)
        guard incs.count == 2 else { return }
        _ = try coach.suggestions().accept(changeId: incs[0].id)
        XCTAssertEqual(try coach.suggestions().deferred(planId: planId), [])
        let n = try coach.suggestions().deferPending(sessionId: "s1")
        XCTAssertEqual(Int(n), first.count - 1)
        XCTAssertEqual(try coach.suggestions().deferPending(sessionId: "s1"), 0, "nothing left pending")
        let deferred = try coach.suggestions().deferred(planId: planId)
        XCTAssertEqual(deferred.map { $0.id }.sorted(), first.map { $0.id }.filter { $0 != incs[0].id }.sorted())
        for c in deferred {
            XCTAssertEqual(c.decision, .deferred)
            XCTAssertNotNil(c.decidedAtMs)
        }
        let rejected = try coach.suggestions().reject(changeId: incs[1].id)
        XCTAssertEqual(rejected.id, incs[1].id)
        XCTAssertEqual(rejected.decision, .rejected)
        let left = try coach.suggestions().deferred(planId: planId)
        XCTAssertFalse(left.contains { $0.id == incs[1].id }, "rejected change still deferred")
        XCTAssertEqual(left.count, Int(n) - 1)
        assertInvalidArgument(try coach.suggestions().deferChange(changeId: incs[1].id), "defer a rejected change")
        XCTAssertEqual(try targetWeights(coach), [140, 135, 135], "rejecting changes nothing")
    }

    func testSuggestDeferChangeThenAccept() throws {
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let first = try coach.suggestions().forSession(sessionId: "s1")
        let incs = checkIncreases(first)
        guard incs.count == 2 else { return }
        let d = try coach.suggestions().deferChange(changeId: incs[1].id)
        XCTAssertEqual(d.id, incs[1].id)
        XCTAssertEqual(d.decision, .deferred)
        XCTAssertEqual(try coach.suggestions().deferred(planId: planId).map { $0.id }, [incs[1].id])
        XCTAssertEqual(Int(try coach.suggestions().deferPending(sessionId: "s1")), first.count - 1)
        XCTAssertEqual(try coach.suggestions().accept(changeId: incs[1].id).decision, .accepted, "accept a deferred change")
        XCTAssertEqual(try targetWeights(coach), [135, 140, 135])
    }

    func testSuggestAcceptChangeEditedIsAUserOverride() throws {
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let incs = checkIncreases(try coach.suggestions().forSession(sessionId: "s1"))
        guard incs.count == 2 else { return }
        let e = try coach.suggestions().acceptEdited(changeId: incs[0].id, newValue: .number(value: 145))
        XCTAssertEqual(e.id, incs[0].id)
        XCTAssertEqual(e.decision, .accepted)
        XCTAssertTrue(e.userOverride)
        XCTAssertEqual(e.draft.newValue, .number(value: 145))
        XCTAssertEqual(try targetWeights(coach), [145, 135, 135])
        assertInvalidArgument(try coach.suggestions().acceptEdited(changeId: incs[0].id, newValue: .number(value: 150)), "edit an accepted change")
    }

    func testSuggestNotFoundAndInvalidArgument() throws {
        let coach = try Coach.openInMemory()
        try coach.workouts().saveCatalogExercise(exercise: benchExercise())
        try coach.workouts().savePlan(plan: pushPlan())
        assertNotFound(try coach.workouts().logSession(session: sessionLog(0, planId: "no-such-plan")), "unknown plan id")
        assertNotFound(try coach.suggestions().forSession(sessionId: "s0"), "nothing was stored")
        assertNotFound(try coach.suggestions().accept(changeId: "no-such-change"))
        assertNotFound(try coach.suggestions().reject(changeId: "no-such-change"))
        assertNotFound(try coach.suggestions().deferred(planId: "no-such-plan"))
        assertNotFound(try coach.suggestions().deferPending(sessionId: "no-such-session"))
        try coach.workouts().logSession(session: sessionLog(0))
        assertInvalidArgument(try coach.workouts().logSession(session: sessionLog(0)), "same session id twice")
        XCTAssertEqual(try coach.workouts().history(catalogId: "bench")?.sessionCount, 1)
    }

    func testSuggestEvaluateExercise() throws {
        let plan = pushPlan()
        let ctx = ExerciseContext(plan: plan.settings, exercise: benchExercise(), prescription: plan.exercises[0],
                                  current: performance(1), previous: [performance(0)], history: nil)
        let drafts = try evaluateExercise(context: ctx, existing: [], nowMs: t0Ms + 2 * dayMs).filter { $0.property == .weight }
        XCTAssertEqual(drafts.map { $0.targetSetIndex }, [0, 1], "\(drafts)")
        for d in drafts {
            XCTAssertEqual(d.changeType, .increaseWeight)
            XCTAssertEqual(d.ruleId, doubleProgression)
            XCTAssertEqual(d.newValue, .number(value: 140))
        }
        let coach = try Coach.openInMemory()
        try setupLogged(coach)
        let stored = weightChanges(try coach.suggestions().forSession(sessionId: "s1"))
        XCTAssertEqual(stored.map { $0.draft }, drafts, "same drafts as the stored suggestions")
        guard let created = stored.first?.createdAtMs else { return XCTFail("no stored weight change") }
        let blocked = try evaluateExercise(context: ctx, existing: stored, nowMs: created + dayMs)
        XCTAssertEqual(blocked.filter { $0.changeType == .increaseWeight }, [], "in cooldown")
        let later = try evaluateExercise(context: ctx, existing: stored, nowMs: created + 8 * dayMs)
        XCTAssertEqual(later.filter { $0.property == .weight }, drafts, "after the cooldown")
    }

    func testSuggestFileDatabaseSurvivesReopen() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("coach.sqlite3").path
        var first: [PrescriptionChange] = []
        var acceptedId = ""
        do {
            let coach = try Coach.open(dbPath: path)
            try setupLogged(coach)
            first = try coach.suggestions().forSession(sessionId: "s1")
            let incs = checkIncreases(first)
            guard let inc0 = incs.first else { return }
            acceptedId = try coach.suggestions().accept(changeId: inc0.id).id
        }  // released here: the database is closed
        let coach = try Coach.open(dbPath: path)
        let again = try coach.suggestions().forSession(sessionId: "s1")
        XCTAssertEqual(again.map { $0.id }.sorted(), first.map { $0.id }.sorted())
        XCTAssertEqual(again.first { $0.id == acceptedId }?.decision, .accepted)
        XCTAssertEqual(try targetWeights(coach), [140, 135, 135])
        XCTAssertEqual(try coach.workouts().history(catalogId: "bench")?.sessionCount, 2)
    }

    // ---- an app-provided language model ----

    /// The fake's exercise-level rest increase was kept and its set-9 suggestion dropped.
    func checkAiRun(_ changes: [PrescriptionChange], _ fake: FakeModel, file: StaticString = #filePath, line: UInt = #line) {
        let ai = aiChanges(changes)
        XCTAssertEqual(ai.count, 1, "all changes: \(changes)", file: file, line: line)
        if let d = ai.first?.draft {
            XCTAssertEqual(d.source, .ai, file: file, line: line)
            XCTAssertNil(d.ruleId, file: file, line: line)
            XCTAssertEqual(d.changeType, .increaseRest, file: file, line: line)
            XCTAssertEqual(d.property, .rest, file: file, line: line)
            XCTAssertNil(d.targetSetIndex, "exercise-level rest", file: file, line: line)
            XCTAssertEqual(d.oldValue, .number(value: 120), file: file, line: line)
            XCTAssertEqual(d.newValue, .number(value: aiRest), file: file, line: line)
            XCTAssertEqual(d.reasoning, aiReasoning, file: file, line: line)
            XCTAssertTrue(d.evidence.performanceIds.contains("bench-s1"), "\(d.evidence.performanceIds)", file: file, line: line)
            XCTAssertEqual(ai.first?.prescriptionId, rxId, file: file, line: line)
        }
        XCTAssertEqual(changes.filter { $0.draft.targetSetIndex == 9 }, [], "set 9 does not exist", file: file, line: line)
        XCTAssertEqual(weightChanges(changes), [], "mid-range: no weight change", file: file, line: line)
        XCTAssertTrue(changes.contains { $0.draft.source == .rule }, "the rules still run", file: file, line: line)
        XCTAssertGreaterThanOrEqual(fake.requests.count, 2, "a tool call and the final answer", file: file, line: line)
    }

    func testAiForeignModelToolLoop() throws {
        let coach = try Coach.openInMemory()
        try setupMidRange(coach)
        let fake = FakeModel()
        try coach.model().set(model: fake)
        let changes = try coach.suggestions().forSession(sessionId: "s1")
        checkAiRun(changes, fake)
        XCTAssertGreaterThan(fake.infoCalls, 0)
        let reqs = fake.requests
        guard reqs.count >= 2 else { return XCTFail("\(reqs.count) requests") }
        for r in reqs {
            let schema = try XCTUnwrap(r.jsonSchema, "every request carries the step schema")
            XCTAssertTrue(schema.contains("suggestions"), schema)
            XCTAssertGreaterThan(r.maxTokens, 0)
        }
        let first = reqs[0].messages
        XCTAssertEqual(first.map { $0.role }, [.system, .user])
        XCTAssertTrue(first.last?.content.contains("Bench Press") ?? false, "the prompt describes the exercise")
        XCTAssertTrue(reqs[0].jsonSchema?.contains("getRecentExercisePerformances") ?? false, "the first step offers the tool")
        let second = reqs[1].messages
        guard second.count == 4 else { return XCTFail("second request: \(second.map { $0.content })") }
        XCTAssertEqual(second[2].role, .assistant)
        XCTAssertEqual(second[2].content, toolCall)
        let result = second[3]
        XCTAssertEqual(result.role, .user)
        XCTAssertTrue(result.content.contains("getRecentExercisePerformances result"), result.content)
        // s0's bench, 3 x 10 at 135 (in whatever compact form the library writes it).
        XCTAssertTrue(result.content.contains("135") && result.content.contains("10"),
                      "the tool result holds the performance data: \(result.content)")
        XCTAssertFalse(reqs[1].jsonSchema?.contains("getRecentExercisePerformances") ?? true, "a used tool is offered again")
        XCTAssertTrue(reqs.dropFirst(2).contains { r in r.messages.contains { $0.content.contains("suggestions[1].targetSetIndex") } },
                      "no repair request naming the invalid suggestion: \(reqs.last?.messages.map { $0.content } ?? [])")
        let n = reqs.count
        XCTAssertEqual(try coach.suggestions().forSession(sessionId: "s1"), changes, "stored")
        XCTAssertEqual(fake.requests.count, n, "asking again does not call the model")
    }

    func testAiForeignModelErrorLeavesRuleSuggestions() throws {
        let coach = try Coach.openInMemory()
        try setupMidRange(coach)
        let fake = FakeModel(failure: LlmError.Backend(detail: "fake backend outage"))
        try coach.model().set(model: fake)
        let logs = CollectingLogListener()
        let changes = try withLogListener(logs, .info) { try coach.suggestions().forSession(sessionId: "s1") }
        XCTAssertGreaterThanOrEqual(fake.requests.count, 1, "the model was asked")
        XCTAssertFalse(changes.isEmpty, "the rules' suggestions")
        XCTAssertEqual(aiChanges(changes), [])
        XCTAssertTrue(changes.allSatisfy { $0.draft.source == .rule && $0.draft.ruleId != nil }, "\(changes)")
        // The typed error crossed the boundary as itself (not as an unexpected callback error).
        let errors = logs.records.filter { $0.message.contains("fake backend outage") }
        XCTAssertFalse(errors.isEmpty, "\(logs.records)")
        XCTAssertFalse(errors.contains { $0.message.contains("app model failed") }, "\(errors)")
        // Still usable: the next session with a working model gets the AI change.
        try coach.workouts().logSession(session: sessionLog(2, reps: midReps))
        try coach.model().set(model: FakeModel())
        XCTAssertEqual(aiChanges(try coach.suggestions().forSession(sessionId: "s2")).count, 1)
    }

    func testAiForeignModelStreamsToTheListenerIfGiven() throws {
        let coach = try Coach.openInMemory()
        try setupMidRange(coach)
        let fake = FakeModel(stream: true)
        try coach.model().set(model: fake)
        checkAiRun(try coach.suggestions().forSession(sessionId: "s1"), fake)
        XCTAssertEqual(fake.listenerPassed.count, fake.requests.count)
        XCTAssertEqual(fake.streamed.count, fake.listenerPassed.filter { $0 }.count, "replies streamed to the listeners given")
    }

    func testAiForeignModelChecksTheCancelToken() throws {
        let coach = try Coach.openInMemory()
        try setupMidRange(coach)
        let fake = FakeModel(checkCancel: true)
        try coach.model().set(model: fake)
        checkAiRun(try coach.suggestions().forSession(sessionId: "s1"), fake)
        XCTAssertEqual(fake.cancelled.count, fake.requests.count)
        XCTAssertEqual(Set(fake.cancelled), [false], "nobody cancelled the run")
        let token = CancelToken()
        XCTAssertFalse(token.isCancelled())
        token.cancel()
        XCTAssertTrue(token.isCancelled())
    }

    func testAiLogListenerGetsModelRecordsWithoutUserText() throws {
        let coach = try Coach.openInMemory()
        try setupMidRange(coach)
        let fake = FakeModel(name: "fake-swift-model")
        try coach.model().set(model: fake)
        let logs = CollectingLogListener()
        try withLogListener(logs, .info) { checkAiRun(try coach.suggestions().forSession(sessionId: "s1"), fake) }
        let records = logs.records
        let llm = records.filter { $0.target == "coachcore::llm" }
        XCTAssertTrue(llm.contains { $0.message.contains("model=") }, "\(records)")
        XCTAssertTrue(llm.contains { $0.message.contains("model=fake-swift-model") }, "\(llm)")
        XCTAssertFalse(records.contains { $0.level == .debug }, "Info and above only")
        for r in records {
            XCTAssertTrue(r.target.hasPrefix("coachcore"), r.target)
            for text in privateTexts {
                XCTAssertFalse(r.message.contains(text), "user text <\(text)> in the log: \(r)")
            }
        }
        // After setLogListener(nil) nothing more arrives.
        let n = logs.records.count
        try coach.workouts().logSession(session: sessionLog(2, reps: midReps))
        let asked = fake.requests.count
        _ = try coach.suggestions().forSession(sessionId: "s2")
        XCTAssertGreaterThan(fake.requests.count, asked, "the model was asked for s2")
        XCTAssertEqual(logs.records.count, n)
    }

    func testAiUseLanguageModelNilTurnsAiOff() throws {
        let coach = try Coach.openInMemory()
        try setupMidRange(coach)
        let fake = FakeModel()
        try coach.model().set(model: fake)
        checkAiRun(try coach.suggestions().forSession(sessionId: "s1"), fake)
        let n = fake.requests.count
        try coach.model().set(model: nil)
        try coach.workouts().logSession(session: sessionLog(2, reps: midReps))
        let changes = try coach.suggestions().forSession(sessionId: "s2")
        XCTAssertEqual(aiChanges(changes), [], "\(changes)")
        XCTAssertEqual(fake.requests.count, n, "the model is no longer asked")
    }

    // ---- the assistant ----

    func testAssistantSendMessageEventsAndWait() throws {
        let coach = try Coach.openInMemory()
        let fake = FakeModel(replies: [proposal, assistantSummary])
        try coach.model().set(model: fake)
        let listener = CollectingAssistantListener()
        let task = coach.assistant().send(request: planRequest("something about mom"), listener: listener)
        let result = try task.wait()
        XCTAssertTrue(task.isFinished())
        XCTAssertEqual(try task.wait(), result, "wait returns the same result again")
        XCTAssertEqual(result.decision, .plan)
        XCTAssertEqual(result.operations.count, 1)
        let op = try XCTUnwrap(result.operations.first)
        XCTAssertEqual(op.op, .create)
        XCTAssertEqual(op.kind, .todo)
        XCTAssertEqual(op.title, "Call mom")
        XCTAssertEqual(op.scheduledFor, "2026-11-21")
        XCTAssertEqual(op.priority, .high)
        XCTAssertEqual(op.recurrence, Recurrence(kind: RecurrenceType.none), "repaired")
        XCTAssertEqual(result.summary, assistantSummary)
        let events = listener.events
        XCTAssertEqual(events.map(eventName), ["stage", "stage", "ops", "stage", "summary", "result", "done"])
        XCTAssertEqual(events.compactMap { e -> AssistantStage? in
            if case .stage(let s) = e { return s }
            return nil
        }, [.proposing, .validating, .summarizing])
        XCTAssertEqual(events[2], .ops(version: 1, operations: result.operations, validCount: 1, invalidCount: 0))
        XCTAssertEqual(events[5], .result(result: result))
        XCTAssertEqual(fake.requests.count, 2, "a proposal and a summary")
        XCTAssertEqual(try coach.planner().auditLog(limit: 10), [], "a message applies nothing")
    }

    func testAssistantDryRun() throws {
        let coach = try Coach.openInMemory()
        let ops = [todoOp("Call mom", "2026-11-21", Priority.high), todoOp("Buy milk"), dailyHabit("Stretch", assistantToday),
                   PlannerOperation(op: .complete, kind: .todo, id: "no-such-todo")]
        let v = try coach.planner().dryRun(operations: ops, today: assistantToday)
        XCTAssertEqual(v.validCount, 3)
        XCTAssertEqual(v.invalidCount, 1)
        XCTAssertEqual(v.checks.map { $0.valid }, [true, true, true, false])
        XCTAssertEqual(v.checks[0].operation?.recurrence, Recurrence(kind: RecurrenceType.none))
        XCTAssertTrue(v.checks[3].errors.contains { $0.code == "unknown_id" }, "\(v.checks[3].errors)")
        XCTAssertEqual(try coach.planner().backlog(limit: 10), [], "nothing was applied")
        assertInvalidArgument(try coach.planner().dryRun(operations: ops, today: "next friday"))
    }

    func testAssistantApplyWeekAndAuditLog() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coachcore-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let coach = try Coach.open(dbPath: dir.appendingPathComponent("planner.sqlite3").path)
        let r = try coach.planner().apply(operations: [todoOp("Call mom", "2026-11-21", Priority.high), todoOp("Buy milk"),
                                                       dailyHabit("Stretch", assistantToday)],
                                          idempotencyKey: "key-1", today: assistantToday)
        XCTAssertFalse(r.replayed)
        XCTAssertTrue(isUuidLike(r.requestId), r.requestId)
        XCTAssertEqual(r.applied.map { $0.index }, [0, 1, 2])
        XCTAssertEqual(r.applied.map { $0.kind }, [ItemKind.todo, ItemKind.todo, ItemKind.habit])
        let week = try coach.planner().week(date: assistantToday)
        XCTAssertEqual(week.weekStart, "2026-11-16")
        XCTAssertEqual(week.weekEnd, "2026-11-22")
        XCTAssertEqual(week.entries.map { "\($0.date) \($0.item.title)" },
                       ["2026-11-20 Stretch", "2026-11-21 Stretch", "2026-11-21 Call mom", "2026-11-22 Stretch"])
        XCTAssertEqual(try coach.planner().backlog(limit: 10).map { $0.title }, ["Buy milk"])
        let item = try XCTUnwrap(try coach.planner().item(kind: .todo, id: r.applied[0].id))
        XCTAssertEqual(item.title, "Call mom")
        XCTAssertEqual(item.priority, Priority.high)
        XCTAssertNil(try coach.planner().item(kind: .goal, id: r.applied[0].id))
        let log = try coach.planner().auditLog(limit: 10)
        XCTAssertEqual(log.reversed().map { $0.itemId }, r.applied.map { $0.id })
        XCTAssertTrue(log.allSatisfy { $0.requestId == r.requestId })
        XCTAssertEqual(try coach.planner().auditLog(limit: 10, beforeSeq: log[0].seq), Array(log.dropFirst()))
        assertInvalidArgument(try coach.planner().week(date: "2026-02-30"))
    }

    func testShutdownClosesServiceObjectsAndKeepsTheData() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("shutdown.sqlite3").path
        let coach = try Coach.open(dbPath: path)
        let planner = coach.planner()  // taken before shutdown
        let r = try planner.apply(operations: [todoOp("Buy milk")], idempotencyKey: nil, today: assistantToday)
        coach.shutdown()
        assertClosed(try planner.backlog(limit: 5), "a service object taken before shutdown")
        assertClosed(try coach.planner().backlog(limit: 5), "a service object asked for after shutdown")
        coach.shutdown()  // a second shutdown does nothing
        assertClosed(try planner.backlog(limit: 5), "after a second shutdown")
        // What was written before shutdown is on disk: a new Coach on the same file reads it.
        let reopened = try Coach.open(dbPath: path)
        XCTAssertEqual(try reopened.planner().backlog(limit: 5).map { $0.title }, ["Buy milk"])
        XCTAssertEqual(try reopened.planner().item(kind: .todo, id: r.applied[0].id)?.title, "Buy milk")
    }

    func testAssistantIdempotentReplayAndConflict() throws {
        let coach = try Coach.openInMemory()
        let ops = [todoOp("Call mom", "2026-11-21")]
        let first = try coach.planner().apply(operations: ops, idempotencyKey: "key-7", today: assistantToday)
        let again = try coach.planner().apply(operations: ops, idempotencyKey: "key-7", today: assistantToday)
        XCTAssertTrue(again.replayed)
        XCTAssertEqual(again.requestId, first.requestId)
        XCTAssertEqual(again.applied, first.applied)
        XCTAssertEqual(try coach.planner().auditLog(limit: 10).count, 1, "applied once")
        XCTAssertThrowsError(try coach.planner().apply(operations: [todoOp("Call dad")], idempotencyKey: "key-7",
                                                       today: assistantToday)) { error in
            guard case CoachError.IdempotencyConflict = error else { return XCTFail("got \(error)") }
        }
        XCTAssertThrowsError(try coach.planner().apply(
            operations: [todoOp("Buy milk"), PlannerOperation(op: .delete, kind: .event, id: "no-such-event")],
            idempotencyKey: nil, today: assistantToday)) { error in
            guard case CoachError.OperationsRejected(let invalid, let total, _) = error else {
                return XCTFail("got \(error)")
            }
            XCTAssertEqual(invalid, 1)
            XCTAssertEqual(total, 2)
        }
        XCTAssertEqual(try coach.planner().backlog(limit: 10), [], "all or nothing")
    }

    func testAssistantCancel() throws {
        let coach = try Coach.openInMemory()
        let model = BlockingModel()
        try coach.model().set(model: model)
        let listener = CollectingAssistantListener()
        let task = coach.assistant().send(request: planRequest("something about mom"), listener: listener)
        while model.started.wait(timeout: .now() + 0.01) == .timedOut {
            XCTAssertFalse(task.isFinished(), "ended before the model ran")
            if task.isFinished() { return }
        }
        XCTAssertFalse(task.isFinished())
        task.cancel()
        for _ in 0..<2 {
            XCTAssertThrowsError(try task.wait()) { error in
                guard case CoachError.Cancelled = error else { return XCTFail("got \(error)") }
            }
        }
        XCTAssertTrue(task.isFinished())
        let names = listener.events.map(eventName)
        XCTAssertEqual(names.last, "done")
        XCTAssertEqual(names.filter { $0 == "done" }.count, 1)
        XCTAssertFalse(names.contains("result"), "\(names)")
    }

    // ---- meal planning ----

    func testMealsPlanWithoutAModelThenConfirmLogAndHistory() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("meals.sqlite3").path
        // The starter recipes are the only ones: no built-in recipes.
        var coach: Coach? = try Coach.openWithOptions(dbPath: path, options: OpenOptions(builtinRecipes: false))
        let starter = try starterRecipesJson()
        XCTAssertEqual(try coach!.meals().importRecipes(json: starter), UInt32(starter.components(separatedBy: "\"id\":").count - 1))
        let request = mealRequest([
            ("2026-11-24", dayMeals(breakfast: mealSlot(2, ["eggs"]), dinner: mealSlot(4, ["chicken"]))),
            ("2026-11-23", dayMeals(breakfast: mealSlot(1), dinner: mealSlot(2, note: "something with rice"))),
        ], excluded: ["peanut"])
        let listener = CollectingMealListener()
        let task = try coach!.meals().plan(request: request, listener: listener)
        XCTAssertTrue(isUuidLike(task.id()), task.id())
        let job = task.wait()
        XCTAssertTrue(task.isFinished())
        XCTAssertEqual(task.wait(), job, "wait returns the same envelope again")
        XCTAssertEqual(job.status, .complete)
        XCTAssertNil(job.errorCode)
        XCTAssertEqual(job.processedSlots, 4)
        XCTAssertEqual(job.totalSlots, 4)
        let result = try XCTUnwrap(job.result)
        XCTAssertEqual(result.slotFailuresCount, 0)
        XCTAssertEqual(result.days.map { $0.date }, ["2026-11-23", "2026-11-24"])
        let selections = result.days.flatMap { [$0.meals.breakfast?.selection, $0.meals.dinner?.selection] }
            .compactMap { $0 }
        XCTAssertEqual(selections.count, 4)
        for sel in selections {
            XCTAssertEqual(sel.pickedBy, .fallback)
            XCTAssertTrue(sel.warnings.contains(fallbackWarning), "\(sel.warnings)")
            XCTAssertEqual(sel.source, .stage, "a core pick is staged")
            XCTAssertLessThanOrEqual(sel.alternatives.count, 2)
        }
        XCTAssertEqual(Set(selections.map { $0.recipeId }).count, 4)
        XCTAssertEqual(selections[3].matchedTags, ["chicken"])
        let events = listener.events
        XCTAssertEqual(events.count, 5)
        XCTAssertEqual(events.prefix(4).map { e -> UInt32 in
            if case .progress(let processed, let total) = e, total == 4 { return processed }
            return 0
        }, [1, 2, 3, 4])
        XCTAssertEqual(events.last, .completed(status: .completed, slotFailuresCount: 0, result: result))
        // Read back by id from a new Coach on the same file.
        coach = nil
        let again = try Coach.open(dbPath: path)
        let back = try XCTUnwrap(try again.meals().job(id: task.id()))
        XCTAssertEqual(back.status, .complete)
        XCTAssertEqual(back.result, result)
        XCTAssertNil(try again.meals().job(id: "no-such-job"))
        let staged = try XCTUnwrap(try again.meals().recipe(id: selections[3].recipeId))
        XCTAssertEqual(staged.source, .stage)
        XCTAssertNotNil(staged.expiresMs)
        XCTAssertEqual(try again.meals().confirm(plan: result), 4)
        XCTAssertNil(try again.meals().recipe(id: staged.id)?.expiresMs, "kept on confirm")
        let history = try again.meals().history(from: "2026-11-23", to: "2026-11-24")
        XCTAssertEqual(history.map { "\($0.date) \($0.mealType)" },
                       ["2026-11-23 breakfast", "2026-11-23 dinner", "2026-11-24 breakfast", "2026-11-24 dinner"])
        XCTAssertEqual(history[3].recipeId, staged.originId, "history names the core recipe")
        let logged = try again.meals().log(meal: MealLog(date: "2026-11-25", mealType: .lunch, recipeId: "core-greek-salad"))
        XCTAssertEqual(logged.title, "Greek Village Salad")
        XCTAssertEqual(try again.meals().history(from: "2026-11-23", to: "2026-11-25").count, 5)
        assertNotFound(try again.meals().log(meal: MealLog(date: "2026-11-25", mealType: .lunch, recipeId: "core-nope")))
    }

    func testMealsShoppingListLeavesPantryStaplesOut() throws {
        let coach = try Coach.openInMemory()
        let meals = coach.meals()
        _ = try meals.importRecipes(json: try starterRecipesJson())
        // Shakshuka (serves 3) for 6, paella (serves 6) for 6: both pinned.
        let request = mealRequest([
            ("2026-12-05", dayMeals(breakfast: MealSlotRequest(servings: 6, tags: [], note: nil, isMealPrep: false,
                                                               repeat: nil, pinnedRecipeId: "core-shakshuka"))),
            ("2026-12-06", dayMeals(dinner: MealSlotRequest(servings: 6, tags: [], note: nil, isMealPrep: false,
                                                            repeat: nil, pinnedRecipeId: "core-paella"))),
        ])
        let job = try meals.plan(request: request, listener: nil).wait()
        XCTAssertEqual(job.status, .complete)
        XCTAssertEqual(try meals.setPantryStaples(staples: ["salt", " Salt ", "olive oil"]), ["salt", "olive oil"])
        XCTAssertEqual(try meals.pantryStaples(), ["salt", "olive oil"])
        let list = try meals.shoppingList(jobId: job.id)
        XCTAssertEqual(list.dates, ["2026-12-05", "2026-12-06"])
        XCTAssertEqual(list.sections[0].section, .produce)
        let garlic = list.sections[0].items[0]
        // 4 cloves (shakshuka for 6) + 3 cloves (paella for 6).
        XCTAssertEqual(garlic.name, "garlic")
        XCTAssertEqual(garlic.amounts, [ShoppingAmount(quantity: 7.0, unit: "cloves")])
        XCTAssertEqual(garlic.meals.map { "\($0.date) \($0.mealType) \($0.recipeTitle)" },
                       ["2026-12-05 breakfast Shakshuka", "2026-12-06 dinner Seafood Paella"])
        XCTAssertEqual(list.skippedStaples.map { $0.name }, ["olive oil", "salt"])
        XCTAssertEqual(list.missingRecipes, [])
        let sunday = try meals.shoppingList(jobId: job.id,
                                            options: ShoppingListOptions(days: ["2026-12-06"], includeStaples: true))
        let names = sunday.sections.flatMap { $0.items.map { $0.name } }
        XCTAssertTrue(names.contains("olive oil") && !names.contains("eggs"), "\(names)")
        assertNotFound(try meals.shoppingList(jobId: "no-such-job"))
        assertInvalidArgument(try meals.shoppingList(
            jobId: job.id, options: ShoppingListOptions(days: ["2026-12-07"], includeStaples: false)))
        assertInvalidArgument(try meals.setPantryStaples(staples: [String(repeating: "x", count: 81)]))
        XCTAssertEqual(try meals.pantryStaples(), ["salt", "olive oil"], "a refused list changes nothing")
    }

    func testMealsStageKeepAndCleanup() throws {
        let coach = try Coach.openInMemory()
        _ = try coach.meals().importRecipes(json: try starterRecipesJson())
        let staged = try coach.meals().stageRecipe(coreRecipeId: "core-shakshuka")
        XCTAssertEqual(staged.source, .stage)
        XCTAssertEqual(staged.originId, "core-shakshuka")
        XCTAssertEqual(staged.title, "Shakshuka")
        XCTAssertNotNil(staged.expiresMs)
        XCTAssertEqual(try coach.meals().recipe(id: staged.id), staged)
        let other = try coach.meals().stageRecipe(coreRecipeId: "core-menemen")
        try coach.meals().keepStaged(id: staged.id)
        XCTAssertNil(try coach.meals().recipe(id: staged.id)?.expiresMs)
        XCTAssertEqual(try coach.meals().cleanupStaged(), 0, "nothing is 72 h old yet")
        XCTAssertNotNil(try coach.meals().recipe(id: other.id))
        assertNotFound(try coach.meals().stageRecipe(coreRecipeId: "core-nope"))
        assertNotFound(try coach.meals().keepStaged(id: "stage-nope"))
    }

    func testBuiltInRecipesAndRecipeManagement() throws {
        let meals = try Coach.openInMemory().meals()
        let core = try meals.listRecipes(offset: 0, limit: 5, source: .core)
        XCTAssertGreaterThanOrEqual(core.total, 120, "the built-in recipes are there on open")
        XCTAssertEqual(core.recipes.count, 5)
        XCTAssertEqual(try meals.searchRecipes(query: "shakshuka").first?.id, "core-shakshuka")
        try meals.hideRecipe(id: "core-shakshuka")
        XCTAssertEqual(try meals.hiddenRecipes(), ["core-shakshuka"])
        XCTAssertEqual(try meals.searchRecipes(query: "shakshuka", mealType: nil, limit: 5), [])
        XCTAssertEqual(try meals.listRecipes(offset: 0, limit: 200, source: nil).total, core.total - 1)
        XCTAssertTrue(try meals.unhideRecipe(id: "core-shakshuka"))
        assertInvalidArgument(try meals.deleteRecipe(id: "core-shakshuka"))
        assertNotFound(try meals.deleteRecipe(id: "no-such-recipe"))
        assertInvalidArgument(try meals.listRecipes(offset: 0, limit: 0, source: nil))
        let none = try Coach.openInMemoryWithOptions(options: OpenOptions(builtinRecipes: false))
        XCTAssertEqual(try none.meals().listRecipes(offset: 0, limit: 5, source: nil).total, 0)
    }

    func testMealsBadRequestsAreTypedErrors() throws {
        let coach = try Coach.openInMemory()
        XCTAssertThrowsError(try coach.meals().plan(request: mealRequest([]), listener: nil)) { error in
            guard case CoachError.InvalidArgument(let detail) = error else { return XCTFail("got \(error)") }
            XCTAssertTrue(detail.contains("days"), detail)
        }
        XCTAssertThrowsError(try coach.meals().plan(
            request: mealRequest([("2026-11-23", dayMeals(lunch: mealSlot(0)))]), listener: nil)) { error in
            guard case CoachError.InvalidArgument(let detail) = error else { return XCTFail("got \(error)") }
            XCTAssertTrue(detail.contains("servings"), detail)
        }
        assertInvalidArgument(try coach.meals().importRecipes(json: #"[{"title": 1}]"#))
    }

    // ---- the model's lifecycle ----
    /// A listener whose method always throws: the library stops calling it, and the task finishes.
    final class ThrowingAssistantListener: AssistantListener, @unchecked Sendable {
        struct AppBug: Error {}
        private let lock = NSLock()
        private var _calls = 0
        let typed: Bool
        init(typed: Bool) { self.typed = typed }
        var calls: Int { lock.lock(); defer { lock.unlock() }; return _calls }
        func onEvent(event: AssistantEvent) throws {
            lock.lock(); _calls += 1; lock.unlock()
            if typed { throw ListenerError.Failed(reason: "listener bug") }
            throw AppBug()
        }
    }

    func testAssistantListenerThatAlwaysThrowsCannotHangWait() throws {
        for typed in [true, false] {
            let coach = try Coach.openInMemory()
            try coach.model().set(model: FakeModel(replies: [proposal, assistantSummary]))
            let listener = ThrowingAssistantListener(typed: typed)
            let task = coach.assistant().send(request: planRequest("something about mom"), listener: listener)
            let result = try task.wait()  // returns: the message goes on without its listener
            XCTAssertEqual(result.summary, assistantSummary)
            XCTAssertEqual(result.operations.count, 1)
            XCTAssertEqual(listener.calls, 1, "called once, then ignored (typed error: \(typed))")
        }
    }

    func testAssistantDroppingTheTaskCancelsIt() throws {
        let coach = try Coach.openInMemory()
        let model = BlockingModel()
        try coach.model().set(model: model)
        let listener = CollectingAssistantListener()
        var task: AssistantTask? = coach.assistant().send(request: planRequest("something about mom"), listener: listener)
        XCTAssertEqual(model.started.wait(timeout: .now() + 30), .success, "the model never ran")
        XCTAssertNotNil(task)
        task = nil  // released: the message is cancelled
        let deadline = Date().addingTimeInterval(30)
        while listener.events.last.map(eventName) != "done" {
            XCTAssertLessThan(Date(), deadline, "not cancelled")
            if Date() >= deadline { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    func testModelLifecycleErrors() throws {
        let coach = try Coach.openInMemory()
        XCTAssertNil(coach.model().info())
        XCTAssertFalse(coach.model().unload())
        let options = ModelOptions(contextTokens: 2048, threads: 2)
        XCTAssertThrowsError(try coach.model().load(path: "/no/such/model.gguf", options: options)) { error in
            guard case CoachError.ModelUnusable = error else { return XCTFail("got \(error)") }
        }
        // test.sh copies the fixture into the package (the repository is not visible in the root).
        let pkg = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let huge = pkg.appendingPathComponent("huge-kv-header.bin").path
        XCTAssertThrowsError(try coach.model().load(path: huge, options: options)) { error in
            guard case CoachError.InsufficientMemory(let needed, let available) = error else {
                return XCTFail("got \(error)")
            }
            XCTAssertGreaterThan(needed, available)
        }
        try coach.model().set(model: FakeModel())
        XCTAssertEqual(coach.model().info()?.embedded, false)
        XCTAssertTrue(coach.model().unload())
        XCTAssertNil(coach.model().info())
    }

    func testModelAvailabilityDecidesWithoutLoading() throws {
        // The bindings' library is built without the engine (bindings/generate.sh: default
        // features), so a good file is .engineMissing here; with the engine it is .available.
        // test.sh copies the fixtures into the package (the repository is not visible in the root).
        let pkg = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let tiny = pkg.appendingPathComponent("tiny-llama.bin")
        let plenty = ModelCheckOptions(contextTokens: 2048, availableBytes: 1 << 40)
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("coachcore-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.gguf")
        try Data("not a model at all".utf8).write(to: text)
        // An interrupted download: the tensor data is missing.
        let cut = dir.appendingPathComponent("cut.gguf")
        try Data(try Data(contentsOf: tiny).prefix(300)).write(to: cut)
        let cases: [(String, ModelAvailabilityStatus)] = [
            (dir.appendingPathComponent("absent.gguf").path, .fileMissing),
            (dir.path, .unreadable),
            (text.path, .notGguf),
            (cut.path, .notGguf),
            (pkg.appendingPathComponent("tiny-mamba.bin").path, .unsupportedArchitecture),
            (tiny.path, .engineMissing),
        ]
        for (path, status) in cases {
            let a = modelAvailability(path: path, options: plenty)
            XCTAssertEqual(a.status, status, path)
            XCTAssertEqual(a.detail == nil, status == .available, path)
        }
        let a = modelAvailability(path: tiny.path, options: plenty)
        XCTAssertEqual(a.architecture, "llama")
        XCTAssertEqual(a.ggufVersion, 3)
        XCTAssertEqual(a.parameterCount, 8)
        XCTAssertEqual(a.fileBytes, 384)
        // Memory: the device's reading (the huge header never fits), or the figure given.
        let huge = modelAvailability(path: pkg.appendingPathComponent("huge-kv-header.bin").path)
        XCTAssertEqual(huge.status, .insufficientMemory)
        XCTAssertGreaterThan(huge.neededBytes ?? 0, huge.availableBytes ?? .max)
        let tight = modelAvailability(path: tiny.path, options: ModelCheckOptions(availableBytes: 1000))
        XCTAssertEqual(tight.status, .insufficientMemory)
        XCTAssertEqual(tight.contextTokens, 2048)
        XCTAssertGreaterThan(tight.neededBytes ?? 0, 1000)
    }

    // ---- workouts (spec 001) and today-plan generation (spec 000) ----

    func testWorkoutGenerateListGetLogAndValidate() throws {
        let coach = try Coach.openInMemory()
        let listener = CollectingWorkoutListener()
        let task = coach.workouts().generate(request: workoutRequest(), listener: listener)
        let result = try task.wait()
        XCTAssertTrue(task.isFinished())
        XCTAssertEqual(result.source, .deterministic)
        let workout = result.workout
        XCTAssertEqual(workout.workoutId, "2025-08-17-gym-downtown-01")
        // The original app's shape (issue 23): the number 1.2, the tiers to drop, C first.
        XCTAssertEqual(workout.version, 1.2)
        XCTAssertEqual(workout.cutOrder, ["C", "B"])
        XCTAssertFalse(workout.sets.contains { $0.equipment == "eq_smith_machine" }, "a banned key")
        XCTAssertEqual(listener.stages, [.preAnalysis, .done])
        let listed = try coach.workouts().list(limit: 10)
        XCTAssertEqual(listed.map { $0.workoutId }, [workout.workoutId])
        XCTAssertFalse(listed[0].logged)
        XCTAssertEqual(try coach.workouts().get(workoutId: workout.workoutId), result)
        XCTAssertNil(try coach.workouts().get(workoutId: "no-such-workout"))
        let first = workout.sets[0]
        try coach.workouts().log(log: WorkoutLog(workoutId: workout.workoutId, performedAtMs: 1_755_432_000_000,
                                             sets: [SetActual(setId: first.id, actualWeight: 95, actualReps: 8)],
                                             postWorkout: nil))
        XCTAssertTrue(try coach.workouts().list(limit: 10)[0].logged)
        let logged = try XCTUnwrap(try coach.workouts().get(workoutId: workout.workoutId)).workout.sets[0]
        XCTAssertEqual(logged.actualWeight, 95)
        XCTAssertEqual(logged.actualReps, 8)
        assertNotFound(try coach.workouts().log(log: WorkoutLog(workoutId: "nope", performedAtMs: 0, sets: [],
                                                            postWorkout: nil)))
        let ok = validateWorkoutYaml(yaml: result.yaml)
        XCTAssertEqual(ok.workout, workout)
        XCTAssertNil(ok.error)
        let broken = result.yaml.replacingOccurrences(of: "id: \(first.id)\n", with: "id: bad\n")
        let bad = validateWorkoutYaml(yaml: broken)
        XCTAssertNil(bad.workout)
        XCTAssertEqual(bad.error?.code, "schema_violation")
        XCTAssertEqual(bad.error?.path, "sets[0].id")
        XCTAssertEqual(validateWorkoutYaml(yaml: "sets: [").error?.code, "invalid_yaml")
        // The library's earlier form (version '1.2', cut_order set ids) is read as the original's.
        let tiers = "cut_order:\n- C\n- B\n"
        XCTAssertTrue(result.yaml.hasPrefix("version: 1.2\n") && result.yaml.contains(tiers), result.yaml)
        let lastB = try XCTUnwrap(workout.sets.last { $0.tier == .b }).id
        let lastC = try XCTUnwrap(workout.sets.last { $0.tier == .c }).id
        let earlier = result.yaml
            .replacingOccurrences(of: "version: 1.2\n", with: "version: '1.2'\n")
            .replacingOccurrences(of: tiers, with: "cut_order:\n- \(lastB)\n- \(lastC)\n")
        XCTAssertEqual(validateWorkoutYaml(yaml: earlier).workout, workout)
        let bFirst = validateWorkoutYaml(yaml: result.yaml.replacingOccurrences(of: tiers, with: "cut_order:\n- B\n- C\n"))
        XCTAssertEqual(bFirst.error?.path, "cut_order[1]")
    }

    func testGenerateTodayPlanWithAnAppModel() throws {
        let coach = try Coach.openInMemory()
        let d = try coach.workouts().todayPlan(request: todayPlanRequest())
        XCTAssertEqual(d.plan.source, .deterministic, "no model: code's plan")
        XCTAssertEqual(d.fallbackReason, .noModel)
        XCTAssertEqual(try coach.workouts().savedTodayPlan(date: "2025-08-18")?.plan, d.plan)
        // One exercise per slot of today's skeleton ("30 minutes, upper body", a full gym).
        let model = FakeModel(replies: [#"{"focus": 1}"#, #"{"A1": "db-bench-press", "A2": "machine-lat-pulldown", "B1": "db-shoulder-press", "B2": "pull-up", "C1": "db-curl", "C2": "db-lateral-raise"}"#])
        try coach.model().set(model: model)
        let t = try coach.workouts().todayPlan(request: todayPlanRequest())
        XCTAssertEqual(t.schemaVersion, .v1Current)
        XCTAssertEqual(t.plan.focus, "Upper Body Session")
        XCTAssertEqual(t.plan.blocks.map { $0.title }, ["Warm-up", "Main Lifts", "Accessories", "Cool-down"])
        XCTAssertEqual(t.plan.blocks[1].exercises[0].name, "Dumbbell Bench Press")
        XCTAssertEqual(model.requests.count, 2, "one repair")
        XCTAssertNotNil(model.requests[0].jsonSchema)
        XCTAssertEqual(try coach.workouts().planGenerations(limit: 1)[0].feature, "plan.generate")
        try coach.model().set(model: FakeModel(replies: ["no json"]))
        let f = try coach.workouts().todayPlan(request: todayPlanRequest())
        XCTAssertEqual(f.fallbackReason, .invalidAnswers)
        XCTAssertEqual(f.plan.source, .deterministic)
        let saved = try coach.workouts().recentTodayPlans(limit: 5)
        XCTAssertEqual(saved.count, 1, "one plan per seed and date")
        let performed = saved[0].targets.map {
            TodayExerciseDone(exerciseId: $0.exerciseId, sets: [TodaySetDone(weight: 20.0, reps: 8)])
        }
        let done = try coach.workouts().markTodayPlanDone(planId: f.plan.id, performed: performed,
                                                          performedAtMs: 1_755_500_000_000)
        XCTAssertEqual(done.doneAtMs, 1_755_500_000_000)
        XCTAssertEqual(done.sessionId, "today:\(f.plan.id)")
        XCTAssertThrowsError(try coach.workouts().markTodayPlanDone(planId: f.plan.id)) { error in
            guard case CoachError.InvalidArgument = error else { return XCTFail("got \(error)") }
        }
    }
}

final class CollectingWorkoutListener: WorkoutListener, @unchecked Sendable {
    private let lock = NSLock()
    private var _stages: [WorkoutStage] = []
    var stages: [WorkoutStage] {
        lock.lock()
        defer { lock.unlock() }
        return _stages
    }

    func onEvent(event: WorkoutEvent) {
        lock.lock()
        _stages.append(event.stage)
        lock.unlock()
    }
}

/// `tests/data/workout/request.json` as records.
func workoutRequest() -> WorkoutRequest {
    WorkoutRequest(
        meta: WorkoutMeta(date: "2025-08-17", location: "gym:downtown", units: .lbs, durationMinutes: 60,
                          goal: .hypertrophy),
        instructions: "Upper/lower split, 3 days a week.\n- no bb-deadlift",
        bans: ["eq_smith_machine"],
        equipment: ["eq_barbell_olympic", "eq_squat_rack", "eq_bench_adjustable", "eq_dumbbells_set_5-50",
                    "eq_cable_machine_dual_stack", "eq_pullup_bar"],
        recentCardio: [CardioActivity(date: "2025-08-16", activityType: "run", durationMinutes: 45,
                                      relativeEffort: 62)],
        upcomingCardio: "Long run (90 min) on 2025-08-19.",
        recovery: Recovery(sleepScore: 72, bodyBattery: 58),
        historyText: nil)
}

func todayPlanRequest() -> TodayPlanRequest {
    TodayPlanRequest(date: "2025-08-18", notes: "30 minutes, upper body", schemaVersion: nil,
                     timezone: "Europe/Berlin", seed: 7)
}
