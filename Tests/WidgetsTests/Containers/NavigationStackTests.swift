import Foundation
import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// NavigationStack and TabView: push and pop by link, button, keys, the mouse's back button
/// and a touch swipe; tabs by click, keys, and the collapsed bar's menu.
final class NavigationStackTests: XCTestCase {
    private enum Route: Hashable, Codable { case album(Int), photo(Int) }

    @MainActor private final class App {
        var path: [Route] = []
        func build(_ ui: UI) {
            ui.navigationStack(path: Binding(self, \.path), title: "Albums") {
                ui.navigationLink("Summer", value: Route.album(1))
                ui.navigationLink("Winter", value: Route.album(2))
            } navigationDestination: { route in
                switch route {
                case .album(let id):
                    ui.navigationTitle(id == 1 ? "Summer" : "Winter")
                    ui.navigationLink("Beach", value: Route.photo(10))
                case .photo(let id):
                    ui.navigationTitle("Photo \(id)")
                    ui.text("A photo")
                }
            }
        }
    }

    func testLinksPushAndTheBackButtonKeysMouseButtonAndEdgeSwipePop() throws {
        try onMain {
            let h = try Harness(width: 500, height: 400)
            let app = App()
            h.frames(2, app.build)
            XCTAssertNotNil(h.rect(ofText: "Albums"), "the root's title in the bar")
            XCTAssertNil(h.rect(ofText: "Back"))
            try h.click(on: "Summer", app.build)
            XCTAssertEqual(app.path, [.album(1)])
            try h.click(on: "Beach", app.build)
            XCTAssertEqual(app.path, [.album(1), .photo(10)])
            XCTAssertNotNil(h.rect(ofText: "A photo"))
            XCTAssertNotNil(h.rect(ofText: "Photo 10"), "the page's title")
            let back = try XCTUnwrap(h.rect(ofText: "Summer"), "the back button is named after the page before")
            XCTAssertLessThan(back.minX, 60, "at the leading edge")
            try XCTAssertEqual(h.find(.pushButton, "Back").name, "Back", "a screen reader hears Back")
            h.click(at: Point(back.midX, back.midY), app.build)
            h.frame(app.build)
            XCTAssertEqual(app.path, [.album(1)])
            XCTAssertNotNil(h.rect(ofText: "Albums"), "the back button reads the root's title now")

            h.press(.left, modifiers: .alt, app.build)
            XCTAssertEqual(app.path, [], "Alt+Left goes back")
            h.press(.left, modifiers: .alt, app.build)
            XCTAssertEqual(app.path, [], "nothing to pop at the root")

            // The mouse's back button, over the stack.
            app.path = [.album(2), .photo(10)]
            h.frames(2, app.build)
            XCTAssertNotNil(h.rect(ofText: "Back"), "restored from a saved path: the levels' titles are not known yet")
            h.inject.mouseMove(to: Point(250, 200))
            h.inject.mouseButton(.back, down: true, at: Point(250, 200))
            h.inject.mouseButton(.back, down: false, at: Point(250, 200))
            h.frames(2, app.build)
            XCTAssertEqual(app.path, [.album(2)])

            // A finger from the leading edge: the page follows, and let go past a third it goes back.
            h.inject.finger(1, .down, at: Point(4, 200))
            h.frames(2, app.build)
            for x in stride(from: 24.0, through: 120, by: 24) {
                h.inject.finger(1, .moved, at: Point(x, 200))
                h.frame(app.build)
            }
            let beach = try XCTUnwrap(h.rect(ofText: "Beach"))
            XCTAssertGreaterThan(beach.minX, 100, "the page follows the finger")
            h.inject.finger(1, .up, at: Point(120, 200))
            h.frames(2, app.build)
            XCTAssertEqual(app.path, [.album(2)], "120 of 500: not far enough, it stays")
            XCTAssertLessThan(try XCTUnwrap(h.rect(ofText: "Beach")).minX, 40, "and slides back")
            h.inject.finger(2, .down, at: Point(4, 200))
            h.frames(2, app.build)
            for x in stride(from: 40.0, through: 320, by: 40) {
                h.inject.finger(2, .moved, at: Point(x, 200))
                h.frame(app.build)
            }
            h.inject.finger(2, .up, at: Point(320, 200))
            h.frames(2, app.build)
            XCTAssertEqual(app.path, [], "past a third: back")
            // A swipe that starts away from the edge is the page's own.
            app.path = [.album(1)]
            h.frames(2, app.build)
            h.drag(from: Point(200, 200), to: Point(480, 200), app.build)
            XCTAssertEqual(app.path, [.album(1)])
        }
    }

