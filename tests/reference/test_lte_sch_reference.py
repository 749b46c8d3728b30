#!/usr/bin/python3
"""Self-tests of the LTE SCH reference model (lte_sch_reference.py) against
facts that do not come from the model itself.

    /usr/bin/python3 tests/reference/test_lte_sch_reference.py [-v]

External facts used (details at each test):
* 3GPP TS 36.212 arithmetic done by hand: segmentation examples, E_r, N_cb,
  k0, the UL-SCH channel interleaver on a small matrix, Table 5.1.3-3 K set.
* MathWorks LTE Toolbox documentation examples: lteDLSCHInfo(132) and the
  R.11 RMC segmentation; ltePRBS(162,4), ltePDCCHPRBS for R.0 (c_init = 0),
  nrPDSCHPRBS(17,120,0,300) (the NR Gold sequence of 38.211 5.2.1 is the
  36.211 7.2 sequence).
* The CRC catalogue check values CRC-24/LTE-A = 0xCDE703 and
  CRC-24/LTE-B = 0x23EF52 (CRC of the ASCII string "123456789").
* DPDK app/test-bbdev/test_vectors/turbo_enc_*.data (BSD-3-Clause, Intel),
  copied verbatim to data/dpdk/: turbo encoder inputs with their encoded
  (and, for *_rm, rate-matched) outputs.
"""

import os
import sys
import time
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lte_sch_reference as ref  # noqa: E402

DPDK_DIR = os.path.join(HERE, "data", "dpdk")


def bits_of_int(value, width):
    return np.array([(value >> (width - 1 - i)) & 1 for i in range(width)],
                    np.uint8)


def int_of_bits(bits):
    return int("".join(str(int(b)) for b in bits), 2)


# ---------------------------------------------------------------------------
# DPDK test-bbdev vector files
# ---------------------------------------------------------------------------
def parse_bbdev_vector(path):
    """key = value blocks of a test-bbdev .data file -> dict of strings."""
    d, key = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.endswith("="):
                key = line[:-1].strip()
                d[key] = []
            else:
                d[key].append(line)
    return {k: " ".join(v) for k, v in d.items()}


