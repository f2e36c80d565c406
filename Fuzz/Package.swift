// swift-tools-version: 6.0
// libFuzzer targets for the parsers that read files from outside. Built and run by
// scripts/fuzz.sh (`-sanitize=fuzzer,address`, `-parse-as-library`; FuzzDriver starts libFuzzer).
// `Tessera` is a link to the repository root, so the dependency has that name wherever the
// repository is cloned.
import PackageDescription

let package = Package(
    name: "TesseraFuzz",
    dependencies: [
        .package(path: "Tessera"),
        // The library index's rows (FuzzIndexRow) are GRDB rows.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzImageHeader", dependencies: ["FuzzDriver", .product(name: "Render2D", package: "Tessera")]),
        .executableTarget(name: "FuzzThumbnail", dependencies: ["FuzzDriver", .product(name: "Render2D", package: "Tessera")]),
        .executableTarget(name: "FuzzReplay", dependencies: ["FuzzDriver", .product(name: "Widgets", package: "Tessera")]),
        .executableTarget(name: "FuzzStateFile", dependencies: ["FuzzDriver", .product(name: "Widgets", package: "Tessera")]),
        .executableTarget(name: "FuzzSidecar", dependencies: ["FuzzDriver", .product(name: "Render2D", package: "Tessera")]),
        .executableTarget(name: "FuzzThumbnailCache", dependencies: ["FuzzDriver", .product(name: "Render2D", package: "Tessera")]),
        .executableTarget(name: "FuzzSavedState", dependencies: ["FuzzDriver", .product(name: "Widgets", package: "Tessera")]),
        .executableTarget(name: "FuzzIndexRow", dependencies: ["FuzzDriver", .product(name: "Render2D", package: "Tessera"),
                                                               .product(name: "GRDB", package: "GRDB.swift")]),
    ]
)
