// swift-tools-version:5.9
// The coachcore Swift package, the way mozilla's rust-components-swift ships Rust: a binaryTarget
// for the XCFramework (the static library with the llama.cpp engine on Metal, its C headers) and a
// source target with the UniFFI-generated Swift, product `CoachCore`. An app writes
// `import coachcore`. See docs/packages.md and docs/releasing.md.
//
// One manifest, three layouts:
// - a release (what apps add by URL): scripts/release.sh writes a package repository whose root
//   holds this file with `release` set (the XCFramework zip's URL and SHA-256) and the Swift in
//   Sources/coachcore;
// - development on a Mac, in this repository (`release` nil): swift/build-package.sh fills swift/
//   (coachcoreFFI.xcframework, Sources/coachcore); add this folder as a local package;
// - Linux (the binding tests): bindings/swift/test.sh copies this file beside the generated
//   sources and takes libcoachcore.so through a system library module.
import PackageDescription

/// The released XCFramework zip: its URL and its SHA-256 (what `swift package compute-checksum`
/// prints). scripts/release.sh sets it in the package repository's copy of this file.
let release: (url: String, checksum: String)? = nil

#if os(Linux)
let root = ""
let ffi: Target = .systemLibrary(name: "coachcoreFFI", path: "Sources/coachcoreFFI")
#else
let root = release == nil ? "swift/" : ""
let ffi: Target = release.map { .binaryTarget(name: "coachcoreFFI", url: $0.url, checksum: $0.checksum) }
    ?? .binaryTarget(name: "coachcoreFFI", path: "swift/coachcoreFFI.xcframework")
#endif

let apple: [Platform] = [.iOS, .macOS]
var targets: [Target] = [
    ffi,
    .target(
        name: "coachcore",
        dependencies: ["coachcoreFFI"],
        path: root + "Sources/coachcore",
        // Apple's required-reason APIs the library calls (SQLite's file metadata, elapsed time):
        // the app's privacy report includes it.
        resources: [.copy("PrivacyInfo.xcprivacy")],
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
// The binding tests, which bindings/swift/test.sh copies in (a release has no Tests folder and no
// test target).
targets.append(.testTarget(name: "CoachCoreTests", dependencies: ["coachcore"],
                           path: "Tests/CoachCoreTests"))
#endif

let package = Package(
    name: "CoachCore",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "CoachCore", targets: ["coachcore"]),
    ],
    targets: targets
)
