// CoachDemoApp.swift: the app entry point. All the coachcore logic is in PlanDemoModel.swift.
import SwiftUI

@main
struct CoachDemoApp: App {
    var body: some Scene {
        WindowGroup {
            ContentView()
        }
    }
}
