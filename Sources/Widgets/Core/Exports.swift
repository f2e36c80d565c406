// `import Widgets` is all an app needs: the geometry (`Point`, `Rect`, `Size`, `Color`), the
// images, fonts and drawing, the profiler and the threading helpers (`Locked`, `FrameWaker`)
// come from Render2D, which Widgets is built on and hands on to its importers.
@_exported import Render2D
@_exported import Imaging
@_exported import Profiling
