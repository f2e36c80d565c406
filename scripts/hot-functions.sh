#!/bin/sh
# Writes Sources/GalleryDemo/hot-functions.order: the functions of the release GalleryDemo
# that its start-up, its pages and its bench scenes run, one symbol a line, those most runs
# share first. The release link (Package.swift) hands it to lld's --symbol-ordering-file,
# which lays them out together at the start of .text, so a run keeps fewer pages of code
# resident: each page fault maps the 64 KB around it. (Only functions in sections of their
# own move: much of Swift's code sits in one .text section per object file, which moves
# whole.) Names that a later change renames are ignored by the link, and the file can be
# written again at any time: nothing but the layout depends on it.
#
# Needs valgrind (callgrind counts every function run, where sampling would miss the rarely
# run ones that still fault a page in). Takes about 15 minutes.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "hot-functions: needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
cd "$here"
swift build -c release --product GalleryDemo >/dev/null
# Valgrind 3.19 cannot read the DWARF 5 that Swift writes: a copy without it keeps the symbols.
objcopy --strip-debug .build/release/GalleryDemo "$work/GalleryDemo"
cp -r .build/release/*.resources "$work/" 2>/dev/null || true
export HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
mkdir -p "$HOME"
run() {
    name=$1
    shift
    valgrind --tool=callgrind --demangle=no --dump-instr=no --collect-jumps=no \
        --callgrind-out-file="$work/$name.out" "$work/GalleryDemo" "$@" >/dev/null 2>"$work/$name.log" ||
        { echo "hot-functions: $name failed, see its log:" >&2; tail -5 "$work/$name.log" >&2; exit 1; }
    echo "hot-functions: $name" >&2
}
run startup --offscreen --report-startup
for page in controls splits navigation table outline input; do
    run "$page" --offscreen --page "$page" --tour --frames 40
done
run table-bench bench table --frames 20
run text-bench bench text --frames 20
run outline-bench bench outline --frames 20
# The gallery's photos are made beforehand, at full speed: not the function list's business.
"$work/GalleryDemo" generate-samples "$work/photos" --count 300 --camera >/dev/null 2>"$work/photos.log"
run gallery-bench bench gallery --frames 60 --images "$work/photos"
python3 - "$work"/*.out >"$work/hot-functions.order" <<'EOF'
import re, sys
# Each function's cost in each run; those run by more of the runs go first (the frame loop,
# start-up), then each run's own, so that any one run touches as few pages as it can.
runs = []
for path in sys.argv[1:]:
    cost = {}
    names = {"ob": {}, "fn": {}}
    current_ob = current_fn = None
    after_call = False
    for line in open(path, errors="replace"):
        if line.startswith(("ob=", "fn=", "cob=", "cfn=")):
            key, _, rest = line.rstrip("\n").partition("=")
            table = names["ob" if key.endswith("ob") else "fn"]
            m = re.match(r"\((\d+)\)(?: (.*))?$", rest)
            name = (table.setdefault(m.group(1), m.group(2)) if m.group(2) else table.get(m.group(1))) if m else rest
            if key == "ob":
                current_ob = name
            elif key == "fn":
                current_fn, after_call = name, False
        elif line.startswith("calls="):
            after_call = True  # the next cost line is the call's inclusive cost, not the function's own
        elif line[:1].isdigit() or line[:1] in "+-":
            if after_call:
                after_call = False
            elif current_ob and current_ob.endswith("/GalleryDemo") and current_fn:
                fields = line.split()
                if len(fields) >= 2 and fields[1].isdigit():
                    name = re.sub(r"'\d+$", "", current_fn)  # callgrind's recursion depth
                    cost[name] = cost.get(name, 0) + int(fields[1])
    runs.append(cost)
key = {}
for index, cost in enumerate(runs):
    for name, c in cost.items():
        count, first, total = key.get(name, (0, index, 0))
        key[name] = (count + 1, first, total + c)
for name in sorted(key, key=lambda n: (-key[n][0], key[n][1], -key[n][2], n)):
    if not name.startswith("0x"):
        print(name)
EOF
mv "$work/hot-functions.order" Sources/GalleryDemo/hot-functions.order
rm -f .build/release/GalleryDemo  # SwiftPM does not see the list change: the next build links again
echo "hot-functions: $(wc -l <Sources/GalleryDemo/hot-functions.order) functions in Sources/GalleryDemo/hot-functions.order" >&2
