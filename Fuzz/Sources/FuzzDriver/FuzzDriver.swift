/// libFuzzer's entry point for a harness (`LLVMFuzzerRunDriver`, in the toolchain's fuzzer
/// runtime). SwiftPM links an executable target with `main` renamed to `<Target>_main`; each
/// target defines that function and hands control to libFuzzer here.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the process's arguments, calling `body` with each input.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, body)
}
