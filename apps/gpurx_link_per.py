#!/usr/bin/python3
# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpurx-link-per: packet error rate of the packet link (docs/radio-link.md)
against Es/N0, for the loopback twin (burst detection, synchronisation,
equaliser and N0 estimated from the signal, over every impairment of the
twin's channel) and for the genie receiver (the same transport blocks and
constellation through white noise, demapped with the true N0), and the
implementation loss between them at a target PER.

  gpurx-link-per [--modulation qpsk 16qam] [--snr START:STOP:STEP] ...
                 [--csv per.csv] [--plot per.png]

Each point runs packets until --min-errors failed packets (at least
--min-packets, at most --max-packets). A progress line per point goes to
stderr; a table to stdout; --csv writes one row per curve and point.
"""
import csv
import math
import sys
import time

from gnuradio import gr

from gnuradio import gpurx
from gnuradio.gpurx import cli

# Es/N0 ranges per modulation (rate 1/2, 128-byte payloads) covering PER
# 1 down to below 1e-3 for both receivers.
DEFAULT_SNR = {"qpsk": "0.5:3.0:0.25", "16qam": "5.5:8.5:0.25"}


class twin(gr.top_block):
    def __init__(self, a, modulation, snr_db, packets, seed):
        gr.top_block.__init__(self, "twin")
        self.source = gpurx.payload_source(a.payload_bytes, packets, seed)
        self.tx = gpurx.packet_link_tx(modulation, a.payload_bytes, a.code_rate, 4)
        self.channel = gpurx.impaired_channel(snr_db, a.cfo, a.sro_ppm, a.delay, a.phase_noise, True, seed)
        self.rx = gpurx.packet_link_rx(modulation, a.payload_bytes, a.code_rate, 4, backend=a.backend)
        self.connect(self.source, self.tx, self.channel, self.rx)


class genie(gr.top_block):
    def __init__(self, a, modulation, snr_db, packets, seed):
        gr.top_block.__init__(self, "genie")
        self.source = gpurx.payload_source(a.payload_bytes, packets, seed)
        self.rx = gpurx.packet_link_genie(modulation, a.payload_bytes, a.code_rate, snr_db, seed,
                                          backend=a.backend)
        self.connect(self.source, self.rx)


def snr_points(spec):
    try:
        start, stop, step = (float(x) for x in spec.split(":"))
    except ValueError:
        raise SystemExit("--snr must be START:STOP:STEP (dB), got %r" % spec)
    if step <= 0 or stop < start:
        raise SystemExit("--snr: STEP must be > 0 and STOP >= START, got %r" % spec)
    n = int(math.floor((stop - start) / step + 1e-9)) + 1
    return [round(start + i * step, 6) for i in range(n)]


def run_point(a, kind, modulation, snr_db, seed0):
    """Batches of packets until enough errors; returns (sent, decoded, fail, missed, seconds)."""
    sent = decoded = fail = 0
    t0 = time.time()
    batch = a.min_packets
    seed = seed0
    while True:
        tb = (twin if kind == "twin" else genie)(a, modulation, snr_db, batch, seed)
        tb.run()
        s, d, f = tb.source.sent(), tb.rx.decoded(), tb.rx.crc_fail()
        sent, decoded, fail = sent + s, decoded + d, fail + f
        errors = sent - decoded
        if errors >= a.min_errors or sent >= a.max_packets:
            break
        seed += 1000
        batch = min(a.max_packets - sent, max(a.min_packets, sent))
    return sent, decoded, fail, max(0, sent - decoded - fail), time.time() - t0


def snr_at(points, target):
    """Es/N0 where PER crosses target, log-linear between the two points
    around it; None if it does not."""
    for (s0, p0), (s1, p1) in zip(points, points[1:]):
        if p0 >= target > p1 > 0:
            l0, l1, lt = math.log10(p0), math.log10(p1), math.log10(target)
            return s0 + (s1 - s0) * (l0 - lt) / (l0 - l1)
    return None


def plot(rows, losses, target, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    curves = sorted({(r["modulation"], r["receiver"]) for r in rows})
    for mod, rcv in curves:
        pts = [(r["esn0_db"], r["per"]) for r in rows if r["modulation"] == mod and r["receiver"] == rcv
               and r["per"] > 0]
        style = "-o" if rcv == "twin" else "--s"
        label = "%s, %s" % (mod.upper() if mod == "qpsk" else "16-QAM",
                            "loopback twin (estimated sync, channel, N0)" if rcv == "twin" else "genie (AWGN, known N0)")
        ax.semilogy([p[0] for p in pts], [p[1] for p in pts], style, label=label, markersize=4)
    ax.axhline(target, color="grey", linewidth=0.8, linestyle=":")
    for mod, loss in losses.items():
        if loss is not None:
            ax.text(0.02, 0.04 + 0.06 * list(losses).index(mod), "%s: implementation loss %.2f dB at PER %g"
                    % (mod, loss, target), transform=ax.transAxes, fontsize=8)
    ax.set_xlabel("Es/N0 (dB)")
    ax.set_ylabel("packet error rate")
    ax.set_ylim(1e-4, 1.2)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="center", bbox_to_anchor=(0.5, 0.62))
    ax.set_title("gr-gpurx packet link: 128-byte payloads, rate 1/2 LTE turbo, sps 4")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None):
    p = cli.parser(__doc__)
    p.add_argument("--modulation", nargs="+", default=["qpsk", "16qam"], choices=("qpsk", "16qam"))
    p.add_argument("--snr", help="START:STOP:STEP in dB (default per modulation: %s)" % DEFAULT_SNR)
    p.add_argument("--receivers", nargs="+", default=["twin", "genie"], choices=("twin", "genie"))
    p.add_argument("--payload-bytes", type=cli.positive_int, default=128)
    p.add_argument("--code-rate", type=float, default=0.5)
    p.add_argument("--cfo", type=float, default=1e-3)
    p.add_argument("--sro-ppm", type=float, default=50.0)
    p.add_argument("--delay", type=float, default=123.4)
    p.add_argument("--phase-noise", type=float, default=0.05)
    p.add_argument("--min-errors", type=cli.positive_int, default=50)
    p.add_argument("--min-packets", type=cli.positive_int, default=200)
    p.add_argument("--max-packets", type=cli.positive_int, default=20000)
    p.add_argument("--target-per", type=float, default=1e-2)
    p.add_argument("--backend", default="auto", choices=("auto", "cpu", "cuda"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--csv")
    p.add_argument("--plot")
    p.add_argument("--from-csv", help="no simulation: the table, losses and plot of an earlier --csv")
    a = p.parse_args(argv)
    if a.from_csv:
        with open(a.from_csv, newline="") as f:
            rows = [dict(r, esn0_db=float(r["esn0_db"]), per=float(r["per"])) for r in csv.DictReader(f)]
        a.modulation = sorted({r["modulation"] for r in rows}, key=lambda m: m != "qpsk")
        return report(a, rows)
    if a.min_packets < 1 or a.max_packets < a.min_packets or a.min_errors < 1:
        raise SystemExit("need 1 <= min_packets <= max_packets and min_errors >= 1")
    warning = gpurx.packet_link.cfo_warning(a.cfo, 4)
    if warning:
        sys.stderr.write(warning + "\n")
    rows = []
    print("| modulation | receiver | Es/N0 dB | packets | decoded | crc_fail | missed | PER |")
    print("|---|---|---|---|---|---|---|---|")
    for mod in a.modulation:
        for rcv in a.receivers:
            for i, snr in enumerate(snr_points(a.snr or DEFAULT_SNR[mod])):
                sent, dec, fail, missed, secs = run_point(a, rcv, mod, snr, a.seed + 7919 * i)
                per = (sent - dec) / sent
                rows.append({"modulation": mod, "receiver": rcv, "esn0_db": snr, "packets": sent,
                             "decoded": dec, "crc_fail": fail, "missed": missed, "per": per})
                sys.stderr.write("%s %s %.2f dB: %d packets, PER %.3g (%.1f s)\n" % (mod, rcv, snr, sent, per, secs))
                print("| %s | %s | %.2f | %d | %d | %d | %d | %.3g |" % (mod, rcv, snr, sent, dec, fail, missed, per))
                if per == 0.0 and dec >= a.min_packets:
                    break  # below the curve's floor: the next points would be 0 too
    return report(a, rows)


def report(a, rows):
    losses = {}
    for mod in a.modulation:
        at = {}
        for rcv in ("twin", "genie"):
            pts = [(r["esn0_db"], r["per"]) for r in rows if r["modulation"] == mod and r["receiver"] == rcv]
            at[rcv] = snr_at(pts, a.target_per)
        loss = at["twin"] - at["genie"] if at["twin"] is not None and at["genie"] is not None else None
        losses[mod] = loss
        print("%s: PER %g at Es/N0 %s dB (twin), %s dB (genie): implementation loss %s dB"
              % (mod, a.target_per, "%.2f" % at["twin"] if at["twin"] is not None else "n/a",
                 "%.2f" % at["genie"] if at["genie"] is not None else "n/a",
                 "%.2f" % loss if loss is not None else "n/a"))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    if a.plot:
        plot(rows, losses, a.target_per, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
