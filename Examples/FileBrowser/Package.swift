// swift-tools-version: 6.0
// A small app built on Tessera from its public API alone: it depends on Tessera by path, as a
// package of yours would by URL.
import PackageDescription

let package = Package(
    name: "FileBrowser",
    dependencies: [
        .package(name: "Tessera", path: "../..")
    ],
    targets: [
        .target(name: "FileBrowserKit", dependencies: [.product(name: "Widgets", package: "Tessera")]),
        .executableTarget(
            name: "FileBrowser", dependencies: ["FileBrowserKit", .product(name: "Widgets", package: "Tessera")]),
        .testTarget(
            name: "FileBrowserKitTests",
            dependencies: [
                "FileBrowserKit", .product(name: "Widgets", package: "Tessera"),
                .product(name: "TesseraTesting", package: "Tessera"),
            ]),
    ]
)
