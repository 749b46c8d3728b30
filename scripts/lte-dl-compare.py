#!/usr/bin/python3
# Compares gpurx-lte-dl's --jsonl (one object per TB) with lte_dl_gen's truth
# (one object per subframe, every TB's payload): every TB of the truth that
# a UE must decode (code rate <= 0.93, 36.213 7.1.7) should be there with the
# same payload. Prints the counts; exit status 1 when a TB is wrong (decoded
# with crc_ok but another payload), 0 otherwise (missing ones are counted).
# Usage: lte-dl-compare.py TRUTH.jsonl OURS.jsonl
import json
import sys


def main():
    truth, ours = sys.argv[1], sys.argv[2]
    got = {}
    with open(ours) as f:
        for line in f:
            t = json.loads(line)
            got[(t["sfn"], t["subframe"], t["rnti"], t["tb"])] = t
    expected = equal = wrong = missing = failed = 0
    with open(truth) as f:
        for line in f:
            sf = json.loads(line)
            for p in sf.get("pdsch_list", []):
                for i, tb in enumerate(p["tb"]):
                    if tb["cr"] > 0.93:
                        continue
                    expected += 1
                    d = got.get((sf["sfn"], sf["sf_idx"], p["rnti"], i))
                    if d is None:
                        missing += 1
                    elif not d["crc_ok"]:
                        failed += 1
                    elif d["payload"] == tb["payload"][: len(d["payload"])] and len(d["payload"]) * 4 >= tb["tbs"]:
                        equal += 1
                    else:
                        wrong += 1
    print(f"truth TBs {expected}: {equal} decoded equal, {failed} CRC failed, {missing} missing, {wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
