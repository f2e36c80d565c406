import Render2D
import Imaging
import Profiling

extension UI {
    /// The header's context menu: the customizable columns with checkmarks, to hide or show each.
    @usableFromInline
    func columnsMenu<Row>(
        declared: [TableColumn<Row>], customization: Binding<TableColumnCustomization<Row>>, opening: Bool
    ) {
        if opening { openPopup("columns") }
        popup("columns") {
            let customizable = declared.filter { $0.customizationID != nil }
            let shownCount = customizable.filter { customization.wrappedValue.isVisible($0) }.count
            for column in customizable {
                let isShown = customization.wrappedValue.isVisible(column)
                // The last shown column stays: a table needs one.
                if menuItem(column.title, icon: isShown ? .checkmark : nil), !(isShown && shownCount == 1) {
                    customization.wrappedValue[visibility: column.customizationID!] = isShown ? .hidden : .visible
                }
            }
        }
    }
}
