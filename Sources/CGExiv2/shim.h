// gexiv2, the GObject wrapper of exiv2 (as Shotwell and GIMP use it): the photo browser reads
// and writes XMP sidecars through it.
#include <gexiv2/gexiv2.h>
