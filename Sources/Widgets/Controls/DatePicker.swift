import Foundation
import Render2D
import Imaging
import Profiling

/// What a date picker edits (SwiftUI's `DatePickerComponents`).
public struct DatePickerComponents: OptionSet, Sendable {
    public let rawValue: UInt8
    /// A picker of `rawValue`'s components.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The day, from a calendar.
    public static let date = DatePickerComponents(rawValue: 1)
    /// The hour and the minute.
    public static let hourAndMinute = DatePickerComponents(rawValue: 2)
}

/// The six weeks a month's calendar shows: from the week of its first day, each week starting
/// on the calendar's first weekday. Pure: tested without a window.
struct MonthGrid {
    /// The first day of the month shown.
    let month: Date
    /// The 42 days shown, row by row.
    let days: [Date]
    let calendar: Calendar

    init(showing date: Date, calendar: Calendar) {
        self.calendar = calendar
        let month = calendar.dateInterval(of: .month, for: date)?.start ?? calendar.startOfDay(for: date)
        self.month = month
        let weekday = calendar.component(.weekday, from: month)
        let lead = (weekday - calendar.firstWeekday + 7) % 7
        let first = calendar.date(byAdding: .day, value: -lead, to: month) ?? month
        days = (0..<42).map { calendar.date(byAdding: .day, value: $0, to: first) ?? first }
    }

    /// Whether `day` is in the month shown (not a neighbour's day filling a week).
    func isInMonth(_ day: Date) -> Bool { calendar.isDate(day, equalTo: month, toGranularity: .month) }

    /// The weekday names over the columns, starting on the first weekday.
    var weekdaySymbols: [String] {
        let symbols = calendar.shortStandaloneWeekdaySymbols
        guard symbols.count == 7 else { return Array(repeating: "", count: 7) }
        return (0..<7).map { symbols[(calendar.firstWeekday - 1 + $0) % 7] }
    }
}

/// An open date picker's calendar: the month shown and the day the keyboard is on.
struct DatePickerState {
    var month: Date?
    var cursor: Date?
}

/// The formatters of a picker's labels, made once per locale.
@MainActor
final class DateLabelFormatters {
    let date = DateFormatter()
    let time = DateFormatter()
    let month = DateFormatter()
    let spoken = DateFormatter()
    init(calendar: Calendar) {
        for formatter in [date, time, month, spoken] {
            formatter.calendar = calendar
            formatter.locale = calendar.locale
            formatter.timeZone = calendar.timeZone
        }
        date.dateStyle = .medium
        date.timeStyle = .none
        time.setLocalizedDateFormatFromTemplate("jm")
        month.setLocalizedDateFormatFromTemplate("MMMMy")
        spoken.dateStyle = .full
        spoken.timeStyle = .none
    }

    private var shown: (date: Date, labels: (date: String, time: String))?

    /// The button labels of `date`, formatted again only when it changes (a format costs a
    /// few microseconds; the picker is built every frame).
    func labels(for date: Date) -> (date: String, time: String) {
        if let shown, shown.date == date { return shown.labels }
        let labels = (self.date.string(from: date), time.string(from: date))
        shown = (date, labels)
        return labels
    }
}

