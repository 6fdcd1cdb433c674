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

    func testSelectOverrideWins() throws {
        let coach = try Coach.openInMemory()
        XCTAssertEqual(coach.selectPlanSchema(supported: [.v1Current, .v2Flat], overrideVersion: .v1Current),
                       SchemaSelection(schemaVersion: .v1Current, reason: .override))
        XCTAssertEqual(coach.selectPlanSchema(supported: [.v1Current], overrideVersion: .v2Flat),
                       SchemaSelection(schemaVersion: .v2Flat, reason: .override))
    }

    func testSelectSingleSupportedAndSmallest() throws {
        let coach = try Coach.openInMemory()
        XCTAssertEqual(coach.selectPlanSchema(supported: [.v1Current], overrideVersion: nil),
                       SchemaSelection(schemaVersion: .v1Current, reason: .singleSupported))
        XCTAssertEqual(coach.selectPlanSchema(supported: [.v2Flat], overrideVersion: nil),
                       SchemaSelection(schemaVersion: .v2Flat, reason: .singleSupported))
        let both = coach.selectPlanSchema(supported: [.v1Current, .v2Flat], overrideVersion: nil)
        XCTAssertEqual(both.reason, .smallestEstimate)
        XCTAssertEqual(coach.selectPlanSchema(supported: [], overrideVersion: nil), both)
    }

    func testTransformWorkedExample() throws {
        let coach = try Coach.openInMemory()
        let t = try coach.transformPlan(rawText: workedExample, selection: v2, seed: nil)
        checkWorkedExample(t.plan)
        XCTAssertEqual(t.schemaVersion, .v2Flat)
        XCTAssertFalse(t.rulesetVersion.isEmpty)
    }

    func testTransformFencedAndWrapped() throws {
        let coach = try Coach.openInMemory()
        let fenced = "Here is your plan for today:\n```json\n\(workedExample)\n```\nHave a good workout!"
        checkWorkedExample(try coach.transformPlan(rawText: fenced, selection: v2, seed: 1).plan)
        let wrapped = "<think>The user wants an upper body session; keep it to 30 minutes.</think>"
            + "<response>\(workedExample)</response>"
        checkWorkedExample(try coach.transformPlan(rawText: wrapped, selection: v2, seed: 1).plan)
    }

    func testTransformV1Current() throws {
        let coach = try Coach.openInMemory()
        let t = try coach.transformPlan(rawText: v1Example, selection: v1, seed: 3)
        checkWorkedExample(t.plan)
        XCTAssertEqual(t.schemaVersion, .v1Current)
    }

    func testTypedErrorBlockIndexOutOfRange() throws {
        XCTAssertNotEqual(badBlockIndex, workedExample)
        let coach = try Coach.openInMemory()
        do {
            _ = try coach.transformPlan(rawText: badBlockIndex, selection: v2, seed: nil)
            XCTFail("no error thrown")
        } catch CoachError.InvalidModelOutput(let code, let path, let detail) {
            XCTAssertEqual(code, .blockIndexOutOfRange)
            XCTAssertEqual(path, "exercises[1].blockIndex")
            XCTAssertFalse(detail.isEmpty)
        }
        // still usable after an error
        checkWorkedExample(try coach.transformPlan(rawText: workedExample, selection: v2, seed: nil).plan)
    }

    func testTypedErrorInvalidJson() throws {
        let coach = try Coach.openInMemory()
        do {
            _ = try coach.transformPlan(rawText: "I could not make a plan today, sorry.", selection: v2, seed: nil)
            XCTFail("no error thrown")
        } catch CoachError.InvalidModelOutput(let code, _, _) {
            XCTAssertEqual(code, .invalidJson)
        }
    }

    func testDeterminismWithSeed() throws {
        let coach = try Coach.openInMemory()
        let a = try coach.transformPlan(rawText: workedExample, selection: v2, seed: 42).plan
        let b = try coach.transformPlan(rawText: workedExample, selection: v2, seed: 42).plan
        XCTAssertEqual(a, b)
        let other = try Coach.openInMemory()
        XCTAssertEqual(try other.transformPlan(rawText: workedExample, selection: v2, seed: 42).plan, a)
        let c = try coach.transformPlan(rawText: workedExample, selection: v2, seed: 43).plan
        XCTAssertNotEqual(c.id, a.id)
    }

    func testFileDatabaseRecordsGenerations() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("coach.sqlite3").path
        var okId: Int64?
        do {
            let coach = try Coach.open(dbPath: path)
            XCTAssertEqual(try coach.recentGenerations(limit: 10).count, 0)
            let t = try coach.transformPlan(rawText: workedExample, selection: v2, seed: 7)
            okId = t.generationId
            XCTAssertNotNil(okId)
            XCTAssertThrowsError(try coach.transformPlan(rawText: badBlockIndex, selection: v2, seed: 7))
            let rows = try coach.recentGenerations(limit: 10)
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
            XCTAssertEqual(try coach.recentGenerations(limit: 1).map { $0.id }, [failed.id])
        }
        // the first Coach is released here, closing the database
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(size, 0)
        let reopened = try Coach.open(dbPath: path)
        let rows = try reopened.recentGenerations(limit: 10)
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
            _ = try coach.transformPlan(rawText: workedExample, selection: v2, seed: 1)
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
}
