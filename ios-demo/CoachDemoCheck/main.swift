// CoachDemoCheck: runs PlanDemoModel and ModelDemoModel (the demo app's non-UI logic) against the
// real library, without SwiftUI, so it runs on Linux too. Built and run by ios-demo/check.sh,
// compiled in one module with the generated coachcore.swift and CoachDemo/*Model.swift.
// Argument 1: a GGUF header whose KV cache cannot fit in memory (tests/data/models).
// Prints "N passed, M failed" and exits 1 on any failure.
import Foundation

var passed = 0
var failed = 0

@MainActor func check(_ name: String, _ body: () -> [String]) {
    let problems = body()
    if problems.isEmpty {
        passed += 1
        print("ok   \(name)")
    } else {
        failed += 1
        print("FAIL \(name)")
        for p in problems { print("     \(p)") }
    }
}

let dir = FileManager.default.temporaryDirectory
    .appendingPathComponent("coachdemo-check-\(UUID().uuidString)")
try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let dbPath = dir.appendingPathComponent("coach.sqlite").path

check("sample output gives the plan title and both blocks") {
    let result = PlanDemoModel(dbPath: dbPath).run()
    for line in result.lines { print("     | \(line)") }
    var problems: [String] = []
    if let e = result.errorMessage { problems.append("unexpected error: \(e)") }
    for expected in ["Upper Body Strength", "Warm-up", "Main Set"]
    where !result.lines.contains(where: { $0.contains(expected) }) {
        problems.append("no line contains \"\(expected)\"")
    }
    return problems
}

check("blockIndex 9 gives an error message naming blockIndex") {
    // The broken sample the app's "Try broken output" button uses.
    let broken = PlanDemoModel.brokenSampleModelOutput
    guard broken.contains(#""blockIndex":9,"#) else { return ["brokenSampleModelOutput has no blockIndex 9"] }
    let result = PlanDemoModel(dbPath: dbPath, modelOutput: broken).run()
    print("     | error: \(result.errorMessage ?? "nil")")
    var problems: [String] = []
    if !(result.errorMessage ?? "").contains("blockIndex") {
        problems.append("errorMessage does not contain \"blockIndex\": \(result.errorMessage ?? "nil")")
    }
    if !result.lines.isEmpty { problems.append("lines should be empty, got \(result.lines)") }
    return problems
}

check("without a model file the app is told where to put one") {
    let result = ModelDemoModel(dbPath: dbPath, modelPath: nil).run(today: "2026-01-05")
    print("     | error: \(result.errorMessage ?? "nil")")
    return (result.errorMessage ?? "").contains("model.gguf") ? [] : ["no hint naming model.gguf"]
}

check("a model that does not fit is refused before loading, in MB") {
    let header = CommandLine.arguments[1]
    let result = ModelDemoModel(dbPath: dbPath, modelPath: header).run(today: "2026-01-05")
    print("     | error: \(result.errorMessage ?? "nil")")
    return (result.errorMessage ?? "").contains("MB free") ? [] : ["not the InsufficientMemory message"]
}

check("a file that is not GGUF is reported as unusable") {
    let notGguf = dir.appendingPathComponent("notes.gguf")
    try! "not a model".write(to: notGguf, atomically: true, encoding: .utf8)
    let result = ModelDemoModel(dbPath: dbPath, modelPath: notGguf.path).run(today: "2026-01-05")
    print("     | error: \(result.errorMessage ?? "nil")")
    return (result.errorMessage ?? "").hasPrefix("The model cannot be used") ? [] : ["not the ModelUnusable message"]
}

check("findModel falls back to Documents/model.gguf, and to nil") {
    var problems: [String] = []
    if ModelDemoModel.findModel(documents: dir) != nil { problems.append("found a model in an empty folder") }
    let downloaded = dir.appendingPathComponent(ModelDemoModel.fileName)
    _ = FileManager.default.createFile(atPath: downloaded.path, contents: Data("GGUF".utf8))
    if ModelDemoModel.findModel(documents: dir) != downloaded.path {
        problems.append("did not find \(downloaded.path)")
    }
    return problems
}

print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
