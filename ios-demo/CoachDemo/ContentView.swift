// ContentView.swift: shows the plan PlanDemoModel builds from the bundled sample output, and, on
// "Plan with the model", the plan the on-device model writes (ModelDemoModel: the GGUF file the
// app ships or downloads). (SwiftUI: not compiled on the Linux check machine; see ../README.md.)
import SwiftUI

struct ContentView: View {
    @State private var result: PlanDemoResult?
    @State private var useBrokenSample = false
    @State private var modelResult: PlanDemoResult?
    @State private var modelRunning = false

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
                Section("On-device model") {
                    Button("Plan with the model") { Task { await runModel() } }
                        .disabled(modelRunning)
                    if modelRunning { ProgressView() }
                    if let modelResult {
                        if let error = modelResult.errorMessage {
                            Text(error).foregroundStyle(.red)
                        }
                        ForEach(Array(modelResult.lines.enumerated()), id: \.offset) { _, line in
                            Text(line)
                        }
                    }
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

    @MainActor private func runModel() async {
        modelRunning = true
        defer { modelRunning = false }
        let model = ModelDemoModel(
            dbPath: Self.databasePath(),
            modelPath: ModelDemoModel.findModel(documents: URL.documentsDirectory))
        // The user's local date, YYYY-MM-DD.
        let today = Date.now.formatted(
            Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
        // Loading reads the file and generation takes seconds: off the main actor.
        modelResult = await Task.detached(priority: .userInitiated) { model.run(today: today) }.value
    }

    /// `<app Documents>/coach.sqlite`; the library creates the file on first open.
    private static func databasePath() -> String {
        URL.documentsDirectory.appending(path: "coach.sqlite").path(percentEncoded: false)
    }
}

#Preview {
    ContentView()
}
