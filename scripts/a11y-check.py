#!/usr/bin/python3
"""Checks the running GalleryDemo from outside, as a screen reader sees it: an independent
AT-SPI client (pyatspi) walks its tree and acts through the AT-SPI interfaces.

usage: a11y-check.py WINDOW-TITLE   (run inside scripts/a11y-check.sh's private session)
Exits 0 when every check passes, 1 on the first that fails (saying which), 3 when the app
never registered."""
import subprocess, sys, time
import pyatspi
from gi.repository import GLib

TITLE = sys.argv[1]
PAGES = ["Photos", "Controls", "Split panes", "Navigation split", "Table", "Lists & outlines", "Input"]


def fail(message):
    print("FAIL:", message, flush=True)
    sys.exit(1)


def ok(message):
    print("ok:", message, flush=True)


def wait_for(what, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = what()
        except Exception:  # the tree changes under us between frames: ask again
            value = None
        if value:
            return value
        time.sleep(0.2)
    return None


def nodes(root, limit=20000):
    """Breadth first, at most `limit` nodes (a table hands out only the rows it built)."""
    queue, seen = [root], 0
    while queue and seen < limit:
        node = queue.pop(0)
        seen += 1
        yield node
        try:
            queue.extend(node.getChildAtIndex(i) for i in range(node.childCount))
        except Exception:
            pass


def find(root, role, name=None):
    for node in nodes(root):
        try:
            if node.getRole() == role and (name is None or node.name == name):
                return node
        except Exception:
            continue
    return None


def app():
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        candidate = desktop.getChildAtIndex(i)
        if candidate is not None and candidate.name == TITLE:
            return candidate
    return None


def listen(events, during, seconds=3.0):
    """Runs the event loop for `seconds`, calling `during` once it runs; returns the events seen."""
    seen = []
    def record(event):
        seen.append((event.type, event.source.name if event.source else "", event.detail1))
    for kind in events:
        pyatspi.Registry.registerEventListener(record, kind)
    GLib.timeout_add(300, lambda: (during(), False)[1])
    GLib.timeout_add(int(seconds * 1000), lambda: (pyatspi.Registry.stop(), False)[1])
    pyatspi.Registry.start()
    for kind in events:
        pyatspi.Registry.deregisterEventListener(record, kind)
    return seen


def xdotool(*args):
    subprocess.run(["xdotool", *args], check=True)


application = wait_for(app, 40)
if not application:
    print("the app never registered; apps:", [a.name for a in pyatspi.Registry.getDesktop(0) if a])
    sys.exit(3)
ok(f"the app is registered as '{application.name}'")
frame = application.getChildAtIndex(0)
if frame.getRole() != pyatspi.ROLE_FRAME or frame.name != TITLE:
    fail(f"the app's child is a {frame.getRoleName()} named '{frame.name}', not the frame '{TITLE}'")
ok("its frame is named after the window")

def names_of(root, role):
    """The names of the nodes with `role`, skipping a node that left the tree while we walked it."""
    names = set()
    for node in nodes(root):
        try:
            if node.getRole() == role:
                names.add(node.name)
        except Exception:  # the frame that built it has gone: the next frame's tree is asked next
            continue
    return names


# The first frames may still be on their way to the bridge on a busy machine: wait for them.
wait_for(lambda: all(p in names_of(frame, pyatspi.ROLE_PUSH_BUTTON) for p in PAGES))
buttons = names_of(frame, pyatspi.ROLE_PUSH_BUTTON)
missing = [p for p in PAGES if p not in buttons]
if missing:
    fail(f"no push buttons for the pages {missing}; buttons: {sorted(buttons)}")
ok(f"the {len(PAGES)} page controls are push buttons with names")

field = find(frame, pyatspi.ROLE_ENTRY)
if not field:
    fail("no entry on the photos page")
field.queryEditableText().setTextContents("a11y")
typed = wait_for(lambda: field.queryText().getText(0, -1) == "a11y")
if not typed:
    fail(f"EditableText did not set the field's text (it reads '{field.queryText().getText(0, -1)}')")
ok(f"the entry '{field.name}' is editable through EditableText")
field.queryEditableText().setTextContents("")

table_button = find(frame, pyatspi.ROLE_PUSH_BUTTON, "Table")
action = table_button.queryAction()
if action.nActions < 1 or action.getName(0) != "click":
    fail("the Table button has no click action")
action.doAction(0)
table = wait_for(lambda: find(frame, pyatspi.ROLE_TABLE))
if not table:
    fail("activating 'Table' through Action did not show a table")
rows = table.queryTable().nRows
if rows != 100000:
    fail(f"the table reports {rows} rows, not 100000")
ok(f"Action on 'Table' shows the table page; its table reports {rows} rows and {table.queryTable().nColumns} columns "
   f"through Table, with {table.childCount} children built")
# A cell not built is made at the next frame's request: ask again until it comes.
far = wait_for(lambda: (lambda cell: cell if cell is not None and cell.name else None)(table.queryTable().getAccessibleAt(54321, 0)))
if far is None or not far.name:
    fail("the table did not hand out a cell scrolled far out of view")
ok(f"a cell far out of view, made on demand: row 54321 is '{far.name}' ({far.getRoleName()})")

window = subprocess.run(["xdotool", "search", "--name", "^Tessera"], capture_output=True, text=True).stdout.split()
if not window:
    fail("xdotool found no window")
xdotool("windowfocus", "--sync", window[0])
focus_events = listen(["object:state-changed:focused", "focus:"], lambda: xdotool("key", "Tab"))
gained = [e for e in focus_events if e[0].startswith("object:state-changed:focused") and e[2] == 1]
if not gained:
    fail(f"Tab emitted no focus event (events: {focus_events})")
ok(f"Tab moved focus to '{gained[-1][1]}' and said so ({len(focus_events)} focus events)")

dark = find(frame, pyatspi.ROLE_CHECK_BOX, "Dark")
if not dark:
    fail("no 'Dark' check box")
was = dark.getState().contains(pyatspi.STATE_CHECKED)
x, y, w, h = dark.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
xdotool("mousemove", str(x + w - 10), str(y + h // 2), "click", "1")
flipped = wait_for(lambda: dark.getState().contains(pyatspi.STATE_CHECKED) != was)
if not flipped:
    fail(f"clicking the toggle at its extents ({x}, {y}, {w}×{h}) did not change its checked state")
ok(f"clicking the 'Dark' toggle at its screen extents turned checked {'off' if was else 'on'}")
print("all accessibility checks passed")
