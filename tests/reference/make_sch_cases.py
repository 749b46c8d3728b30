#!/usr/bin/python3
"""Write tests/reference/data/sch_cases.json: LTE DL-SCH / UL-SCH encoder
cases computed with the independent reference model lte_sch_reference.py.

    /usr/bin/python3 tests/reference/make_sch_cases.py [--check]

--check recomputes every case and compares it with the stored file instead
of writing it (exit code 1 on any difference).

The file is a JSON list; see tests/reference/README.md for the schema.
Transport block bits come from a 64-bit LCG that every consumer
re-implements:

    x = seed
    for each of the tbs bits:
        x = (x * 6364136223846793005 + 1442695040888963407) mod 2**64
        bit = x >> 63

The output fingerprint is the SHA-256 (hex) of the G output bits packed MSB
first into bytes (numpy.packbits, last byte zero padded) plus the first 64
output bits as a '0'/'1' string; "output" (all G bits as a '0'/'1' string)
is present only in the small cases marked full_output.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lte_sch_reference as ref  # noqa: E402

OUT = os.path.join(HERE, "data", "sch_cases.json")

# UE category N_soft values (TS 36.306 Table 4.1-1): category 4 = 1827072,
# categories 6/7 = 3654144.
CAT4 = 1827072
CAT6 = 3654144

# (name, channel, tbs, rv, qm, nl, g, extra) ; extra overrides the defaults
# below.  TBS values: 36.213 Table 7.1.7.2.1-1 / 7.1.7.2.2-1 entries where
# possible (16, 40, 104, 328, 1000, 2984, 6120, 6200, 12960, 15264, 31704,
# 46888, 75376, 97896) plus a few multiples of 8 that are not table entries
# but give filler bits (F > 0) and/or C- > 0:
#   512 (F=8), 992 (F=8), 1016 (F=16), 2200 (F=16), 6128 (C=2, C-=1, F=8),
#   12000 (C=2, C-=1, F=24), 20000 (C=4, C-=1, F=40).
DEFAULTS = dict(rnti=61, cell_id=0, subframe=0, codeword=0, n_soft=None,
                kc=1, k_mimo=1, m_dl_harq=8, m_limit=8, n_symb=12)

CASES = [
    # ---- small cases, full output stored (TBS <= 1000, G <= 4000) ----
    ("dl_tbs16_rep", "dlsch", 16, 0, 2, 1, 144,
     dict(full_output=True)),
    ("dl_tbs40_rv1", "dlsch", 40, 1, 2, 1, 200,
     dict(cell_id=1, subframe=1, rnti=0xFFFF, full_output=True)),
    ("dl_tbs104_rv2_16qam_punct", "dlsch", 104, 2, 4, 1, 240,
     dict(cell_id=503, subframe=2, full_output=True)),
    ("dl_tbs512_filler8_rv3", "dlsch", 512, 3, 2, 1, 1600,
     dict(rnti=1, cell_id=17, subframe=3, full_output=True)),
    ("dl_tbs1000_64qam_txdiv", "dlsch", 1000, 0, 6, 2, 3996,
     dict(rnti=0x1234, cell_id=1, subframe=4, full_output=True)),
    ("ul_tbs16_1prb", "ulsch", 16, 0, 2, 1, 288,
     dict(rnti=0xFFFF, cell_id=503, subframe=9, full_output=True)),
    ("ul_tbs328_16qam_nsymb10", "ulsch", 328, 2, 4, 1, 960,
     dict(rnti=100, cell_id=0, subframe=5, n_symb=10, full_output=True)),
    ("ul_tbs992_filler8_rv1", "ulsch", 992, 1, 4, 1, 3840,
     dict(rnti=61, cell_id=1, subframe=7, n_symb=10, full_output=True)),

    # ---- downlink ----
    ("dl_tbs328_rv3_rnti_ffff", "dlsch", 328, 3, 2, 1, 1200,
     dict(rnti=0xFFFF, cell_id=503, subframe=9)),
    ("dl_tbs1000_rv0_16qam_punct", "dlsch", 1000, 0, 4, 1, 2400,
     dict(cell_id=1, subframe=6)),
    ("dl_tbs1000_rv0_64qam_rep", "dlsch", 1000, 0, 6, 1, 4200,
     dict(subframe=7)),
    ("dl_tbs1016_filler16", "dlsch", 1016, 0, 2, 1, 3000,
     dict(cell_id=2, subframe=8)),
    ("dl_tbs1016_filler16_rv2", "dlsch", 1016, 2, 4, 1, 3600,
     dict(cell_id=2, subframe=8)),
    ("dl_tbs2200_filler16_rv1", "dlsch", 2200, 1, 6, 1, 7200,
     dict(rnti=4660, cell_id=301, subframe=1)),
    ("dl_tbs2984_txdiv", "dlsch", 2984, 0, 2, 2, 9600,
     dict(cell_id=1, subframe=0)),
    ("dl_tbs2984_rv3_txdiv_16qam", "dlsch", 2984, 3, 4, 2, 6400,
     dict(cell_id=1, subframe=5)),
    ("dl_tbs2984_small_nsoft", "dlsch", 2984, 1, 2, 1, 4800,
     dict(n_soft=25000, subframe=2)),
    ("dl_tbs6120_64qam", "dlsch", 6120, 0, 6, 1, 12600,
     dict(cell_id=0, subframe=3)),
    ("dl_tbs6120_256qam_nsoft_bites", "dlsch", 6120, 2, 8, 1, 24000,
     dict(n_soft=100000, cell_id=503, subframe=4)),
    ("dl_tbs6128_cminus_filler", "dlsch", 6128, 0, 2, 1, 14400,
     dict(rnti=65534, subframe=5)),
    ("dl_tbs6128_cminus_rv1_2layer", "dlsch", 6128, 1, 4, 2, 16000,
     dict(rnti=65534, subframe=6, codeword=1)),
    ("dl_tbs6200_2cb", "dlsch", 6200, 0, 4, 1, 12000,
     dict(cell_id=1, subframe=0)),
    ("dl_tbs6200_rv3_cw1", "dlsch", 6200, 3, 6, 1, 21600,
     dict(cell_id=1, subframe=9, codeword=1)),
    ("dl_tbs12000_cminus_filler24", "dlsch", 12000, 0, 6, 1, 28800,
     dict(cell_id=77, subframe=2)),
    ("dl_tbs12960_r11_like", "dlsch", 12960, 0, 4, 2, 26400,
     dict(cell_id=1, subframe=5, codeword=1, n_soft=CAT4, k_mimo=2)),
    ("dl_tbs15264_rv1", "dlsch", 15264, 1, 6, 1, 30000,
     dict(rnti=0x003D, cell_id=0, subframe=1)),
    ("dl_tbs15264_rv2_cat4", "dlsch", 15264, 2, 8, 2, 32000,
     dict(n_soft=CAT4, k_mimo=2, cell_id=5, subframe=8)),
    ("dl_tbs20000_cminus_filler40", "dlsch", 20000, 0, 4, 1, 44000,
     dict(cell_id=1, subframe=4)),
    ("dl_tbs31704", "dlsch", 31704, 0, 6, 1, 63000,
     dict(cell_id=503, subframe=6)),
    ("dl_tbs31704_rv3_cat6", "dlsch", 31704, 3, 8, 2, 52800,
     dict(n_soft=CAT6, k_mimo=2, cell_id=503, subframe=7, codeword=1)),
    ("dl_tbs46888_cat4_bites", "dlsch", 46888, 0, 6, 2, 88800,
     dict(n_soft=CAT4, k_mimo=2, cell_id=0, subframe=0)),
    ("dl_tbs46888_rv1_cat4_bites", "dlsch", 46888, 1, 8, 2, 96000,
     dict(n_soft=CAT4, k_mimo=2, cell_id=0, subframe=1)),
    ("dl_tbs75376_cat6_edge", "dlsch", 75376, 0, 8, 2, 115200,
     dict(n_soft=CAT6, k_mimo=2, cell_id=1, subframe=2)),
    ("dl_tbs75376_rv2", "dlsch", 75376, 2, 6, 2, 100800,
     dict(cell_id=1, subframe=3)),
    ("dl_tbs97896_cat6_bites", "dlsch", 97896, 0, 8, 2, 115200,
     dict(n_soft=CAT6, k_mimo=2, cell_id=1, subframe=0)),
    ("dl_tbs97896_rv1_punct", "dlsch", 97896, 1, 8, 2, 230400,
     dict(cell_id=2, subframe=1, rnti=0xFFFF)),
    ("dl_tbs97896_rv3_cat4_bites", "dlsch", 97896, 3, 6, 2, 144000,
     dict(n_soft=CAT4, k_mimo=2, cell_id=3, subframe=2)),
    ("dl_tbs97896_rv2_rep_mharq4", "dlsch", 97896, 2, 8, 1, 400000,
     dict(n_soft=CAT6, k_mimo=1, m_dl_harq=4, cell_id=4, subframe=3)),
    ("dl_tbs6120_kc2", "dlsch", 6120, 0, 4, 1, 16000,
     dict(n_soft=CAT4, kc=2, k_mimo=2, m_dl_harq=8, cell_id=9, subframe=9)),

    # ---- uplink ----
    ("ul_tbs40_rv1_16qam", "ulsch", 40, 1, 4, 1, 576,
     dict(rnti=0xFFFF, cell_id=503, subframe=9)),
    ("ul_tbs104_rv2_nsymb10", "ulsch", 104, 2, 2, 1, 240,
     dict(cell_id=1, subframe=1, n_symb=10)),
    ("ul_tbs1000_rv1", "ulsch", 1000, 1, 4, 1, 2304,
     dict(cell_id=0, subframe=2)),
    ("ul_tbs2200_filler16_rv3", "ulsch", 2200, 3, 2, 1, 4800,
     dict(cell_id=17, subframe=3, n_symb=10)),
    ("ul_tbs2984_64qam", "ulsch", 2984, 0, 6, 1, 4320,
     dict(cell_id=1, subframe=4)),
    ("ul_tbs6120_rv3_nsymb10", "ulsch", 6120, 3, 2, 1, 12000,
     dict(rnti=1, cell_id=503, subframe=5, n_symb=10)),
    ("ul_tbs6128_cminus_filler", "ulsch", 6128, 0, 4, 1, 13824,
     dict(rnti=65534, cell_id=0, subframe=6)),
    ("ul_tbs12960_rv2", "ulsch", 12960, 2, 6, 1, 25920,
     dict(cell_id=1, subframe=7)),
    ("ul_tbs15264_nsymb10", "ulsch", 15264, 0, 6, 1, 36000,
     dict(cell_id=2, subframe=8, n_symb=10)),
    ("ul_tbs31704_rv1", "ulsch", 31704, 1, 6, 1, 86400,
     dict(cell_id=3, subframe=9)),
    ("ul_tbs46888_256qam", "ulsch", 46888, 0, 8, 1, 115200,
     dict(rnti=0xFFFF, cell_id=1, subframe=0)),
    ("ul_tbs75376_rv2_punct", "ulsch", 75376, 2, 8, 1, 115200,
     dict(cell_id=1, subframe=1)),
    ("ul_tbs97896_rv0_nsymb10", "ulsch", 97896, 0, 8, 1, 192000,
     dict(cell_id=0, subframe=2, n_symb=10)),
    # uplink codeword on two layers: Rel-10 5.2.2.7 / 5.2.2.8 column
    # vectors of Q_m * N_L bits (see README); skip these if the code under
    # test only implements single-layer PUSCH.
    ("ul_2layer_tbs20000", "ulsch", 20000, 0, 4, 2, 57600,
     dict(cell_id=1, subframe=3, ul_multilayer=True)),
    ("ul_2layer_tbs97896", "ulsch", 97896, 1, 8, 2, 230400,
     dict(cell_id=1, subframe=4, ul_multilayer=True)),
]


def seed_for(i):
    """Distinct 64-bit seeds, some with the top bit set."""
    return (0x9E3779B97F4A7C15 * (i + 1) + 12345) & 0xFFFFFFFFFFFFFFFF


def make_case(i, spec):
    name, channel, tbs, rv, qm, nl, g, extra = spec
    p = dict(DEFAULTS)
    extra = dict(extra)
    full = extra.pop("full_output", False)
    multilayer = extra.pop("ul_multilayer", False)
    p.update(extra)
    seed = seed_for(i)
    tb = ref.lcg_bits(seed, tbs)
    out = ref.encode(tb, channel, tbs, rv, qm, g, p["rnti"], p["cell_id"],
                     p["subframe"], codeword=p["codeword"], nl=nl,
                     n_soft=p["n_soft"], kc=p["kc"], k_mimo=p["k_mimo"],
                     m_dl_harq=p["m_dl_harq"], m_limit=p["m_limit"],
                     n_symb=p["n_symb"])
    sha, first64 = ref.fingerprint(out)
    seg = ref.segmentation(tbs)
    es = ref.cb_lengths(g, seg["C"], nl, qm)
    ncbs = []
    for k in seg["K"]:
        k_w = 3 * ref.subblock_params(k + 4)[1]
        ncbs.append(ref.soft_buffer_size(k_w, seg["C"], channel, p["n_soft"],
                                         p["kc"], p["k_mimo"], p["m_dl_harq"],
                                         p["m_limit"]))
    case = dict(
        name=name, channel=channel, tbs=tbs, rv=rv, qm=qm, g=g,
        rnti=p["rnti"], cell_id=p["cell_id"], subframe=p["subframe"],
        codeword=p["codeword"], nl=nl, n_soft=p["n_soft"], kc=p["kc"],
        k_mimo=p["k_mimo"], m_dl_harq=p["m_dl_harq"], m_limit=p["m_limit"],
        n_symb=p["n_symb"], seed=seed,
        sha256=sha, first64=first64,
        # informational, for debugging a mismatch
        info=dict(C=seg["C"], Kp=seg["Kp"], Km=seg["Km"], Cp=seg["Cp"],
                  Cm=seg["Cm"], F=seg["F"], L=seg["L"], K=seg["K"], E=es,
                  Ncb=ncbs,
                  c_init=ref.scrambling_cinit(channel, p["rnti"], p["cell_id"],
                                              p["subframe"], p["codeword"]),
                  tb_first64="".join(map(str, tb[:64].tolist())),
                  puncturing=g < 3 * tbs, repetition=g > 3 * tbs),
    )
    if multilayer:
        case["ul_multilayer"] = True
    if full:
        case["output"] = "".join(map(str, out.tolist()))
    return case


def build():
    return [make_case(i, s) for i, s in enumerate(CASES)]


def dump(cases):
    return json.dumps(cases, indent=1) + "\n"


def main():
    cases = build()
    text = dump(cases)
    if "--check" in sys.argv[1:]:
        with open(OUT) as f:
            stored = f.read()
        if stored != text:
            print("sch_cases.json differs from the reference model")
            return 1
        print("sch_cases.json: %d cases agree" % len(cases))
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s: %d cases (%d with full output)"
          % (OUT, len(cases), sum("output" in c for c in cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
