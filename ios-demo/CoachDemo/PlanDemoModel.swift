// PlanDemoModel.swift: the demo's non-UI logic, in plain Swift (Foundation only, no SwiftUI/UIKit),
// so it also compiles and runs on Linux: ios-demo/check.sh builds it with CoachDemoCheck/main.swift.
//
// It uses the UniFFI-generated `coachcore.swift`, compiled into the same target as this file
// (so there is no `import coachcore`; if you put the bindings in their own module or Swift
// package, add `import coachcore` here).
import Foundation

/// What the demo shows: readable lines, or an error message. Plain strings, so it is `Sendable`
/// and can be handed from a background task to the UI.
struct PlanDemoResult: Sendable, Equatable {
    /// Plan title, summary, then each block with its exercises. Empty when `errorMessage` is set.
    var lines: [String]
    /// Set when the transform (or opening the database) failed; nil on success.
    var errorMessage: String?
}

/// Opens a `Coach` on a database file, turns model output into a plan and formats it for display.
///
/// `run()` is blocking (it opens the SQLite file and records the generation in it): call it off the
/// main actor, e.g. `await Task.detached { model.run() }.value`. The class holds only constants, so
/// it is safe to share between tasks.
final class PlanDemoModel: Sendable {
    /// A plan as the on-device model writes it in the `v2-flat` schema (bundled for the demo).
    static let sampleModelOutput = """
    {"focus":"Upper Body Strength","durationMinutes":30,"equipment":["Dumbbells"],"source":"ai","energy":"moderate","summary":"Sample plan","blocks":[{"title":"Warm-up","durationMinutes":5,"focus":"Prep"},{"title":"Main Set","durationMinutes":20,"focus":"Strength"}],"exercises":[{"blockIndex":0,"order":0,"name":"Jumping Jacks","prescription":"2 x 30s","detail":null},{"blockIndex":1,"order":0,"name":"DB Press","prescription":"3 x 10","detail":"Controlled tempo"}]}
    """

    /// The same output with an exercise pointing at a block that does not exist (`blockIndex` 9):
    /// the library rejects it with `CoachError.InvalidModelOutput`.
    static let brokenSampleModelOutput = sampleModelOutput.replacingOccurrences(
        of: #""blockIndex":1,"#, with: #""blockIndex":9,"#)

    let dbPath: String
    let modelOutput: String

    /// - Parameters:
    ///   - dbPath: the SQLite file, e.g. `<Documents>/coach.sqlite`; created if absent.
    ///   - modelOutput: raw model text in the `v2-flat` schema.
    init(dbPath: String, modelOutput: String = PlanDemoModel.sampleModelOutput) {
        self.dbPath = dbPath
        self.modelOutput = modelOutput
    }

    /// Opens the database, picks the schema, transforms `modelOutput`. Never throws: failures come
    /// back as `errorMessage`.
    func run() -> PlanDemoResult {
        do {
            // A real app opens one Coach per file at startup and keeps it; the demo runs once.
            let coach = try Coach.open(dbPath: dbPath)
            let selection = selectPlanSchema(supported: [.v2Flat], overrideVersion: nil)
            let transform = try coach.workouts().transformPlan(rawText: modelOutput, selection: selection)
            return PlanDemoResult(lines: Self.lines(for: transform), errorMessage: nil)
        } catch let CoachError.InvalidModelOutput(code, path, detail) {
            // The model wrote something unusable: `code` says which rule, `path` where.
            return PlanDemoResult(
                lines: [],
                errorMessage: "The model output was rejected (\(code)) at \(path ?? "top level"): \(detail)")
        } catch {
            // DatabaseTooNew, NotADatabase, Storage, ...: the file could not be used.
            return PlanDemoResult(lines: [], errorMessage: "coachcore failed: \(error)")
        }
    }

    /// The plan as display lines: title, summary, equipment, then blocks with their exercises.
    static func lines(for transform: PlanTransform) -> [String] {
        let plan = transform.plan
        var lines = [
            "\(plan.focus) (\(plan.durationMinutes) min, \(plan.energy))",
            plan.summary,
        ]
        if !plan.equipment.isEmpty {
            lines.append("Equipment: \(plan.equipment.joined(separator: ", "))")
        }
        for (i, block) in plan.blocks.enumerated() {
            lines.append("Block \(i + 1): \(block.title) (\(block.durationMinutes) min, \(block.focus))")
            for exercise in block.exercises {
                var line = "  - \(exercise.name): \(exercise.prescription)"
                if let detail = exercise.detail { line += " (\(detail))" }
                lines.append(line)
            }
        }
        lines.append("Schema \(transform.schemaVersion), ruleset \(transform.rulesetVersion)")
        return lines
    }
}
