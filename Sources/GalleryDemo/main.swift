// GalleryDemo: Tessera's showcase photo browser and frame-time profiling tool. Everything it
// does is in GalleryKit; this is only the process's entry point.
import GalleryKit

GalleryCommand.main()
