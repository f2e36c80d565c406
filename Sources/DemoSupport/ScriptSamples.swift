/// Words in several scripts for the demo's generated names and labels: Latin, Greek,
/// Cyrillic, Arabic, Hebrew, Devanagari, Thai, CJK and emoji, so shaping, right-to-left
/// order and fallback fonts show everywhere the demo shows text.
package enum ScriptSamples {
    /// Syllables per script (`bench text --scripts mixed`, the table page's names).
    package static let syllables: [[String]] = [
        ["ka", "lo", "mi", "ren", "sa", "tor", "fi", "gul"],
        ["κα", "λο", "μι", "ρεν", "σα", "τορ"],
        ["ка", "ло", "ми", "рен", "са", "тор"],
        ["سا", "لو", "مي", "رن", "كا", "تور"],
        ["שָׁ", "לו", "מי", "רן", "כה", "תו"],
        ["क्ष", "लो", "मि", "रे", "सा", "तो"],
        ["กา", "โล", "มิ", "เรน", "สา", "ตอ"],
        ["写", "真", "本", "画", "山", "川"],
        ["📷", "🌅", "🇯🇵", "👍🏽", "✨", "🐱"],
    ]

    /// "Photo" in several scripts, for sample file names (empty: none).
    package static let photoWords = ["", "", "", "", "写真", "صورة", "תמונה", "फ़ोटो", "ภาพถ่าย", "фото"]
}
