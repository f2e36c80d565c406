import CSDL2

/// GVariant values built and read from Swift: GLib's convenience constructors are variadic
/// (`g_variant_new("(so)", …)`), which Swift cannot call, so values are composed from the
/// typed constructors. Every value returned is floating: the GDBus call it is handed to owns it.
enum GValue {
    typealias Pointer = OpaquePointer

    static func string(_ v: String) -> Pointer { g_variant_new_string(v) }
    static func int32(_ v: Int) -> Pointer { g_variant_new_int32(Int32(clamping: v)) }
    static func uint32(_ v: UInt32) -> Pointer { g_variant_new_uint32(v) }
    static func int16(_ v: Int16) -> Pointer { g_variant_new_int16(v) }
    static func bool(_ v: Bool) -> Pointer { g_variant_new_boolean(v ? 1 : 0) }
    static func double(_ v: Double) -> Pointer { g_variant_new_double(v) }
    static func objectPath(_ v: String) -> Pointer { g_variant_new_object_path(v) }
    static func variant(_ v: Pointer) -> Pointer { g_variant_new_variant(v) }

    /// A tuple (a method's reply is one): `(items…)`.
    static func tuple(_ items: [Pointer]) -> Pointer {
        let optionals: [Pointer?] = items
        return optionals.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// An array of `elementType` (given, so an empty array has a type).
    static func array(_ elementType: VariantType, _ items: [Pointer]) -> Pointer {
        let optionals: [Pointer?] = items
        return optionals.withUnsafeBufferPointer {
            g_variant_new_array(elementType.pointer, $0.baseAddress, gsize($0.count))
        }
    }

    /// An AT-SPI object reference: the bus name and the object path, `(so)`.
    static func reference(_ bus: String, _ path: String) -> Pointer { tuple([string(bus), objectPath(path)]) }

    /// A string dictionary, `a{ss}`.
    static func stringDictionary(_ pairs: [(String, String)]) -> Pointer {
        array(.stringEntry, pairs.map { g_variant_new_dict_entry(string($0.0), string($0.1)) })
    }

    // MARK: Reading arguments

    /// Child `index` of a tuple of arguments as an Int32 (0 when it is not one).
    static func int(_ tuple: Pointer?, _ index: Int) -> Int {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return 0 }
        defer { g_variant_unref(child) }
        if g_variant_is_of_type(child, VariantType.int32.pointer) != 0 { return Int(g_variant_get_int32(child)) }
        if g_variant_is_of_type(child, VariantType.uint32.pointer) != 0 { return Int(g_variant_get_uint32(child)) }
        return 0
    }

    /// Child `index` of a tuple of arguments as a string ("" when it is not one).
    static func string(_ tuple: Pointer?, _ index: Int) -> String {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return "" }
        defer { g_variant_unref(child) }
        return stringValue(child) ?? ""
    }

    /// A string (or object path) variant's text.
    static func stringValue(_ value: Pointer?) -> String? {
        guard let value,
            g_variant_is_of_type(value, VariantType.string.pointer) != 0
                || g_variant_is_of_type(value, VariantType.objectPath.pointer) != 0,
            let raw = g_variant_get_string(value, nil)
        else { return nil }
        return String(cString: raw)
    }

    /// A boolean inside a variant (`v` holding `b`), as properties arrive.
    static func boxedBool(_ value: Pointer?) -> Bool? {
        guard let value else { return nil }
        let inner =
            g_variant_is_of_type(value, VariantType.variant.pointer) != 0
            ? g_variant_get_variant(value) : g_variant_ref(value)
        defer { g_variant_unref(inner) }
        guard g_variant_is_of_type(inner, VariantType.bool.pointer) != 0 else { return nil }
        return g_variant_get_boolean(inner) != 0
    }

    /// A double inside a variant.
    static func boxedDouble(_ value: Pointer?) -> Double? {
        guard let value else { return nil }
        let inner =
            g_variant_is_of_type(value, VariantType.variant.pointer) != 0
            ? g_variant_get_variant(value) : g_variant_ref(value)
        defer { g_variant_unref(inner) }
        guard g_variant_is_of_type(inner, VariantType.double.pointer) != 0 else { return nil }
        return g_variant_get_double(inner)
    }
}

/// A GVariant type, parsed once and kept for the process's life.
struct VariantType: @unchecked Sendable {  // an immutable GLib value, never freed
    let pointer: OpaquePointer
    init(_ text: String) { pointer = g_variant_type_new(text) }

    static let int32 = VariantType("i"), uint32 = VariantType("u"), bool = VariantType("b"), double = VariantType("d")
    static let string = VariantType("s"), objectPath = VariantType("o"), variant = VariantType("v")
    static let reference = VariantType("(so)"), stringEntry = VariantType("{ss}"), propertyEntry = VariantType("{sv}")
    static let actionEntry = VariantType("(sss)"), relation = VariantType("(ua(so))")
    static let cacheItem = VariantType("((so)(so)(so)iiassusau)")
}
