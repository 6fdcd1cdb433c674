// ContentView.swift: shows the plan PlanDemoModel builds from the bundled sample output.
// (SwiftUI: not compiled on the Linux check machine; see ../README.md.)
import SwiftUI

struct ContentView: View {
    @State private var result: PlanDemoResult?
    @State private var useBrokenSample = false

    var body: some View {
        NavigationStack {
            List {
                if let result {
                    if let error = result.errorMessage {
                        Text(error).foregroundStyle(.red)
                    }
                    ForEach(Array(result.lines.enumerated()), id: \.offset) { _, line in
                        Text(line).font(line.hasPrefix("  ") ? .body : .headline)
                    }
                } else {
                    ProgressView()
                }
            }
            .navigationTitle("coachcore demo")
            .toolbar {
                Toggle("Broken output", isOn: $useBrokenSample)
            }
        }
        // Runs on appear and again whenever the toggle changes.
        .task(id: useBrokenSample) { await load() }
    }

    @MainActor private func load() async {
        result = nil
        let model = PlanDemoModel(
            dbPath: Self.databasePath(),
            modelOutput: useBrokenSample
                ? PlanDemoModel.brokenSampleModelOutput
                : PlanDemoModel.sampleModelOutput)
        // run() opens SQLite and writes to it: keep it off the main actor.
        result = await Task.detached(priority: .userInitiated) { model.run() }.value
    }

    /// `<app Documents>/coach.sqlite`; the library creates the file on first open.
    private static func databasePath() -> String {
        URL.documentsDirectory.appending(path: "coach.sqlite").path(percentEncoded: false)
    }
}

#Preview {
    ContentView()
}
