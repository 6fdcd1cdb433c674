// swift-tools-version:5.9
// SwiftPM package for the coachcore binding test. bindings/swift/test.sh copies it into
// target/bindings-test/swift/pkg together with the generated sources:
//   Sources/coachcoreFFI/  module.modulemap (+ `link "coachcore"`) and coachcoreFFI.h (UniFFI)
//   Sources/coachcore/     coachcore.swift (UniFFI)
// and passes the library search path (libcoachcore.so, or libcoachcore.a alone) with -Xlinker.
import PackageDescription

let package = Package(
    name: "CoachCore",
    products: [
        .library(name: "coachcore", targets: ["coachcore"]),
    ],
    targets: [
        .systemLibrary(name: "coachcoreFFI", path: "Sources/coachcoreFFI"),
        .target(name: "coachcore", dependencies: ["coachcoreFFI"], path: "Sources/coachcore"),
        .testTarget(name: "CoachCoreTests", dependencies: ["coachcore"], path: "Tests/CoachCoreTests"),
    ]
)
