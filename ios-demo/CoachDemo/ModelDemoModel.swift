// ModelDemoModel.swift: the demo's on-device model, in plain Swift (Foundation only), so it also
// compiles and runs on Linux: ios-demo/check.sh runs it with CoachDemoCheck/main.swift.
//
// The library never downloads a model. The app ships a GGUF file in its bundle (add `model.gguf`
// to the target's Copy Bundle Resources) or downloads one into Documents itself, then passes the
// file's path to `coach.model().load`. This file finds the file, loads it (with the memory
// pre-flight), shows what it is and asks it for today's plan.
import Foundation

/// Finds, loads and uses the GGUF model file. Holds only constants: safe to share between tasks.
final class ModelDemoModel: Sendable {
    /// The file name the demo looks for, in the app bundle and then in Documents.
    static let fileName = "model.gguf"

    let dbPath: String
    /// The GGUF file, or nil when the app has none yet.
    let modelPath: String?

    /// - Parameters:
    ///   - dbPath: the SQLite file, e.g. `<Documents>/coach.sqlite`; created if absent.
    ///   - modelPath: the GGUF file; nil when the app has not shipped or downloaded one.
    init(dbPath: String, modelPath: String?) {
        self.dbPath = dbPath
        self.modelPath = modelPath
    }

    /// The model file the app has: `model.gguf` from the bundle (shipped with the app), else
    /// `<documents>/model.gguf` (downloaded by the app), else nil.
    static func findModel(bundle: Bundle = .main, documents: URL) -> String? {
        if let shipped = bundle.path(forResource: "model", ofType: "gguf") { return shipped }
        let downloaded = documents.appendingPathComponent(fileName).path
        return FileManager.default.fileExists(atPath: downloaded) ? downloaded : nil
    }

    /// Loads the model and generates today's plan with it. Blocking (reads the file, then
    /// generates for seconds): call it off the main actor. Never throws: failures come back as
    /// `errorMessage`, worded for the user.
    func run(today: String) -> PlanDemoResult {
        guard let modelPath else {
            return PlanDemoResult(
                lines: [],
                errorMessage: "No model yet: add \(Self.fileName) to the app bundle, or download one to Documents/\(Self.fileName).")
        }
        do {
            let coach = try Coach.open(dbPath: dbPath)
            // 2048 tokens of context: enough for a plan; the KV cache grows with it.
            let info = try coach.model().load(
                path: modelPath, options: ModelOptions(contextTokens: 2048, threads: nil))
            var lines = Self.describe(info)
            let plan = try coach.workouts().todayPlan(request: TodayPlanRequest(
                date: today, notes: "30 minutes, upper body, dumbbells only"))
            lines += PlanDemoModel.lines(for: plan)
            return PlanDemoResult(lines: lines, errorMessage: nil)
        } catch let CoachError.InsufficientMemory(needed, available) {
            // Refused before loading: the app would have been killed. Offer a smaller model.
            return PlanDemoResult(
                lines: [],
                errorMessage: "This model needs \(needed / 1_048_576) MB; the device has \(available / 1_048_576) MB free. Try a smaller model.")
        } catch let CoachError.ModelUnusable(detail) {
            // Missing file, not GGUF, an architecture this build cannot run, or no engine.
            return PlanDemoResult(lines: [], errorMessage: "The model cannot be used: \(detail)")
        } catch {
            return PlanDemoResult(lines: [], errorMessage: "coachcore failed: \(error)")
        }
    }

    /// What the loaded model is, as display lines.
    static func describe(_ info: LoadedModelInfo) -> [String] {
        var lines = ["Model: \(info.name)"]
        if let p = info.parameterCount { lines.append("  \(p / 1_000_000)M parameters") }
        if let q = info.quantization { lines.append("  quantization \(q)") }
        lines.append("  context \(info.contextTokens) tokens")
        if let m = info.estimatedMemoryBytes { lines.append("  about \(m / 1_048_576) MB in memory") }
        return lines
    }
}
