#!/usr/bin/env bash
# The LTE downlink receiver's speed, beside srsRAN's receiver (lte_dl_rx, a
# peer carried in .peers/) on the same captures, in one run:
#  - one core (taskset -c 0): gpurx-lte-dl --backend cpu against lte_dl_rx -t 1,
#    25 PRB TM1 (one UE) and 100 PRB TM3 2x2 (four UEs, full load);
#  - the whole host: N gpurx-lte-dl processes (one per cell, the GPU shared)
#    against lte_dl_rx with every core, 100 PRB TM3 2x2 at full load: the
#    cells decoded in real time = subframes per second / 1000.
# Every run checks its TBs against the generator's truth (lte_dl_rx's "match"
# and gpurx-lte-dl's --jsonl compared by scripts/lte-dl-compare.py).
# lte_dl_rx is given the RNTIs (from the truth); so is gpurx-lte-dl in the
# side-by-side runs, and the one-core runs are repeated with --rnti all
# (every UE learnt from the PDCCH), which lte_dl_rx cannot do.
# Rates: lte_dl_rx times the subframes after its cell search; gpurx-lte-dl
# prints both its whole wall time and that rate ("tracking:").
# Usage: scripts/bench-lte-dl.sh OUTDIR [subframes]
set -uo pipefail
out=${1:-.devout}
n=${2:-2000}
gen=${GPURX_LTE_DL_GEN:-.peers/lte_dl_gen}
rx=$(dirname "$gen")/lte_dl_rx
cap=${TMPDIR:-/tmp}/gpurx-lte-bench
mkdir -p "$cap" "$out"
py=$(command -v python3)
status=0
echo "== captures ($n subframes each)"
"$gen" -p 25 -x 1 -m 16 -n "$n" -s 1 -o "$cap/tm1" -j "$cap/tm1.jsonl" > "$cap/gen_tm1.log" 2>&1 || status=1
"$gen" -p 100 -x 3 -m r -U 4 -P 1 -n "$n" -s 2 -N 30 -R "$cap/tm3" -j "$cap/tm3.jsonl" > "$cap/gen_tm3.log" 2>&1 || status=1
tail -n 1 "$cap/gen_tm1.log" "$cap/gen_tm3.log"
run_ours() { # name [taskset -c N] args...
    local name=$1; shift
    local pin=()
    if [ "$1" = taskset ]; then pin=(taskset -c "$3"); shift 3; fi
    "${pin[@]}" gpurx-lte-dl --quiet "$@" > "$out/$name.txt" 2> "$out/$name.err"
    local rc=$?
    tail -n 2 "$out/$name.txt"; tail -n 1 "$out/$name.err"
    return $rc
}
echo "== one core: 25 PRB TM1"
taskset -c 0 "$rx" -i "$cap/tm1" -j "$cap/tm1.jsonl" -q -t 1 2>&1 | tail -n 2 | tee "$out/srsran_tm1_1core.txt"
run_ours ours_tm1_1core taskset -c 0 --input "$cap/tm1" --rate 7.68e6 --backend cpu --front-end cpu \
    --rnti 0x1234 --jsonl "$out/ours_tm1.jsonl" --cpu-threads 1 || status=1
"$py" scripts/lte-dl-compare.py "$cap/tm1.jsonl" "$out/ours_tm1.jsonl" | tee -a "$out/ours_tm1_1core.txt" || status=1
echo "-- the same, every UE learnt (--rnti all)"
run_ours ours_tm1_1core_all taskset -c 0 --input "$cap/tm1" --rate 7.68e6 --backend cpu --front-end cpu \
    --rnti all --jsonl "$out/ours_tm1_all.jsonl" --cpu-threads 1 || status=1
"$py" scripts/lte-dl-compare.py "$cap/tm1.jsonl" "$out/ours_tm1_all.jsonl" | tee -a "$out/ours_tm1_1core_all.txt" || status=1
echo "== one core: 100 PRB TM3 2x2, four UEs"
taskset -c 0 "$rx" -i "$cap/tm3" -a 2 -r all -j "$cap/tm3.jsonl" -q -t 1 2>&1 | tail -n 2 | tee "$out/srsran_tm3_1core.txt"
rntis=0x1234,0x1235,0x1236,0x1237
run_ours ours_tm3_1core taskset -c 0 --input "$cap/tm3.0,$cap/tm3.1" --rate 30.72e6 --backend cpu --front-end cpu \
    --rnti "$rntis" --jsonl "$out/ours_tm3_cpu.jsonl" --cpu-threads 1 || status=1
"$py" scripts/lte-dl-compare.py "$cap/tm3.jsonl" "$out/ours_tm3_cpu.jsonl" | tee -a "$out/ours_tm3_1core.txt" || status=1
echo "-- the same, every UE learnt (--rnti all)"
run_ours ours_tm3_1core_all taskset -c 0 --input "$cap/tm3.0,$cap/tm3.1" --rate 30.72e6 --backend cpu --front-end cpu \
    --rnti all --jsonl "$out/ours_tm3_cpu_all.jsonl" --cpu-threads 1 || status=1
"$py" scripts/lte-dl-compare.py "$cap/tm3.jsonl" "$out/ours_tm3_cpu_all.jsonl" | tee -a "$out/ours_tm3_1core_all.txt" || status=1
echo "== GPU, one process: 100 PRB TM3 2x2"
run_ours ours_tm3_gpu1 --input "$cap/tm3.0,$cap/tm3.1" --rate 30.72e6 --backend cuda --rnti "$rntis" \
    --jsonl "$out/ours_tm3_gpu.jsonl" || status=1
"$py" scripts/lte-dl-compare.py "$cap/tm3.jsonl" "$out/ours_tm3_gpu.jsonl" | tee -a "$out/ours_tm3_gpu1.txt" || status=1
cores=$(nproc)
echo "== whole host ($cores cores): srsRAN with every core"
"$rx" -i "$cap/tm3" -a 2 -r all -j "$cap/tm3.jsonl" -q -t "$cores" 2>&1 | tail -n 2 | tee "$out/srsran_tm3_allcores.txt"
for procs in $(( cores / 2 )) "$cores"; do
    echo "== whole host: $procs gpurx-lte-dl processes, GPU shared"
    start=$(date +%s.%N)
    for i in $(seq 1 "$procs"); do
        gpurx-lte-dl --quiet --input "$cap/tm3.0,$cap/tm3.1" --rate 30.72e6 --backend cuda --cpu-threads 1 --rnti "$rntis" \
            > "$out/ours_tm3_p${procs}_$i.txt" 2>&1 &
    done
    wait
    end=$(date +%s.%N)
    sf=$(grep -h "^subframes:" "$out"/ours_tm3_p${procs}_*.txt | awk '{s+=$2} END {print s}')
    ok=$(grep -h "^PDSCH:" "$out"/ours_tm3_p${procs}_*.txt | sed -n 's/.*TBs: \([0-9]*\) decoded.*/\1/p' | awk '{s+=$1} END {print s}')
    awk -v p="$procs" -v sf="$sf" -v ok="$ok" -v t0="$start" -v t1="$end" 'BEGIN {
        t = t1 - t0; printf "%d processes: %d subframes in %.2f s: %.0f subframes/s, %.2f cells in real time; TBs decoded %d\n",
        p, sf, t, sf / t, sf / t / 1000, ok }' | tee "$out/ours_tm3_p${procs}.summary"
done
exit $status
