// Fuzz target: launch.json (FolioLaunch's LaunchScene.parse). Banner files resolve against an empty folder.
import FolioLaunch
import Foundation

let launchBase = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("folio-fuzz-launch-\(getpid())")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLaunch(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = try? LaunchScene.parse(json: data, file: "launch.json", baseDirectory: launchBase)
    return 0
}
