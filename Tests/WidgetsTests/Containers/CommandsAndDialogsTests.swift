import XCTest
import TesseraTesting
@testable import Widgets

/// Keyboard shortcuts, the menu bar and the modal dialogs, driven by real key and mouse events.
final class CommandsAndDialogsTests: XCTestCase {
    /// A shortcut's key is the keycode of its character lowercased, SDL's for printable keys:
    /// ASCII is lowercased directly, anything else through `lowercased()`.
    func testAKeyFromACharacterIsItsLowercaseCharacter() {
        for scalar in (0...127).compactMap(Unicode.Scalar.init) {
            let character = Character(scalar)
            XCTAssertEqual(
                Key(character).rawValue, Int32(String(character).lowercased().unicodeScalars.first!.value),
                "\(scalar.value)")
        }
        XCTAssertEqual(Key("A"), Key("a"))
        XCTAssertEqual(Key("Z").rawValue, 0x7A)
        XCTAssertEqual(Key("É").rawValue, 0xE9)
        XCTAssertEqual(Key("Ω").rawValue, 0x3C9)
        XCTAssertEqual(Key("\r\n").rawValue, 13, "a grapheme of two scalars: its first")
    }

    func testAShortcutFiresFromAnywhereOncePerPressAndLeavesAFieldItsKeys() throws {
        try onMain {
            let h = try Harness()
            var text = "hello", saved = 0, marked = 0
            let build: (UI) -> Void = { ui in
                ui.textField("Name", text: &text)
                if ui.button("Save", shortcut: KeyboardShortcut("s")) { saved += 1 }
                if ui.button("Mark", shortcut: KeyboardShortcut("m", modifiers: [])) { marked += 1 }
                // the same keys: the first one wins
                if ui.button("Save again", shortcut: KeyboardShortcut("s")) { saved += 100 }
            }
            h.frame(build)
            h.press(Key("s"), modifiers: .control, build)
            XCTAssertEqual(saved, 1, "Ctrl+S with nothing focused, once")
            h.press(Key("m"), build)
            XCTAssertEqual(marked, 1)
            try h.click(on: "hello", build)  // focus the field
            h.press(Key("m"), build)
            XCTAssertEqual(marked, 1, "a key without a modifier is the field's while it has focus")
            h.press(Key("s"), modifiers: .control, build)
            XCTAssertEqual(saved, 2, "Ctrl+S still fires from the field")
            XCTAssertEqual(text, "hello")
        }
    }

    func testTheFieldsOwnCtrlKeysStayTheFields() throws {
        try onMain {
            let h = try Harness()
            var text = "abc", selectedAll = 0
            let build: (UI) -> Void = { ui in
                ui.textField("Name", text: &text)
                if ui.button("Select All Rows", shortcut: KeyboardShortcut("a")) { selectedAll += 1 }
            }
            h.frame(build)
            h.press(Key("a"), modifiers: .control, build)
            XCTAssertEqual(selectedAll, 1, "no field focused: the command")
            try h.click(on: "abc", build)
            h.press(Key("a"), modifiers: .control, build)
            h.type("x", build)
            XCTAssertEqual(selectedAll, 1, "in the field, Ctrl+A selects its text")
            XCTAssertEqual(text, "x", "the field's select-all, then typing replaced it")
        }
    }

    @MainActor private static func menus(_ log: Model<[String]>) -> (UI) -> Void {
        { ui in
            ui.menuBar {
                ui.menu("File") {
                    if ui.menuItem("New Window", shortcut: KeyboardShortcut("n")) { log.value.append("new") }
                    if ui.menuItem("Open…", shortcut: KeyboardShortcut("o")) { log.value.append("open") }
                }
                ui.menu("View") {
                    if ui.menuItem("Zoom In", shortcut: KeyboardShortcut("=")) { log.value.append("zoom") }
                }
            }
            ui.text("Content")
        }
    }

