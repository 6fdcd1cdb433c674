// CoachDemoCheck: runs PlanDemoModel (the demo app's non-UI logic) against the real library,
// without SwiftUI, so it runs on Linux too. Built and run by ios-demo/check.sh, compiled in one
// module with the generated coachcore.swift and CoachDemo/PlanDemoModel.swift.
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

print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
