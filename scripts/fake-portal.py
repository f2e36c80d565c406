#!/usr/bin/python3
"""A stand-in for xdg-desktop-portal's FileChooser, for Tessera's tests.

Usage: fake-portal.py BUS_ADDRESS ANSWER...

It owns org.freedesktop.portal.Desktop on the bus at BUS_ADDRESS, prints "ready", and answers
the OpenFile and SaveFile requests it gets, in order, with the ANSWERs: "choose:PATH" (the user
chose PATH; for SaveFile, PATH is a folder and the suggested name is added), "cancel" (the user
closed the dialog). Each request's options are printed as one JSON line, for the test to check.
It exits after the last answer. Debian: python3-gi.
"""
import json
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

INTERFACE = """
<node>
  <interface name="org.freedesktop.portal.FileChooser">
    <method name="OpenFile">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="s" name="title" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
    <method name="SaveFile">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="s" name="title" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
  </interface>
</node>
"""

address, answers = sys.argv[1], sys.argv[2:]
loop = GLib.MainLoop()
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)


def respond(path, answer, method, options):
    if answer.startswith("choose:"):
        chosen = answer[len("choose:"):]
        if method == "SaveFile":
            chosen = chosen.rstrip("/") + "/" + options.get("current_name", "untitled")
        results = GLib.Variant("(ua{sv})", (0, {"uris": GLib.Variant("as", [Gio.File.new_for_path(chosen).get_uri()])}))
    else:
        results = GLib.Variant("(ua{sv})", (1, {}))
    bus.emit_signal(None, path, "org.freedesktop.portal.Request", "Response", results)
    if not answers:
        GLib.timeout_add(200, loop.quit)
    return False


def on_call(connection, sender, path, interface, method, parameters, invocation):
    _, title, options = parameters.unpack()
    print(json.dumps({"method": method, "title": title, "options": options}), flush=True)
    token = options.get("handle_token", "t")
    handle = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), token)
    invocation.return_value(GLib.Variant("(o)", (handle,)))
    answer = answers.pop(0) if answers else "cancel"
    GLib.timeout_add(50, respond, handle, answer, method, options)


node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
bus.register_object("/org/freedesktop/portal/desktop", node.interfaces[0], on_call, None, None)


def owned(*_):
    print("ready", flush=True)


Gio.bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE, owned, None)
loop.run()
