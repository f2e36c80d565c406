import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// A folder's photo metadata on disk: `.tessera.json` holds all of it (favorites only live
/// there), and each photo's XMP sidecar (`XMPSidecar`) is the record other programs read and
/// write: read over the JSON when a folder is listed, written for each photo whose rating,
/// label, pick or tags change. A rating only `.tessera.json` had is carried into XMP with the
/// photo's next change.
///
/// ```swift
/// var sidecar = FolderSidecar.load(folder: folder)
/// PhotoSidecars.overlayXMP(&sidecar, folder: folder, photos: names, xmpNames: listedXMP)
/// ```
enum PhotoSidecars {
    /// Lays the folder's XMP sidecars over `sidecar` (XMP wins): for each of `photos` with a
    /// sidecar among `xmpNames` (the folder's `.xmp` files). One that cannot be read is noted
    /// in `unreadableXMP` and never written over.
    static func overlayXMP(_ sidecar: inout FolderSidecar, folder: String, photos: [String], xmpNames: Set<String>) {
        guard !xmpNames.isEmpty else { return }
        for name in photos {
            let photo = folder + "/" + name
            guard
                XMPSidecar.candidates(for: photo).contains(where: {
                    xmpNames.contains(String($0.dropFirst(folder.count + 1)))
                })
            else { continue }
            do throws(XMPSidecar.Failure) {
                guard let xmp = try XMPSidecar.read(for: photo) else { continue }
                apply(xmp, to: &sidecar, name: name)
                // turned in its sidecar
                if let orientation = xmp.orientation { OrientationOverrides.shared.set(orientation, for: photo) }
                sidecar.readElsewhere.insert(name)
            } catch {
                sidecar.unreadableXMP.insert(name)
                Log.warn("\(error): its rating is not written there")
            }
        }
    }

    /// Lays the marks of the XMP embedded in photo `name` (at `path`) into `sidecar`, when
    /// neither the sidecar nor an XMP sidecar file says anything of it (those are the record:
    /// what is embedded is what the photo came with). Returns whether it did.
    static func applyEmbedded(_ marks: EmbeddedMarks, to sidecar: inout FolderSidecar, name: String, path: String)
        -> Bool
    {
        guard !marks.isEmpty, sidecar.entry(for: name) == FolderSidecar.Entry(),
            !XMPSidecar.candidates(for: path).contains(where: XMPSidecar.exists)
        else { return false }
        sidecar.set(
            FolderSidecar.Entry(
                rating: marks.rating, label: marks.label.flatMap { ColorLabel(rawValue: $0)?.rawValue },
                flag: marks.flag), for: name)
        sidecar.readElsewhere.insert(name)
        return true
    }

    /// The XMP values of photo `name` in `sidecar`.
    static func xmp(of name: String, in sidecar: FolderSidecar) -> PhotoXMP {
        PhotoXMP(
            rating: sidecar.ratings[name] ?? 0, label: sidecar.labels[name].flatMap(ColorLabel.init(rawValue:)),
            flag: sidecar.flags[name].flatMap(PickFlag.init(rawValue:)),
            tags: (sidecar.tags[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty })
    }

    /// Sets photo `name`'s values in `sidecar` to `xmp`'s.
    static func apply(_ xmp: PhotoXMP, to sidecar: inout FolderSidecar, name: String) {
        sidecar.ratings[name] = xmp.rating > 0 ? xmp.rating : nil
        sidecar.labels[name] = xmp.label?.rawValue
        sidecar.flags[name] = xmp.flag?.rawValue
        sidecar.tags[name] = xmp.tags.isEmpty ? nil : xmp.tags.joined(separator: ", ")
    }

    /// Saves `current` (our edits since `base`) into `.tessera.json` (`FolderSidecar.save`,
    /// merged under the folder's lock), then writes the XMP sidecar of each photo whose values
    /// changed. Returns what `.tessera.json` holds now (nil: try again). A sidecar that cannot
    /// be written is logged; the JSON keeps the value.
    static func save(folder: String, current: FolderSidecar, base: FolderSidecar) -> FolderSidecar? {
        guard let written = current.save(folder: folder, base: base) else { return nil }
        let names = Set(base.ratings.keys).union(current.ratings.keys).union(base.labels.keys).union(
            current.labels.keys
        )
        .union(base.flags.keys).union(current.flags.keys).union(base.tags.keys).union(current.tags.keys)
        // (Not for a photo gone from the folder, renamed or trashed: its sidecar went with it.)
        for name in names.sorted() where !current.unreadableXMP.contains(name) && XMPSidecar.exists(folder + "/" + name)
        {
            let ours = xmp(of: name, in: current)
            guard ours != xmp(of: name, in: base) else { continue }
            do throws(XMPSidecar.Failure) { try XMPSidecar.write(ours, for: folder + "/" + name) } catch {
                Log.warn("\(error)")
            }
        }
        return written
    }
}

extension Photo {
    /// Its label and flag in words ("Green, picked"; "" for neither), as the table shows them.
    var marks: String {
        [label?.rawValue, flag.map { $0 == .picked ? "picked" : "rejected" }].compactMap { $0 }.joined(separator: ", ")
    }

    /// Takes its rating, favorite, label and flag from its folder's `sidecar`.
    mutating func read(from sidecar: FolderSidecar) {
        rating = sidecar.ratings[name] ?? 0  // 0...5: the sidecar clamps what it reads
        isFavorite = sidecar.favorites.contains(name)
        label = sidecar.labels[name].flatMap(ColorLabel.init(rawValue:))
        flag = sidecar.flags[name].flatMap(PickFlag.init(rawValue:))
    }

    /// Puts its rating, favorite, label and flag into its folder's `sidecar`.
    func write(into sidecar: inout FolderSidecar) {
        sidecar.ratings[name] = rating == 0 ? nil : rating
        if isFavorite { sidecar.favorites.insert(name) } else { sidecar.favorites.remove(name) }
        sidecar.labels[name] = label?.rawValue
        sidecar.flags[name] = flag?.rawValue
    }
}