extension UI {
    /// A date picker (SwiftUI's `DatePicker`): the date, the time, or both, each a button
    /// showing it in the user's locale. The date's opens a calendar in a popover: weeks start
    /// on `calendar`'s first weekday (the desktop locale's, `DesktopLocale`), ‹ and › change
    /// the month; the arrows move the day, Page Up and Page Down the month, Return or a click
    /// picks it. The time's opens steppers for the hour and the minute. Days outside `range`
    /// cannot be picked. Returns true on frames where `selection` changed.
    ///
    /// ```swift
    /// ui.datePicker("Taken", selection: Binding(self, \.taken), displayedComponents: [.date, .hourAndMinute])
    /// ```
    @discardableResult
    public func datePicker(
        _ title: String, selection: Binding<Date>, in range: ClosedRange<Date>? = nil,
        displayedComponents: DatePickerComponents = [.date, .hourAndMinute], calendar: Calendar? = nil
    ) -> Bool {
        let calendar = calendar ?? desktopCalendar
        let formatters = stateBox(
            WidgetID(parent: id(title), "formatters." + (calendar.locale?.identifier ?? "")),
            DateLabelFormatters(calendar: calendar)
        ).value
        let before = selection.wrappedValue
        let labels = formatters.labels(for: before)
        let clamp = { (date: Date) in range.map { min(max(date, $0.lowerBound), $0.upperBound) } ?? date }
        let row = { [self] in
            if displayedComponents.contains(.date) {
                // Each opening starts at the selection's month and day.
                if !isPopupOpen(title + ".calendar") {
                    stateBox(id("calendar.state"), DatePickerState()).value = DatePickerState()
                }
                if let below = datePickerButton(labels.date, name: title, id: "date", icon: .chevronDown) {
                    openPopup(title + ".calendar", at: below)
                }
                let calendarState = stateBox(id("calendar.state"), DatePickerState())
                popup(title + ".calendar") {
                    calendarPopover(
                        calendarState, selection: selection, range: range, calendar: calendar, formatters: formatters)
                }
            }
            if displayedComponents.contains(.hourAndMinute) {
                if let below = datePickerButton(labels.time, name: title, id: "time", icon: nil) {
                    openPopup(title + ".time", at: below)
                }
                popup(title + ".time") {
                    var hour = calendar.component(.hour, from: selection.wrappedValue)
                    var minute = calendar.component(.minute, from: selection.wrappedValue)
                    let changedHour = stepper("Hour: \(hour)", value: &hour, in: 0...23, id: "hour")
                    let changedMinute = stepper(
                        "Minute: \(minute < 10 ? "0" : "")\(minute)", value: &minute, in: 0...59, id: "minute")
                    if changedHour || changedMinute,
                        let date = calendar.date(
                            bySettingHour: hour, minute: minute, second: 0, of: selection.wrappedValue)
                    {
                        selection.wrappedValue = clamp(date)
                    }
                }
            }
        }
        withID(id(title)) {
            if formStack.last != nil, let column = formRow(title, height: theme.controlHeight) {
                region(column) { hstack(spacing: 6, row) }
            } else {
                hstack(spacing: 6) {
                    text(title)
                    row()
                }
            }
        }
        return selection.wrappedValue != before
    }

    /// The desktop locale's calendar, made once.
    private var desktopCalendar: Calendar {
        stateBox(WidgetID(parent: .root, "desktopCalendar"), DesktopLocale.calendar()).value
    }

    /// A button showing a date or time; a screen reader reads it as a combo box with the value.
    /// Returns where its popover opens (under it) when it was clicked.
    private func datePickerButton(_ label: String, name: String, id key: String, icon: Icon?) -> Point? {
        let width = font.measure(label) + 24 + (icon == nil ? 0 : 18)
        let rect = allocate(Size(width, theme.controlHeight))
        let r = interact(id(key), rect: rect, sense: [.click, .focus, .activate])
        drawList.addRoundedRect(
            rect, radius: theme.cornerRadius, color: r.isHovered ? theme.controlHovered : theme.control)
        font.draw(
            label, in: Rect(x: rect.x + 12, y: rect.y, width: rect.width - 24, height: rect.height), color: theme.text,
            into: &drawList)
        if let icon {
            drawIcon(
                icon, in: Rect(x: rect.maxX - 24, y: rect.midY - 6, width: 12, height: 12), color: theme.secondaryText)
        }
        accessibilityElement(
            r.id, role: .comboBox, name: name, frame: rect, states: controlStates(), actions: [.click], value: label)
        return r.clicked ? Point(rect.minX, rect.maxY + 2) : nil
    }

