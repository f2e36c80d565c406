// swift-tools-version: 6.0
import PackageDescription

/// The functions a run of GalleryDemo touches, laid out together by the release link
/// (`scripts/hot-functions.sh` writes the list).
let hotFunctions = Context.packageDirectory + "/Sources/GalleryDemo/hot-functions.order"

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Render2D", targets: ["Render2D"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "Profiling", targets: ["Profiling"]),
        .library(name: "Widgets", targets: ["Widgets"]),
        // The harness that drives a real offscreen window with injected events, for app authors' tests.
        .library(name: "TesseraTesting", targets: ["TesseraTesting"]),
        .executable(name: "GalleryDemo", targets: ["GalleryDemo"]),
        // The showcase's browser, pages and benches, for the fuzzers (a package of their own); not for apps.
        .library(name: "GalleryKit", targets: ["GalleryKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        // The photo browser's library index (SQLite, the system's: libsqlite3-dev); only GalleryDemo links it.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation`; a plugin only, nothing of it links into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSDL2",
            pkgConfig: "harfbuzz",  // its cflags bring FreeType's and GLib's include paths too
            providers: [
                .apt([
                    "libsdl2-dev", "libsdl2-image-dev", "libturbojpeg0-dev", "libjpeg62-turbo-dev", "zlib1g-dev",
                    "libpng-dev",
                    "libglib2.0-dev", "libfontconfig-dev", "libfreetype-dev", "libharfbuzz-dev", "libfribidi-dev",
                ])
            ]
        ),
        // The fonts shipped with Tessera. `Assets/` is its own target so SwiftPM copies the
        // fonts into a resource bundle next to every built binary.
        .target(
            name: "TesseraAssets",
            path: "Assets",
            exclude: ["Fonts/LICENSE-DejaVu.txt"],
            sources: ["AssetLocator.swift"],
            resources: [.copy("Fonts")]
        ),
        // What the GL driver says about presenting a window, in C: how old its back buffer is
        // (GLX_EXT_buffer_age), and copying only regions of it to the window
        // (GLX_MESA_copy_sub_buffer), so a frame redraws and presents only its damage. Apart
        // from CSDL2 because SDL_syswm.h brings X11's names (`Window`, `Font`) with it.
        .target(name: "CGLPresent", dependencies: ["CSDL2"]),
        // Painting and text: the draw list, SDL's renderer and windows, fonts, shaping, the
        // glyph atlas, geometry, and the threads, locks, logs and file checks everything shares.
        .target(
            name: "Render2D",
            dependencies: ["CSDL2", "CGLPresent", "TesseraAssets"]
        ),
        // Images from files: decoders (JPEG, PNG, GIF, TIFF and the rest through SDL_image),
        // EXIF, embedded thumbnails, the freedesktop thumbnail cache, and the lazy pipeline
        // that decodes on worker threads and uploads within a frame's budget.
        .target(
            name: "Imaging",
            dependencies: [
                "Render2D", "CSDL2",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // Frame timing: the profiler's records, scopes, input latency, janky-frame
        // screenshots, attribution of slow frames, and Chrome traces.
        .target(
            name: "Profiling",
            dependencies: [
                "Render2D", "Imaging", "CSDL2",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(
            name: "Widgets",
            dependencies: ["Render2D", "Imaging", "Profiling", "CSDL2"]
        ),
        // The demo's fixtures: deterministic sample photos, camera EXIF, the sample
        // generator. Only the demo and the tests depend on it; nothing shipped does.
        .target(
            name: "DemoSupport",
            dependencies: ["Render2D", "Imaging", "Profiling", "CSDL2"]
        ),
        // The showcase app: the photo browser, the pages, and the bench, profile and
        // generate-samples commands. GalleryDemo is the executable over it.
        .target(
            name: "GalleryKit",
            dependencies: [
                "Widgets", "Render2D", "Imaging", "Profiling", "DemoSupport", "CSDL2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // gexiv2 (through CSDL2's header, loaded on first use): the browser's XMP sidecars,
            // rotation and EXIF info.
        ),
        .executableTarget(
            name: "GalleryDemo",
            dependencies: ["GalleryKit"],
            exclude: ["hot-functions.order"],
            // Release builds carry the Swift runtime and Foundation inside the binary, as
            // `swift build --static-swift-stdlib` does: calls into the runtime (retain, release,
            // allocation) go straight there instead of through the dynamic linker's tables, and
            // only the runtime's pages the app touches are resident. lld packs the binary's
            // relative relocations (RELR, glibc 2.36+), so the loader reads 16 KB of them instead
            // of 2 MB. Table scene: work p50 0.159 → 0.136 ms, peak RSS 200 → 193 MB. lld lays the
            // functions a run touches (`hotFunctions`) out together: each page fault maps 64 KB
            // around it, so scattered ones kept 11 MB of .text resident, and together 8. Debug builds,
            // and so the tests, link the runtime dynamically; a release build of the tests would
            // link the test runner statically too, which XCTest cannot be, so run them in debug.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--symbol-ordering-file=\(hotFunctions)",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(configuration: .release))
            ]
        ),
        // Beside the tests that use it (the package's top level is fixed), exported as a product.
        .target(
            name: "TesseraTesting",
            dependencies: ["Widgets", "Render2D", "Imaging", "Profiling", "CSDL2"],
            path: "Tests/TesseraTesting"
        ),
        // Fixtures of this repository's own tests: hostile and scratch folders, trace nesting, the docs check, a TIFF reader.
        .target(
            name: "TestSupport",
            dependencies: ["Render2D", "Imaging", "Profiling", "DemoSupport", "CSDL2"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "Render2DTests",
            dependencies: [
                "Render2D", "TesseraAssets", "Imaging", "DemoSupport", "TesseraTesting", "TestSupport", "CSDL2",
            ]),
        // Findings/: inputs the fuzzers found (scripts/fuzz.sh), replayed by FuzzFindingTests;
        // Fixtures/: small images made with Pillow.
        .testTarget(
            name: "ImagingTests",
            dependencies: ["Imaging", "Render2D", "DemoSupport", "TesseraTesting", "TestSupport", "CSDL2"],
            exclude: ["Findings", "Fixtures"]),
        .testTarget(
            name: "ProfilingTests",
            dependencies: ["Profiling", "Imaging", "Render2D", "TesseraTesting", "TestSupport", "CSDL2"]),
        .testTarget(
            name: "WidgetsTests",
            dependencies: [
                "Widgets", "Render2D", "Imaging", "Profiling", "DemoSupport", "TesseraTesting", "TestSupport", "CSDL2",
            ]),
        .testTarget(
            name: "GalleryKitTests",
            dependencies: [
                "GalleryKit", "Widgets", "Render2D", "Imaging", "Profiling", "DemoSupport", "TesseraTesting",
                "TestSupport", "CSDL2",
            ]),
    ]
)