def bbdev_bits(text):
    """The data words of a test-bbdev vector as a bit array.  Each token
    0x... is a 32-bit word stored little-endian in memory (a shorter last
    token holds fewer bytes); within a byte the first bit is the MSB."""
    out = bytearray()
    for tok in (t.strip() for t in text.split(",")):
        if not tok:
            continue
        digits = tok[2:]
        out += int(digits, 16).to_bytes((len(digits) + 1) // 2, "little")
    return np.unpackbits(np.frombuffer(bytes(out), np.uint8))


class TestSegmentation(unittest.TestCase):
    """36.212 5.1.2 by hand, plus MathWorks lteDLSCHInfo examples."""

    def check(self, seg, **want):
        for k, v in want.items():
            self.assertEqual(seg[k], v, "%s: %r != %r" % (k, seg[k], v))

    def test_tbs6120_one_block(self):
        # B = 6120 + 24 = 6144 = Z: no segmentation, L = 0, K+ = 6144
        self.check(ref.segmentation(6120), B=6144, L=0, C=1, Bp=6144,
                   Kp=6144, Km=0, Cp=1, Cm=0, F=0, K=[6144])

    def test_tbs6121_two_blocks_with_filler(self):
        # B = 6145 > Z: C = ceil(6145/6120) = 2, B' = 6145 + 48 = 6193;
        # K+ = smallest K with 2K >= 6193 = 3136, K- = 3072, dK = 64,
        # C- = floor((6272 - 6193)/64) = 1, C+ = 1, F = 3136 + 3072 - 6193
        self.check(ref.segmentation(6121), B=6145, L=24, C=2, Bp=6193,
                   Kp=3136, Km=3072, Cp=1, Cm=1, F=15, K=[3072, 3136])

    def test_tbs6128(self):
        # B' = 6152 + 48 = 6200, K+ = 3136, C- = floor(72/64) = 1, F = 8
        self.check(ref.segmentation(6128), C=2, Bp=6200, Kp=3136, Km=3072,
                   Cp=1, Cm=1, F=8, K=[3072, 3136])

    def test_smallest(self):
        # TBS 16: B = 40 = the smallest K
        self.check(ref.segmentation(16), B=40, C=1, Kp=40, F=0, L=0)
        # B = 30 < 40: 10 filler bits
        self.check(ref.segmentation(B=30), C=1, Kp=40, F=10)

    def test_tbs97896(self):
        # B = 97920: C = ceil(97920/6120) = 16, B' = 98304 = 16 * 6144
        self.check(ref.segmentation(97896), B=97920, L=24, C=16, Bp=98304,
                   Kp=6144, Cp=16, Cm=0, F=0, K=[6144] * 16)

    def test_tbs20000(self):
        # B = 20024, C = 4, B' = 20120, K+ = 5056 (4*5056 = 20224),
        # K- = 4992, C- = floor(104/64) = 1, C+ = 3, F = 3*5056+4992-20120
        self.check(ref.segmentation(20000), C=4, Bp=20120, Kp=5056, Km=4992,
                   Cp=3, Cm=1, F=40, K=[4992, 5056, 5056, 5056])

    def test_mathworks_ltedlschinfo_132(self):
        # MathWorks LTE Toolbox doc, lteDLSCHInfo(132): "an input transport
        # block of length 132 ... 4 filler bits and the total size of the one
        # segment after CRC addition is 160": C=1 Km=0 Cm=0 Kp=160 Cp=1 F=4
        # L=0 Bout=160
        self.check(ref.segmentation(132), C=1, Km=0, Cm=0, Kp=160, Cp=1,
                   F=4, L=0, Bp=156)

    def test_mathworks_rmc_r11(self):
        # lteDLSCHInfo for RMC R.11 (TBS 12960): C=3 Km=4288 Cm=0 Kp=4352
        # Cp=3 F=0 L=24 Bout=13056
        self.check(ref.segmentation(12960), C=3, Km=4288, Cm=0, Kp=4352,
                   Cp=3, F=0, L=24, Bp=13056)

    def test_sizes_add_up(self):
        for tbs in list(range(8, 20000, 8)) + [6121, 12241, 61200, 97896,
                                                 149776]:
            s = ref.segmentation(tbs)
            self.assertEqual(sum(s["K"]), s["Bp"] + s["F"])
            self.assertEqual(s["Cp"] + s["Cm"], s["C"])
            self.assertTrue(0 <= s["F"] < 64 or s["C"] == 1)
            for k in s["K"]:
                self.assertIn(k, ref.QPP)

    def test_segment_blocks(self):
        rng = np.random.default_rng(1)
        for tbs in (16, 132, 6121, 6128, 20000, 97896):
            a = rng.integers(0, 2, tbs).astype(np.uint8)
            b = ref.attach_crc(a, ref.CRC24A_POLY)
            blocks, s = ref.segment(b)
            self.assertEqual([len(x) for x in blocks], s["K"])
            self.assertTrue(np.all(blocks[0][:s["F"]] == ref.NULL))
            data = []
            for r, blk in enumerate(blocks):
                body = blk.copy()
                body[body == ref.NULL] = 0
                if s["C"] > 1:
                    # block with its CRC24B divides evenly
                    self.assertFalse(ref.crc24b(body).any())
                    data.append(blk[(s["F"] if r == 0 else 0):-24])
                else:
                    data.append(blk[s["F"]:])
            self.assertTrue(np.array_equal(np.concatenate(data), b))


class TestCRC(unittest.TestCase):
    def test_catalogue_check_values(self):
        # CRC RevEng catalogue: CRC-24/LTE-A check = 0xCDE703,
        # CRC-24/LTE-B check = 0x23EF52 (over ASCII "123456789")
        msg = np.unpackbits(np.frombuffer(b"123456789", np.uint8))
        self.assertEqual(int_of_bits(ref.crc24a(msg)), 0xCDE703)
        self.assertEqual(int_of_bits(ref.crc24b(msg)), 0x23EF52)

    def test_polynomials(self):
        # 36.212 5.1.1 generator polynomials as exponent lists
        a = [24, 23, 18, 17, 14, 11, 10, 7, 6, 5, 4, 3, 1, 0]
        b = [24, 23, 6, 5, 1, 0]
        self.assertEqual(ref.CRC24A_POLY | (1 << 24), sum(1 << e for e in a))
        self.assertEqual(ref.CRC24B_POLY | (1 << 24), sum(1 << e for e in b))

    def test_remainder_zero_after_attach(self):
        rng = np.random.default_rng(2)
        for n in (1, 7, 8, 23, 40, 1000, 6120, 6121):
            a = rng.integers(0, 2, n).astype(np.uint8)
            for poly in (ref.CRC24A_POLY, ref.CRC24B_POLY):
                self.assertFalse(ref.crc24(ref.attach_crc(a, poly), poly).any())

    def test_bitwise_definition(self):
        # the byte-table CRC equals plain long division of a(D) D^24 by g(D)
        rng = np.random.default_rng(3)
        for n in (5, 17, 64, 333):
            a = rng.integers(0, 2, n).astype(np.uint8)
            for poly in (ref.CRC24A_POLY, ref.CRC24B_POLY):
                g = poly | (1 << 24)
                m = int_of_bits(a) << 24
                for i in range(n + 23, 23, -1):
                    if (m >> i) & 1:
                        m ^= g << (i - 24)
                self.assertEqual(int_of_bits(ref.crc24(a, poly)), m)


class TestQPP(unittest.TestCase):
    def test_k_set(self):
        # 36.212 Table 5.1.3-3: K = 40..512 step 8, 528..1024 step 16,
        # 1056..2048 step 32, 2112..6144 step 64 (188 sizes)
        want = (list(range(40, 513, 8)) + list(range(528, 1025, 16)) +
                list(range(1056, 2049, 32)) + list(range(2112, 6145, 64)))
        self.assertEqual(list(ref.K_TABLE), want)
        self.assertEqual(len(ref.QPP_TABLE), 188)

    def test_every_qpp_is_a_permutation(self):
        for k in ref.K_TABLE:
            p = ref.qpp_permutation(k)
            self.assertTrue(np.array_equal(np.sort(p), np.arange(k)), k)
            f1, f2 = ref.QPP[k]
            # a QPP over even K needs f1 odd, f2 even; both below K
            self.assertEqual(f1 % 2, 1)
            self.assertEqual(f2 % 2, 0)
            self.assertTrue(0 < f1 < k and 0 < f2 < k)

    def test_some_entries(self):
        # rows of 36.212 Table 5.1.3-3
        self.assertEqual(ref.QPP[40], (3, 10))
        self.assertEqual(ref.QPP[1504], (49, 846))
        self.assertEqual(ref.QPP[5248], (113, 902))
        self.assertEqual(ref.QPP[6144], (263, 480))


class TestTurbo(unittest.TestCase):
    def test_lengths_and_filler(self):
        c = np.zeros(40, np.uint8)
        c[:4] = ref.NULL
        c[4:] = 1
        d0, d1, d2 = ref.turbo_encode(c)
        self.assertEqual(len(d0), 44)
        self.assertTrue(np.all(d0[:4] == ref.NULL))
        self.assertTrue(np.all(d1[:4] == ref.NULL))
        self.assertTrue(np.all(d2 <= 1))
        self.assertTrue(np.all(d0[4:] <= 1) and np.all(d1[4:] <= 1))

    def test_zero_in_zero_out(self):
        for k in (40, 6144):
            for d in ref.turbo_encode(np.zeros(k, np.uint8)):
                self.assertFalse(d.any())

    def test_impulse_response(self):
        # RSC 1/(1+D^2+D^3) * (1+D+D^3) driven by a single 1 at time 0:
        # register a_k = [1,0,1,1,1,0,0,1,...] (period 7), z_k = a_k+a_{k-1}+a_{k-3}
        K = 40
        c = np.zeros(K, np.uint8)
        c[0] = 1
        d0, d1, _ = ref.turbo_encode(c)
        a = [0] * (K + 3)
        for k in range(K):
            a[k + 3] = (1 if k == 0 else 0) ^ a[k + 1] ^ a[k]
        z = [a[k + 3] ^ a[k + 2] ^ a[k] for k in range(K)]
        self.assertEqual(d1[:K].tolist(), z)
        self.assertEqual(d0[:K].tolist(), c.tolist())

    def test_dpdk_no_rate_matching_k4800(self):
        # DPDK turbo_enc_c3_k4800_r2_e14412_crc24b.data: RTE_BBDEV_TURBO_
        # CRC_24B_ATTACH without RATE_MATCH; one code block (r = 2 of c = 4)
        # of 4776 bits; output = d(0) | d(1) | d(2), each K + 4 bits, bit
        # contiguous (DPDK bbdev_turbo_software.c packs them so).
        v = parse_bbdev_vector(os.path.join(
            DPDK_DIR, "turbo_enc_c3_k4800_r2_e14412_crc24b.data"))
        k = int(v["k_pos"])
        inp = bbdev_bits(v["input0"])[:k - 24]
        exp = bbdev_bits(v["output0"])
        c = ref.attach_crc(inp, ref.CRC24B_POLY)
        got = np.concatenate(ref.turbo_encode(c))
        self.assertEqual(int(v["ea"]), got.size)
        self.assertTrue(np.array_equal(got, exp[:got.size]))


class TestRateMatching(unittest.TestCase):
    def test_subblock_permutation_table(self):
        # Table 5.1.4-1 is the bit reversal of the 5-bit column index
        want = [int("{:05b}".format(i)[::-1], 2) for i in range(32)]
        self.assertEqual(list(ref.SUBBLOCK_PERM), want)

    def test_k0_by_hand(self):
        # K = 6144: D = 6148, R = ceil(6148/32) = 193, K_w = 3*32*193 = 18528,
        # ceil(18528 / (8*193)) = 12: k0 = 193 * (24 rv + 2)
        self.assertEqual(ref.subblock_params(6148), (193, 6176, 28))
        for rv, k0 in ((0, 386), (1, 5018), (2, 9650), (3, 14282)):
            self.assertEqual(ref.k0_of(193, 18528, rv), k0)
        # N_cb = 7137 (cat 4, K_MIMO 2, C 16): ceil(7137/1544) = 5
        self.assertEqual(ref.k0_of(193, 7137, 1), 193 * 12)

    def test_subblock_interleaver_small(self):
        # D = 36 -> R = 2, K_Pi = 64, N_D = 28: y = 28 NULL then d_0..d_35.
        # Stream 0, column P[0] = 0 is (y_0, y_32) = (NULL, d_4), column
        # P[1] = 16 is (y_16, y_48) = (NULL, d_20).  Stream 2: v_0 =
        # y_{(0 + 0 + 1) mod 64} = NULL, v_1 = y_{32+1} = d_5.
        d = np.arange(100, 136)
        v0 = ref.subblock_interleave(d, 0, null=-1)
        self.assertEqual(v0[:4].tolist(), [-1, 104, -1, 120])
        v2 = ref.subblock_interleave(d, 2, null=-1)
        self.assertEqual(v2[:2].tolist(), [-1, 105])
        # last column P[31] = 31: (y_31, y_63) = (d_3, d_35)
        self.assertEqual(v0[-2:].tolist(), [103, 135])
        # stream 2 last: k = 63 -> (31 + 32 + 1) mod 64 = 0 -> NULL,
        # k = 62 -> (31 + 0 + 1) = 32 -> d_4
        self.assertEqual(v2[-2:].tolist(), [104, -1])

    def test_full_codeword_is_a_permutation(self):
        # E = 3K + 12, rv 0, N_cb = K_w, no filler: every bit of d0|d1|d2
        # exactly once
        for k in (40, 48, 1024, 3136, 6144):
            D = k + 4
            idx = ref.rate_match_indices(D, 3 * D, 0)
            self.assertTrue(np.array_equal(np.sort(idx), np.arange(3 * D)), k)
            # and the rv-0 output starts with systematic bits (k0 = 2R)
            self.assertTrue(np.all(idx[:8] < D))

    def test_filler_never_selected(self):
        for F, k in ((4, 160), (8, 544), (15, 3072)):
            D = k + 4
            for rv in range(4):
                idx = ref.rate_match_indices(D, 5 * D, rv, F=F)
                bad = (idx < F) | ((idx >= D) & (idx < D + F))
                self.assertFalse(bad.any())
                # d(2) filler positions are not NULL: they are sent
                self.assertTrue(np.isin(2 * D + np.arange(F), idx).all())

    def test_soft_buffer_by_hand(self):
        # N_IR = floor(1827072 / (1*2*8)) = 114192; C = 16 -> 7137
        self.assertEqual(ref.soft_buffer_size(18528, 16, "dlsch", 1827072, 1, 2,
                                              8, 8), 7137)
        # 3654144 / 16 = 228384; / 13 = 17568 = K_w for K = 5824
        self.assertEqual(ref.soft_buffer_size(17568, 13, "dlsch", 3654144, 1, 2,
                                              8, 8), 17568)
        # min(M_DL_HARQ, M_limit): 3654144 / 4 = 913536 / 16 = 57096 > K_w
        self.assertEqual(ref.soft_buffer_size(18528, 16, "dlsch", 3654144, 1, 1,
                                              4, 8), 18528)
        # K_C = 3/2: floor(35982720 / (1.5*2*8)) = 1499280
        self.assertEqual(ref.soft_buffer_size(10 ** 7, 1, "dlsch", 35982720, 1.5,
                                              2, 8, 8), 1499280)
        self.assertEqual(ref.soft_buffer_size(18528, 16, "ulsch", 1827072, 1, 2,
                                              8, 8), 18528)
        self.assertEqual(ref.soft_buffer_size(18528, 16, "dlsch", None), 18528)

    def test_e_by_hand(self):
        # G' = G/(N_L Q_m), gamma = G' mod C
        self.assertEqual(ref.cb_lengths(12, 3, 1, 2), [4, 4, 4])
        self.assertEqual(ref.cb_lengths(14, 3, 1, 2), [4, 4, 6])
        self.assertEqual(ref.cb_lengths(56, 3, 2, 4), [16, 16, 24])
        self.assertEqual(ref.cb_lengths(30000, 3, 1, 6), [9996, 10002, 10002])

    def test_dpdk_rate_matched_vectors(self):
        # DPDK test-bbdev turbo encoder vectors with RTE_BBDEV_TURBO_RATE_MATCH
        # (code block mode; ncb = K_w in all of them).
        names = ["turbo_enc_c1_k40_r0_e272_rm.data",      # rv 0, E < 3K
                 "turbo_enc_c1_k40_r0_e1190_rm.data",     # rv 0, repetition
                 "turbo_enc_c1_k40_r0_e1194_rm.data",     # rv 2
                 "turbo_enc_c1_k40_r0_e1196_rm.data",     # rv 3
                 "turbo_enc_c1_k6144_r0_e32256_crc24b_rm.data",  # CRC24B, rep.
                 "turbo_enc_c1_k6144_r0_e120_rm_rvidx.data"]     # k0 = 0
        for name in names:
            with self.subTest(vector=name):
                v = parse_bbdev_vector(os.path.join(DPDK_DIR, name))
                k, e = int(v["k"]), int(v["e"])
                rv, ncb = int(v["rv_index"]), int(v["ncb"])
                flags = v["op_flags"]
                inp = bbdev_bits(v["input0"])
                exp = bbdev_bits(v["output0"])[:e]
                if "CRC_24B_ATTACH" in flags:
                    c = ref.attach_crc(inp[:k - 24], ref.CRC24B_POLY)
                else:
                    c = inp[:k]
                d0, d1, d2 = ref.turbo_encode(c)
                self.assertEqual(ncb, 3 * ref.subblock_params(k + 4)[1])
                if "RV_INDEX_BYPASS" in flags:
                    # DPDK: "Ignore rv_index and set K0 = 0"
                    w = ref.bit_collection(d0, d1, d2)
                    got = ref.bit_selection(w, ncb, 0, e)
                else:
                    got = ref.rate_match(d0, d1, d2, e, rv, ncb)
                self.assertTrue(np.array_equal(got, exp))


class TestULInterleaver(unittest.TestCase):
    def test_small_matrix_by_hand(self):
        # Q_m = 2, C_mux = 3, G = 12: H' = 6 vectors g_0..g_5 in 2 rows
        #   row 0: g0 g1 g2 ; row 1: g3 g4 g5
        # read by columns: g0 g3 g1 g4 g2 g5 (each vector's 2 bits together)
        want = [0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11]
        self.assertEqual(self.source_positions(12, 2, 3), want)

    def test_qm4(self):
        # Q_m = 4, C_mux = 2, G = 16: rows (g0 g1), (g2 g3) -> g0 g2 g1 g3
        want = [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15]
        self.assertEqual(self.source_positions(16, 4, 2), want)

    def test_two_layers(self):
        # Rel-10: column vectors of Q_m N_L bits; Q_m = 2, N_L = 2, C_mux = 2,
        # G = 16: vectors of 4 bits g0..g3 -> g0 g2 g1 g3
        want = [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15]
        self.assertEqual(self.source_positions(16, 2, 2, nl=2), want)

    @staticmethod
    def source_positions(G, qm, n_symb, nl=1):
        out = []
        m = np.eye(G, dtype=np.uint8)
        rows = [ref.ul_interleave(m[i], qm, n_symb, nl) for i in range(G)]
        for j in range(G):
            out.append(int(np.nonzero([r[j] for r in rows])[0][0]))
        return out


class TestScrambling(unittest.TestCase):
    def test_mathworks_prbs_examples(self):
        # MathWorks LTE Toolbox doc, ltePRBS: ltePRBS(162,4) = 1 0 1 1
        self.assertEqual(ref.gold_sequence(162, 4).tolist(), [1, 0, 1, 1])
        # ltePRBS(NCellID=0, 5) = 0 0 0 0 0 (RMC R.0), and
        # ltePDCCHPRBS(R.0, 7) = 0 0 0 0 0 0 1 (c_init = 0 for NCellID 0,
        # subframe 0)
        self.assertEqual(ref.gold_sequence(0, 7).tolist(),
                         [0, 0, 0, 0, 0, 0, 1])

    def test_mathworks_nr_pdsch_example(self):
        # nrPDSCHPRBS(17, 120, 0, 300): c_init = 120*2^15 + 0*2^14 + 17
        # (38.211 7.3.1.1); first 15 shown in the MathWorks 5G Toolbox doc
        c = ref.gold_sequence(120 * 2 ** 15 + 17, 300)
        self.assertEqual("".join(map(str, c[:15])), "011011010000111")

    def test_gold_by_definition(self):
        # straight bit-serial evaluation of 36.211 7.2
        for c_init in (0, 1, 12345, (1 << 31) - 1):
            n = 100
            x1 = [1] + [0] * 30
            x2 = [(c_init >> i) & 1 for i in range(31)]
            for m in range(n + 1600):
                x1.append(x1[m + 3] ^ x1[m])
                x2.append(x2[m + 3] ^ x2[m + 2] ^ x2[m + 1] ^ x2[m])
            want = [x1[m + 1600] ^ x2[m + 1600] for m in range(n)]
            self.assertEqual(ref.gold_sequence(c_init, n).tolist(), want)

    def test_cinit(self):
        # 36.211 6.3.1: n_RNTI 2^14 + q 2^13 + floor(n_s/2) 2^9 + N_ID^cell
        self.assertEqual(ref.scrambling_cinit("dlsch", 61, 1, 3, 1),
                         61 * 16384 + 8192 + 3 * 512 + 1)
        self.assertEqual(ref.scrambling_cinit("ulsch", 0xFFFF, 503, 9, 0),
                         0xFFFF * 16384 + 9 * 512 + 503)

    def test_scramble_is_xor(self):
        rng = np.random.default_rng(4)
        b = rng.integers(0, 2, 500).astype(np.uint8)
        c = ref.gold_sequence(99, 500)
        self.assertTrue(np.array_equal(ref.scramble(b, 99), (b + c) % 2))


class TestEncodeChain(unittest.TestCase):
    def test_errors(self):
        tb = np.zeros(40, np.uint8)
        ok = dict(tb_bits=tb, channel="dlsch", tbs=40, rv=0, qm=2, g=200,
                  rnti=61, cell_id=0, subframe=0)
        good = [dict(),
                dict(qm=4, g=400), dict(qm=4, nl=2, g=400),
                dict(channel="ulsch", g=240),              # 120 = 10 x 12
                dict(channel="ulsch", g=240, n_symb=10),   # 120 = 12 x 10
                dict(channel="ulsch", g=220, n_symb=10)]   # 110 = 11 x 10
        bad = [dict(g=201),                   # not a multiple of Q_m
               dict(qm=4, g=202),
               dict(qm=4, nl=2, g=404),       # 404 % 8 != 0
               dict(rv=4), dict(rv=-1),
               dict(qm=3, g=300), dict(qm=10, g=400), dict(qm=1),
               dict(channel="ulsch", g=200),              # 100 % 12 != 0
               dict(channel="ulsch", g=220, n_symb=12),   # 110 % 12 != 0
               dict(channel="pdsch"),
               dict(tbs=48)]                  # len(tb_bits) != tbs
        for change in good:
            ref.encode(**dict(ok, **change))
        for change in bad:
            with self.assertRaises(ValueError, msg=str(change)):
                ref.encode(**dict(ok, **change))

    def test_chain_composition(self):
        # encode() = scramble(concat(rate_match(turbo(segments)))) assembled
        # here from the public steps, for a case with C- > 0 and filler bits
        tbs, g, qm = 6128, 14400, 2
        tb = ref.lcg_bits(5, tbs)
        b = ref.attach_crc(tb, ref.CRC24A_POLY)
        blocks, s = ref.segment(b)
        es = ref.cb_lengths(g, s["C"], 1, qm)
        parts = [ref.rate_match(*ref.turbo_encode(c), E=e, rv=1)
                 for c, e in zip(blocks, es)]
        f = np.concatenate(parts)
        cinit = 61 * 2 ** 14 + 0 * 2 ** 13 + 4 * 2 ** 9 + 7
        want = f ^ ref.gold_sequence(cinit, g)
        got = ref.encode(tb, "dlsch", tbs, 1, qm, g, 61, 7, 4)
        self.assertTrue(np.array_equal(got, want))
        # uplink: the same bits through the channel interleaver
        want_ul = ref.ul_interleave(f, qm, 12) ^ ref.gold_sequence(cinit, g)
        got_ul = ref.encode(tb, "ulsch", tbs, 1, qm, g, 61, 7, 4)
        self.assertTrue(np.array_equal(got_ul, want_ul))

    def test_lcg(self):
        # x = seed; x = x*6364136223846793005 + 1442695040888963407 mod 2^64
        x, want = 0, []
        for _ in range(5):
            x = (x * 6364136223846793005 + 1442695040888963407) % 2 ** 64
            want.append(x >> 63)
        self.assertEqual(ref.lcg_bits(0, 5).tolist(), want)
        # first step from seed 0 is 1442695040888963407 < 2^63 -> 0
        self.assertEqual(want[0], 0)

    def test_speed_tbs97896(self):
        tb = ref.lcg_bits(1, 97896)
        t = time.time()
        out = ref.encode(tb, "dlsch", 97896, 0, 8, 230400, 61, 1, 0, nl=2)
        dt = time.time() - t
        self.assertEqual(out.size, 230400)
        self.assertLess(dt, 5.0)

    def test_stored_cases(self):
        # data/sch_cases.json agrees with the model (guards against edits)
        import json
        import make_sch_cases
        path = os.path.join(HERE, "data", "sch_cases.json")
        with open(path) as f:
            stored = json.load(f)
        fresh = make_sch_cases.build()
        self.assertEqual(len(stored), len(fresh))
        for a, b in zip(stored, fresh):
            self.assertEqual(a, b, a["name"])
        self.assertEqual(sum("output" in c for c in stored), 8)
        for c in stored:
            if "output" in c:
                self.assertLessEqual(c["tbs"], 1000)
                self.assertLessEqual(c["g"], 4000)
                self.assertEqual(len(c["output"]), c["g"])
                self.assertEqual(c["output"][:64], c["first64"])


if __name__ == "__main__":
    unittest.main()