    func testTheMenuBarOpensWithTheMouseAndItsShortcutsWorkWhileItIsClosed() throws {
        try onMain {
            let h = try Harness()
            let log = Model<[String]>([])
            let build = Self.menus(log)
            h.frame(build)
            XCTAssertNil(h.rect(ofText: "New Window"), "closed")
            h.press(Key("n"), modifiers: .control, build)
            XCTAssertEqual(log.value, ["new"], "a closed menu's item fires on its shortcut")
            try h.click(on: "File", build)
            XCTAssertNotNil(h.rect(ofText: "New Window", in: .popup))
            XCTAssertNotNil(h.rect(ofText: "Ctrl+O", in: .popup), "the menu shows the shortcut")
            let view = try XCTUnwrap(h.rect(ofText: "View"))
            h.inject.mouseMove(to: Point(view.midX, view.midY))
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "Zoom In", in: .popup), "hovering another title while one is open switches")
            try h.click(on: "Zoom In", in: .popup, build)
            XCTAssertEqual(log.value, ["new", "zoom"])
            XCTAssertNil(h.rect(ofText: "Zoom In"), "choosing closes the menu")
            try h.click(on: "File", build)
            try h.click(on: "File", build)
            XCTAssertNil(h.rect(ofText: "New Window"), "clicking the open menu's title closes it")
        }
    }

    /// A closed menu is built for its shortcuts, which only a key press can fire: not in the
    /// frames without one.
    func testAClosedMenuIsBuiltOnlyInFramesWithAKeyPress() throws {
        try onMain {
            let h = try Harness()
            var builds = 0, zoomed = 0
            let build: (UI) -> Void = { ui in
                ui.menuBar {
                    ui.menu("View") {
                        builds += 1
                        if ui.menuItem("Zoom In", shortcut: KeyboardShortcut("=")) { zoomed += 1 }
                    }
                }
            }
            h.frames(3, build)
            h.inject.mouseMove(to: Point(300, 200))
            h.frames(2, build)
            XCTAssertEqual(builds, 0, "no key pressed: the closed menu is not built")
            h.press(Key("="), modifiers: .control, build)
            XCTAssertEqual(zoomed, 1, "its shortcut fires")
            XCTAssertGreaterThan(builds, 0)
            let afterPress = builds
            h.frames(2, build)
            XCTAssertEqual(builds, afterPress, "nor after the press")
            try h.click(on: "View", build)
            XCTAssertGreaterThan(builds, afterPress, "open: built every frame")
            XCTAssertNotNil(h.rect(ofText: "Zoom In", in: .popup))
        }
    }

    func testADisabledCommandIsShownUnavailableAndNeitherItsItemNorItsShortcutFires() throws {
        try onMain {
            let h = try Harness()
            var canDelete = false
            var deleted = 0
            let build: (UI) -> Void = { ui in
                ui.menuBar {
                    ui.menu("Edit") {
                        ui.menuItem("Copy", shortcut: KeyboardShortcut("c"))
                        ui.divider()
                        ui.disabled(!canDelete) {
                            if ui.menuItem("Delete", shortcut: KeyboardShortcut(.delete, modifiers: [])) {
                                deleted += 1
                            }
                        }
                    }
                }
            }
            h.frame(build)
            h.press(.delete, build)
            XCTAssertEqual(deleted, 0, "a disabled command's shortcut does not fire")
            try h.click(on: "Edit", build)
            // A divider does not make the menu as wide as the window: it is as wide as its items.
            let menu = try XCTUnwrap(h.ui.accessibilityTree.all(.popupMenu).first?.frame)
            XCTAssertLessThan(menu.width, 250)
            let item = try h.find(.menuItem, "Delete")
            XCTAssertFalse(item.states.contains(.enabled))
            XCTAssertTrue(item.actions.isEmpty, "a screen reader cannot press it either")
            try h.click(on: "Delete", in: .popup, build)
            XCTAssertEqual(deleted, 0, "nor does clicking it")
            h.press(.escape, build)
            h.press(Key("e"), modifiers: .alt, build)
            for _ in 0..<2 { h.press(.down, build) }
            h.press(.returnKey, build)
            XCTAssertEqual(deleted, 0, "nor choosing it from the keyboard")
            h.press(.escape, build)
            canDelete = true
            h.frame(build)
            h.press(.delete, build)
            XCTAssertEqual(deleted, 1, "enabled again, it fires")
        }
    }

    func testADisabledButtonIsDimmedAndTakesNoClickFocusOrShortcut() throws {
        try onMain {
            let h = try Harness()
            var isDisabled = true
            var pressed = 0
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.disabled(isDisabled) {
                        if ui.button("Save", style: .borderedProminent, shortcut: KeyboardShortcut("s")) {
                            pressed += 1
                        }
                    }
                }
            }
            h.frame(build)
            let save = try XCTUnwrap(h.rect(ofText: "Save"))
            let fill = { () -> Color in
                let pixels = h.host.lastFramePixels!
                return pixels.pixel(x: Int(save.minX) - 4, y: Int(save.midY))
            }
            let dimmed = fill()
            h.click(at: Point(save.midX, save.midY), build)
            h.press(Key("s"), modifiers: .control, build)
            h.press(.tab, build)
            h.press(.space, build)
            XCTAssertEqual(pressed, 0)
            XCTAssertNil(h.ui.focusID, "Tab skips it")
            XCTAssertFalse(try h.find(.pushButton, "Save").states.contains(.enabled))
            isDisabled = false
            h.frames(2, build)
            let accent = fill()
            XCTAssertGreaterThan(
                Int(dimmed.r) + Int(dimmed.g), Int(accent.r) + Int(accent.g) + 100,
                "dimmed: the accent faded towards the background")
            h.click(at: Point(save.midX, save.midY), build)
            h.press(Key("s"), modifiers: .control, build)
            XCTAssertEqual(pressed, 2)
        }
    }

    func testTheMenuBarWorksFromTheKeyboard() throws {
        try onMain {
            let h = try Harness()
            let log = Model<[String]>([])
            let build = Self.menus(log)
            h.frame(build)
            h.press(.f10, build)
            XCTAssertNotNil(h.rect(ofText: "New Window", in: .popup), "F10 opens the first menu")
            h.press(.down, build)
            h.press(.returnKey, build)
            XCTAssertEqual(log.value, ["open"], "F10 highlights the first item; Down, Return chooses the second")
            h.press(Key("v"), modifiers: .alt, build)
            XCTAssertNotNil(h.rect(ofText: "Zoom In", in: .popup), "Alt+V opens View")
            h.press(.right, build)
            XCTAssertNotNil(h.rect(ofText: "New Window", in: .popup), "→ wraps to File")
            h.press(.escape, build)
            XCTAssertNil(h.rect(ofText: "New Window"), "Escape closes it")
            XCTAssertEqual(log.value, ["open"])
        }
    }

    func testANarrowMenuBarCollapsesIntoOneMenuButton() throws {
        try onMain {
            let h = try Harness(width: 90, height: 300)
            let log = Model<[String]>([])
            let build = Self.menus(log)
            h.frames(3, build)
            XCTAssertNil(h.rect(ofText: "File"), "no room for the titles")
            h.click(at: Point(16, 16), build)
            h.frame(build)
            try h.click(on: "View", in: .popup, build)
            h.frame(build)  // a menu opened from another popup is measured in the frame after

            try h.click(on: "Ctrl+=", in: .popup, build)  // the row of Zoom In, whose title this narrow window cuts
            XCTAssertEqual(log.value, ["zoom"])
        }
    }

    func testAnAlertIsModalAndItsKeysPressItsButtons() throws {
        try onMain {
            let h = try Harness()
            let shown = Model(false)
            var background = 0, log: [String] = []
            let build: (UI) -> Void = { ui in
                if ui.button("Behind", shortcut: KeyboardShortcut("b")) { background += 1 }
                ui.alert(
                    "Replace the file?", isPresented: shown.binding,
                    actions: [
                        DialogAction("Replace") { log.append("replace") },
                        DialogAction("Cancel", role: .cancel) { log.append("cancel") },
                    ],
                    message: "A file with that name exists.")
            }
            h.frame(build)
            let behind = try XCTUnwrap(h.rect(ofText: "Behind"))
            shown.value = true
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "A file with that name exists."))
            let scrim = h.pixels.pixel(x: Int(behind.maxX) + 40, y: Int(behind.midY))
            XCTAssertLessThan(Int(scrim.r), Int(h.ui.theme.background.r) - 40, "a scrim darkens the window")
            h.click(at: Point(behind.midX, behind.midY), build)
            h.press(Key("b"), modifiers: .control, build)
            XCTAssertEqual(background, 0, "the window behind takes no clicks and no shortcuts")
            // Tab stays among the dialog's two buttons.
            let replaceID = h.ui.focusID
            XCTAssertNotNil(replaceID, "focus moved into the dialog")
            h.press(.tab, build)
            XCTAssertNotEqual(h.ui.focusID, replaceID)
            h.press(.tab, build)
            XCTAssertEqual(h.ui.focusID, replaceID, "two Tabs: back on the default button")
            h.press(.escape, build)
            XCTAssertEqual(log, ["cancel"])
            XCTAssertFalse(shown.value)
            shown.value = true
            h.frames(2, build)
            h.press(.returnKey, build)
            XCTAssertEqual(log, ["cancel", "replace"], "Return presses the default action")
            h.frames(2, build)
            try h.click(on: "Behind", build)
            XCTAssertEqual(background, 1, "closed: the window takes input again")
        }
    }

    func testAConfirmationDialogNeverDestroysOnReturnAndASheetClosesOnEscape() throws {
        try onMain {
            let h = try Harness()
            let confirming = Model(false), sheet = Model(false)
            var trashed = 0
            let build: (UI) -> Void = { ui in
                ui.confirmationDialog(
                    "Move 12 photos to the trash?", isPresented: confirming.binding,
                    actions: [DialogAction("Move to Trash", role: .destructive) { trashed += 1 }])
                ui.sheet(isPresented: sheet.binding) { ui.text("Settings") }
            }
            confirming.value = true
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "Cancel"), "a Cancel button is added")
            h.press(.returnKey, build)
            XCTAssertEqual(trashed, 0, "Return presses Cancel, not the destructive action")
            XCTAssertFalse(confirming.value)
            confirming.value = true
            h.frames(2, build)
            try h.click(on: "Move to Trash", build)
            XCTAssertEqual(trashed, 1)
            sheet.value = true
            h.frames(2, build)
            XCTAssertNotNil(h.rect(ofText: "Settings"))
            h.press(.escape, build)
            XCTAssertFalse(sheet.value)
            XCTAssertNil(h.rect(ofText: "Settings"))
        }
    }
}