    /// The month's calendar in the open popover, and its keys.
    private func calendarPopover(
        _ box: StateBox<DatePickerState>, selection: Binding<Date>, range: ClosedRange<Date>?, calendar: Calendar,
        formatters: DateLabelFormatters
    ) {
        let selected = selection.wrappedValue
        var cursor = box.value.cursor ?? selected
        var month = box.value.month ?? selected
        let allowed = { (day: Date) in
            guard let range else { return true }
            let start = calendar.startOfDay(for: day)
            return start <= range.upperBound
                && (calendar.date(byAdding: .day, value: 1, to: start) ?? start) > range.lowerBound
        }
        var picked = calendarKeys(cursor: &cursor, month: &month, calendar: calendar, allowed: allowed)
        let grid = MonthGrid(showing: month, calendar: calendar)
        let cell = Size(34, 28)
        hstack(spacing: 4) {
            if button("", icon: .chevronLeft, style: .plain, id: "previousMonth") {
                month = calendar.date(byAdding: .month, value: -1, to: grid.month) ?? month
            }
            let label = formatters.month.string(from: grid.month)
            font(size: theme.fontSize, weight: .bold).draw(
                label, in: allocate(Size(7 * cell.width - 72, theme.controlHeight)),
                alignment: .center, color: theme.text, into: &drawList)
            if button("", icon: .chevronRight, style: .plain, id: "nextMonth") {
                month = calendar.date(byAdding: .month, value: 1, to: grid.month) ?? month
            }
        }
        if let clicked = calendarDays(
            grid, cell: cell, selected: selected, cursor: cursor, calendar: calendar, formatters: formatters,
            allowed: allowed)
        {
            picked = clicked
        }
        box.value = DatePickerState(month: month, cursor: cursor)
        guard let picked else { return }
        // The day picked, at the time of day the selection had.
        let time = calendar.dateComponents([.hour, .minute, .second], from: selected)
        var date =
            calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, of: picked)
            ?? picked
        if let range { date = min(max(date, range.lowerBound), range.upperBound) }
        selection.wrappedValue = date
        box.value = DatePickerState()
        closePopups()
    }

    /// The calendar's keys: the arrows move the cursor by a day or a week, Page Up and Page
    /// Down by a month (the month shown follows), Return and Space pick the cursor's day.
    /// Returns the day picked, if any.
    private func calendarKeys(cursor: inout Date, month: inout Date, calendar: Calendar, allowed: (Date) -> Bool)
        -> Date?
    {
        var picked: Date?
        for press in input.keys {
            var step: (Calendar.Component, Int)?
            switch press.key {
            case .left: step = (.day, -1)
            case .right: step = (.day, 1)
            case .up: step = (.day, -7)
            case .down: step = (.day, 7)
            case .pageUp: step = (.month, -1)
            case .pageDown: step = (.month, 1)
            case .returnKey, .space: if allowed(cursor) { picked = cursor }
            default: continue
            }
            consumeKey(press.key)
            if let (unit, value) = step, let moved = calendar.date(byAdding: unit, value: value, to: cursor) {
                cursor = moved
                month = moved
            }
        }
        return picked
    }

    /// The weekday names and the six weeks of days: the selected day filled, the cursor's
    /// ringed, today in the accent, days outside the range dimmed. Returns the day clicked.
    private func calendarDays(
        _ grid: MonthGrid, cell: Size, selected: Date, cursor: Date, calendar: Calendar,
        formatters: DateLabelFormatters, allowed: (Date) -> Bool
    ) -> Date? {
        let small = font(size: theme.fontSize - 2)
        let header = allocate(Size(7 * cell.width, 18))
        for (i, symbol) in grid.weekdaySymbols.enumerated() {
            small.draw(
                symbol,
                in: Rect(x: header.x + Double(i) * cell.width, y: header.y, width: cell.width, height: header.height),
                alignment: .center, color: theme.secondaryText, into: &drawList)
        }
        let body = allocate(Size(7 * cell.width, 6 * cell.height))
        let today = Date()
        var picked: Date?
        for (i, day) in grid.days.enumerated() {
            let rect = Rect(
                x: body.x + Double(i % 7) * cell.width, y: body.y + Double(i / 7) * cell.height, width: cell.width,
                height: cell.height)
            let r = interact(WidgetID(parent: id("day"), index: i), rect: rect, sense: .click)
            let enabled = allowed(day)
            let isSelected = calendar.isDate(day, inSameDayAs: selected)
            let circle = rect.insetBy(dx: (cell.width - 26) / 2, dy: 1)
            if isSelected {
                drawList.addRoundedRect(circle, radius: 13, color: theme.accent)
            } else if r.isHovered && enabled {
                drawList.addRoundedRect(circle, radius: 13, color: theme.controlHovered)
            }
            if calendar.isDate(day, inSameDayAs: cursor) && !isSelected {
                drawList.addRectBorder(circle, radius: 13, color: theme.accent, thickness: 1.5)
            }
            let color =
                isSelected
                ? theme.onAccent
                : !enabled
                    ? theme.secondaryText.opacity(0.4)
                    : grid.isInMonth(day)
                        ? (calendar.isDate(day, inSameDayAs: today) ? theme.accent : theme.text) : theme.secondaryText
            font.draw(
                String(calendar.component(.day, from: day)), in: rect, alignment: .center, color: color, into: &drawList
            )
            if isAccessibilityEnabled {
                accessibilityElement(
                    r.id, role: .pushButton, name: formatters.spoken.string(from: day), frame: rect,
                    states: AccessibilityStates(enabled ? [.enabled, .sensitive, .selectable] : [.selectable])
                        .union(isSelected ? .selected : []), actions: enabled ? [.click] : [])
            }
            if r.clicked && enabled { picked = day }
        }
        return picked
    }
}