    func testAPathOfSeveralTypesBuildsEachWithItsOwnDestination() throws {
        try onMain {
            struct Album: Hashable { let name: String }
            struct Person: Hashable { let name: String }
            let h = try Harness(width: 500, height: 400)
            var path: [AnyHashable] = []
            let build: (UI) -> Void = { ui in
                ui.navigationStack(path: Binding(get: { path }, set: { path = $0 }), title: "Library") {
                    ui.navigationLink("Summer", value: Album(name: "Summer"))
                    ui.navigationLink("Ana", value: Person(name: "Ana"))
                } destinations: { d in
                    d.navigationDestination(for: Album.self) { album in ui.text("Album \(album.name)") }
                    d.navigationDestination(for: Person.self) { person in
                        ui.text("Person \(person.name)")
                        ui.navigationLink("Her album", value: Album(name: "Ana's"))
                    }
                }
            }
            h.frames(2, build)
            try h.click(on: "Ana", build)
            XCTAssertNotNil(h.rect(ofText: "Person Ana"))
            try h.click(on: "Her album", build)
            XCTAssertEqual(path, [AnyHashable(Person(name: "Ana")), AnyHashable(Album(name: "Ana's"))])
            XCTAssertNotNil(h.rect(ofText: "Album Ana's"), "each type built by its own destination")
            path.append(AnyHashable(42))
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "No destination for a Int"), "a value no destination takes says so")
        }
    }

    func testThePathIsTheAppsToSave() throws {
        let path: [Route] = [.album(3), .photo(9)]
        let saved = try JSONEncoder().encode(path)
        XCTAssertEqual(try JSONDecoder().decode([Route].self, from: saved), path)
    }

    func testTabsSwitchByClickAndCtrlPageKeysAndCollapseIntoAMenuWhenNarrow() throws {
        try onMain {
            enum Tab: Hashable { case photos, albums, people }
            let h = try Harness(width: 500, height: 300)
            var tab = Tab.photos
            var built: [Tab] = []
            let build: (UI) -> Void = { ui in
                built = []
                ui.tabView(selection: Binding(get: { tab }, set: { tab = $0 })) {
                    ui.tab("Photos", icon: .photo, value: Tab.photos) {
                        built.append(.photos)
                        ui.text("All photos")
                    }
                    ui.tab("Albums", icon: .folder, value: Tab.albums) {
                        built.append(.albums)
                        ui.text("All albums")
                    }
                    ui.tab("People", value: Tab.people) {
                        built.append(.people)
                        ui.text("All people")
                    }
                }
            }
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "All photos"))
            XCTAssertEqual(built, [.photos], "only the shown page is built")
            try h.click(on: "Albums", build)
            XCTAssertEqual(tab, .albums)
            XCTAssertNotNil(h.rect(ofText: "All albums"))
            h.press(.pageDown, modifiers: .control, build)
            XCTAssertEqual(tab, .people)
            h.press(.pageDown, modifiers: .control, build)
            XCTAssertEqual(tab, .photos, "wrapping")
            h.press(.pageUp, modifiers: .control, build)
            XCTAssertEqual(tab, .people)
            let tabs = h.findAll(.pageTab)
            XCTAssertEqual(tabs.map(\.name), ["Photos", "Albums", "People"])
            XCTAssertEqual(tabs.filter { $0.states.contains(.selected) }.map(\.name), ["People"])

            // Narrow: one button showing the current tab; its menu picks another.
            h.host.window.setSize(width: 200, height: 300)
            h.frames(2, build)
            XCTAssertNil(h.rect(ofText: "Photos"), "collapsed")
            try h.click(on: "People", build)
            try h.click(on: "Albums", in: .popup, build)
            XCTAssertEqual(tab, .albums)
            XCTAssertNotNil(h.rect(ofText: "All albums"))
        }
    }
}
