#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Renders a .grc flowgraph to PNG with GNU Radio Companion's own screen
capture (File > Screen Capture), without a desktop: GRC runs, opens the
flowgraph, writes the picture and quits. Needs a display: run it under
xvfb-run (Debian: apt-get install xvfb gir1.2-gtk-3.0 python3-gi-cairo).

    GRC_BLOCKS_PATH=grc xvfb-run -a /usr/bin/python3 scripts/grc-screenshot.py FLOWGRAPH.grc OUT.png
"""
import sys

from gnuradio import gr
# In gnuradio-companion's own order (its modules import each other).
from gnuradio.grc.gui.Platform import Platform
from gnuradio.grc.gui.Application import Application
from gnuradio.grc.gui import Utils
from gi.repository import GLib


def main():
    grc, out = sys.argv[1], sys.argv[2]
    platform = Platform(version=gr.version(),
                        version_parts=(gr.major_version(), gr.api_version(), gr.minor_version()),
                        prefs=gr.prefs(), install_prefix=gr.prefix())
    platform.build_library()
    app = Application([grc], platform)
    status = {"rc": 1}

    def capture():
        page = app.main_window.current_page if app.main_window else None
        if page is None:
            return True  # not open yet: try again
        Utils.make_screenshot(page.flow_graph, out)
        print("wrote %s" % out)
        status["rc"] = 0
        app.quit()
        return False

    GLib.timeout_add(3000, capture)
    app.run()
    return status["rc"]


if __name__ == "__main__":
    sys.exit(main())
