import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Lists the sidebar's folder tree off the main thread. Each folder's subfolders, once listed,
/// are kept, so the outline reads them from memory; "expand all" (alt-click on a folder) lists
/// the folder's whole subtree here, level by level, at most `limit` folders, and the browser
/// opens what it found as it lands, showing how far it got.
///
/// ```swift
/// lister.expandAll(from: node)
/// // each frame:
/// if let opened = lister.takeOpened() { expanded.formUnion(opened) }
/// ```
final class FolderLister: Sendable {
    private struct State {
        var listed: [String: [FolderNode]] = [:]
        var opened: Set<SidebarItem> = []
        var listing = 0
        var running = false
        var queue: [FolderNode] = []
    }
    private let state = Locked(State())
    /// Folders one expand-all lists at most.
    let limit: Int

    init(limit: Int = 10_000) {
        self.limit = max(1, limit)
    }

    /// `node`'s subfolders: from memory when listed before, else listed now (one folder) and kept.
    func subfolders(of node: FolderNode) -> [FolderNode]? {
        if let known = state.withLock({ $0.listed[node.path] }) { return known.isEmpty ? nil : known }
        let found = node.subfolders
        state.withLock { $0.listed[node.path] = found ?? [] }
        return found
    }

    /// Lists `node`'s whole subtree in the background (`limit` folders at most), opening each
    /// folder with subfolders as it is listed.
    func expandAll(from node: FolderNode) {
        let start = state.withLock { s -> Bool in
            s.queue.append(node)
            s.listing = 0
            defer { s.running = true }
            return !s.running
        }
        // A thread while there is something to list: a closed window's lister leaves none behind.
        if start { Thread.start(named: "tessera-folders", nice: 10) { [self] in run() } }
    }

    /// The folders found to open since the last call (nil: none).
    func takeOpened() -> Set<SidebarItem>? {
        state.withLock { s in
            guard !s.opened.isEmpty else { return nil }
            defer { s.opened = [] }
            return s.opened
        }
    }

    /// "Listing folders… N" while an expand-all runs, else nil.
    var progress: String? {
        state.withLock { s in s.running ? "Listing folders… \(s.listing)" : nil }
    }

    /// The folder at `path` among those listed so far.
    func node(at path: String) -> FolderNode? {
        state.withLock { s in
            s.listed.values.lazy.flatMap { $0 }.first { $0.path == path }
        }
    }

    /// Forgets what was listed (folders changed on disk).
    func forget() { state.withLock { $0.listed.removeAll() } }

    private func run() {
        while true {
            guard
                let start = state.withLock({ s -> FolderNode? in
                    guard !s.queue.isEmpty else {
                        s.running = false
                        return nil
                    }
                    return s.queue.removeFirst()
                })
            else {
                FrameWaker.wake()
                return
            }
            var level = [start], count = 0
            while !level.isEmpty && count < limit {
                var next: [FolderNode] = []
                for node in level where count < limit {
                    count += 1
                    let known = state.withLock { $0.listed[node.path] }
                    let children = known ?? node.subfolders ?? []
                    state.withLock { s in
                        s.listed[node.path] = children
                        s.listing = count
                        if !children.isEmpty { s.opened.insert(node.id) }
                    }
                    next += children.filter { if case .readable = $0.status { true } else { false } }
                }
                level = next
                FrameWaker.wake()  // the browser opens this level
            }
        }
    }
}
