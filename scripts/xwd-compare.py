#!/usr/bin/env python3
"""Compares two X window dumps (xwd, 24/32-bit TrueColor ZPixmap, as Xvfb writes them) and
prints how many pixels differ and where: `xwd-compare.py A.xwd B.xwd`. Exits 1 when they differ,
2 when a file is not such a dump. Standard library only."""
import struct, sys


def pixels(path):
    data = open(path, "rb").read()
    if len(data) < 100:
        sys.exit(f"{path}: not an xwd dump")
    fields = struct.unpack(">25I", data[:100])
    header_size, fmt, depth, width, height = fields[0], fields[2], fields[3], fields[4], fields[5]
    bits_per_pixel, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
    if fmt != 2 or bits_per_pixel != 32 or depth not in (24, 32):
        print(f"{path}: format {fmt}, depth {depth}, {bits_per_pixel} bits a pixel: not supported", file=sys.stderr)
        sys.exit(2)
    start = header_size + 12 * ncolors
    if len(data) < start + bytes_per_line * height:
        print(f"{path}: truncated", file=sys.stderr)
        sys.exit(2)
    rows = [data[start + y * bytes_per_line:start + y * bytes_per_line + 4 * width] for y in range(height)]
    return width, height, rows


(wa, ha, a), (wb, hb, b) = pixels(sys.argv[1]), pixels(sys.argv[2])
if (wa, ha) != (wb, hb):
    print(f"sizes differ: {wa}x{ha} and {wb}x{hb}")
    sys.exit(1)
count, box = 0, None
for y in range(ha):
    if a[y] == b[y]:
        continue
    for x in range(wa):
        if a[y][4 * x:4 * x + 3] != b[y][4 * x:4 * x + 3]:
            count += 1
            box = (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)) if box else (x, y, x, y)
print(f"{count} pixels differ" + (f", within {box}" if box else ""))
sys.exit(1 if count else 0)
