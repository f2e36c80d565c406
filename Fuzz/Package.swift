// swift-tools-version: 6.0
// libFuzzer targets for the parsers that read files from outside. Built and run by
// scripts/fuzz.sh (`-sanitize=fuzzer,address`, `-parse-as-library`; FuzzDriver starts libFuzzer).
// The repository root is the dependency, named `Tessera` wherever it is cloned. The browser's
// parsers are fuzzed through GalleryKit's `@_spi(Fuzzing)` symbols.
import PackageDescription

let package = Package(
    name: "TesseraFuzz",
    dependencies: [
        .package(name: "Tessera", path: ".."),
        // The library index's rows (FuzzIndexRow) are GRDB rows.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzImageHeader", dependencies: ["FuzzDriver", .product(name: "Imaging", package: "Tessera")]),
        .executableTarget(
            name: "FuzzThumbnail", dependencies: ["FuzzDriver", .product(name: "Imaging", package: "Tessera")]),
        .executableTarget(
            name: "FuzzReplay", dependencies: ["FuzzDriver", .product(name: "Widgets", package: "Tessera")]),
        .executableTarget(
            name: "FuzzStateFile", dependencies: ["FuzzDriver", .product(name: "Widgets", package: "Tessera")]),
        .executableTarget(
            name: "FuzzSidecar", dependencies: ["FuzzDriver", .product(name: "GalleryKit", package: "Tessera")]),
        .executableTarget(
            name: "FuzzThumbnailCache", dependencies: ["FuzzDriver", .product(name: "Imaging", package: "Tessera")]),
        .executableTarget(
            name: "FuzzSavedState", dependencies: ["FuzzDriver", .product(name: "Widgets", package: "Tessera")]),
        .executableTarget(
            name: "FuzzIndexRow",
            dependencies: [
                "FuzzDriver", .product(name: "GalleryKit", package: "Tessera"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ]
)
