import CSDL2
import Render2D
import Imaging
import Profiling

/// Raw SDL events that `EventInjector` does not produce on purpose (for example the mouse
/// events SDL synthesizes from touch, which Tessera must ignore).
public struct RawEvent {
    var event = SDL_Event()

    /// A left-button event as SDL synthesizes it from a touch (`which == SDL_TOUCH_MOUSEID`).
    public static func touchMouse(down: Bool, at p: Point) -> RawEvent {
        var b = RawEvent()
        b.event.button.type = down ? SDL_MOUSEBUTTONDOWN.rawValue : SDL_MOUSEBUTTONUP.rawValue
        b.event.button.which = tessera_touch_mouse_id()
        b.event.button.button = 1
        b.event.button.state = UInt8(down ? SDL_PRESSED : SDL_RELEASED)
        b.event.button.x = Int32(p.x)
        b.event.button.y = Int32(p.y)
        return b
    }

    /// Pushes the event onto SDL's queue.
    public mutating func push() -> Bool { SDL_PushEvent(&event) >= 0 }
}
