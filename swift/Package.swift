// swift-tools-version:5.9
// The coachcore Swift package, the way mozilla's rust-components-swift ships Rust: a binaryTarget
// for the XCFramework and the UniFFI-generated Swift as a source target. swift/build-package.sh
// (macOS) fills it:
//   coachcoreFFI.xcframework   libcoachcore.a (llama.cpp engine on Metal) for iOS devices and
//                              Apple-silicon simulators, with coachcoreFFI.h and its module map
//   Sources/coachcore/         coachcore.swift (generated) and the Swift shipped with the bindings
// An app adds the package (Xcode: File > Add Package Dependencies > Add Local, or a git URL to a
// repository holding the filled folder) and writes `import coachcore`. See docs/packages.md.
//
// On Linux (this repository's checks) the same manifest takes libcoachcore.so through a system
// library module in place of the XCFramework: bindings/swift/test.sh fills Sources/coachcoreFFI
// and runs the binding tests (Tests/CoachCoreTests) against this package.
import PackageDescription

#if os(Linux)
let ffi: Target = .systemLibrary(name: "coachcoreFFI", path: "Sources/coachcoreFFI")
#else
let ffi: Target = .binaryTarget(name: "coachcoreFFI", path: "coachcoreFFI.xcframework")
#endif

let apple: [Platform] = [.iOS, .macOS]
var targets: [Target] = [
    ffi,
    .target(
        name: "coachcore",
        dependencies: ["coachcoreFFI"],
        path: "Sources/coachcore",
        // What the static library needs from the system: llama.cpp's Metal backend and
        // Accelerate, Foundation, and the C++ runtime llama.cpp is written against.
        linkerSettings: [
            .linkedFramework("Metal", .when(platforms: apple)),
            .linkedFramework("MetalKit", .when(platforms: apple)),
            .linkedFramework("Accelerate", .when(platforms: apple)),
            .linkedFramework("Foundation", .when(platforms: apple)),
            // SQLCipher's CommonCrypto, in a library built with the feature `encryption`.
            .linkedFramework("Security", .when(platforms: apple)),
            .linkedLibrary("c++", .when(platforms: apple)),
        ]),
]
#if os(Linux)
// The binding tests, which bindings/swift/test.sh copies in (an app's copy on an Apple platform has
// no Tests folder and no test target).
targets.append(.testTarget(name: "CoachCoreTests", dependencies: ["coachcore"],
                           path: "Tests/CoachCoreTests"))
#endif

let package = Package(
    name: "CoachCore",
    platforms: [.iOS(.v16)],
    products: [
        .library(name: "CoachCore", targets: ["coachcore"]),
    ],
    targets: targets
)
