# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Command-line helpers shared by the examples and apps.

argparse reads an argument that starts with "-" as an option unless it looks
like a plain negative number, so `--cfo -3e-3` (scientific notation) was
refused while `--cfo -0.003` was taken. parser() accepts any negative number,
and the types below refuse what would make a run meaningless (a packet count
of 0 ran forever, a negative one reached pybind as a TypeError) with
argparse's own one-line error.
"""

import argparse
import re

# A negative number in any notation float() takes: -3, -.5, -3e-3, -1.5E+2.
_NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def parser(description=None, **kwargs):
    """An ArgumentParser whose option values may be negative numbers in
    scientific notation (`--cfo -3e-3`)."""
    kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
    p = argparse.ArgumentParser(description=description, **kwargs)
    # argparse consults this to tell a negative number from an option
    # (Python 3.7 to 3.12); a negative-looking option name then still needs
    # no registration.
    p._negative_number_matcher = _NEGATIVE_NUMBER
    return p


def positive_int(text):
    """argparse type: an integer >= 1."""
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not an integer" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("%d: must be >= 1" % v)
    return v


def nonnegative_float(text):
    """argparse type: a float >= 0."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text)
    if not v >= 0.0:
        raise argparse.ArgumentTypeError("%s: must be >= 0" % text)
    return v


def iq_pair(text):
    """argparse type: an IQ imbalance "AMP_DB,PHASE_DEG"."""
    try:
        amp, phase = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected AMP_DB,PHASE_DEG, got %r" % (text,))
    return amp, phase


def gain_step(text):
    """argparse type: receive gain steps "DB,PERIOD" (PERIOD samples >= 1)."""
    try:
        db, period = text.split(",")
        db, period = float(db), int(period, 0)
    except ValueError:
        raise argparse.ArgumentTypeError("expected DB,PERIOD (dB, samples), got %r" % (text,))
    if not -40.0 <= db <= 40.0 or period < 1:
        raise argparse.ArgumentTypeError("%r: DB in -40..40, PERIOD >= 1 samples" % (text,))
    return db, period


def estimate(value, found, fmt="%.3g"):
    """A receiver's mean estimate for a summary line: "n/a" when it found
    nothing to estimate from (no burst, no frame), so the twins agree."""
    if not found or value != value:  # NaN: nothing was averaged
        return "n/a"
    return fmt % value
