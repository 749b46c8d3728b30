#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Sums the .nv_fatbin sections (the CUDA device code) of ELF objects or
libraries: what each CUDA architecture adds to libgpurx-core.so. Plain ELF
parsing (64-bit, little-endian), no binutils needed (a GPU host may lack
them).

    scripts/fatbin-bytes.py FILE...   prints each file's bytes and the total
"""
import struct
import sys


def fatbin_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SystemExit("%s: not a 64-bit little-endian ELF file" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = sections[shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]
    total = 0
    for s in sections:
        name = names[s[0]:names.index(b"\0", s[0])].decode()
        if name == ".nv_fatbin":
            total += s[5]
    return total


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    total = 0
    for p in sys.argv[1:]:
        n = fatbin_bytes(p)
        total += n
        print("%10d  %s" % (n, p))
    print("%10d  total" % total)
