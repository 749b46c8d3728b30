#!/usr/bin/env bash
# Runs on the GPU host (through the device tool), from the repository root,
# with the build tree (packed by scripts/pack-build-for-gpuhost.sh into
# .devrun/, as it no longer fits the 64 MiB carry unpacked) and the GNU Radio
# bundle carried:
#   carry: [".devrun", ".gpuhost"]
#   command: bash scripts/gpuhost-check.sh [tests] [sanitize] [bench-turbo]
#            [bench-pipeline] [bench-flowgraph] [example] [ber] [bench-old-new]
#            [bench-devices] [bench-viterbi-peers] [viterbi-ber] [mimo-ber]
#            [latency] [bench-cpu-turbo] [bench-sch] [bench-cpu-sch] [bench-link] [bench-mimo-ofdm]
#            [bench-scale-out] [hybrid] [bench-lte]
# bench-viterbi-peers also needs the peers' binaries carried in .peers/
# (copied from ../shared/peers: libfec_viterbi_bench, grfec_cc_bench.py).
# Writes logs to $OUT (or ./.devout). Nothing is compiled there: binaries
# built here (nvcc 13, sm_90) run there as they are.
set -uo pipefail
# The build tree may travel packed (scripts/pack-build-for-gpuhost.sh).
if [ ! -d build ] && [ -f .devrun/build.tar.xz ]; then
    tar -xJf .devrun/build.tar.xz
fi
out=${OUT:-$PWD/.devout}
mkdir -p "$out"
root=$PWD
# ctest files name absolute paths of the build machine (/work/main/..., or
# a worktree's: the source directory the build tree was configured from).
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt 2>/dev/null)
src=${src:-/work/main}
if [ "$root" != "$src" ] && [ ! -e "$src" ]; then
    mkdir -p "$(dirname "$src")" && ln -s "$root" "$src"
fi
# The host's ctest may be a Python entry point (pip's cmake) that breaks once
# PYTHONHOME points at the bundle: resolve the real binary first.
CTEST=$(python3 -c 'import cmake, os; print(os.path.join(cmake.CMAKE_BIN_DIR, "ctest"))' 2>/dev/null || command -v ctest)
# The GNU Radio bundle is needed for ctest's Python QA and the flowgraph
# steps only; the C++ benches and sanitizer runs go without it (more room
# in the carry for the build).
have_gr=0
if [ -f .gpuhost/enter ]; then
    source .gpuhost/enter .gpuhost
    have_gr=1
fi
# The module from the build tree (what ctest's QA uses too), so the install
# tree need not travel.
export PYTHONPATH="$root/build/test_modules${PYTHONPATH:+:$PYTHONPATH}"
export LD_LIBRARY_PATH="$root/build/lib:$root/build/lib/blocks${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$root/build/apps:$PATH"
# The QA wrappers that ctest runs call /usr/bin/python3, GNU Radio's Python on
# Debian; on this host point it at the bundled one (a throwaway machine).
[ $have_gr = 1 ] && ln -sf "$GPUROOT/usr/bin/python3.11" /usr/bin/python3
export PYTHONUNBUFFERED=1
# The LTE receiver's tests and benchmarks make their signals with lte_dl_gen
# (a peer program, carried in .peers/ with lte_dl_rx, srsRAN's receiver).
[ -x .peers/lte_dl_gen ] && export GPURX_LTE_DL_GEN=$root/.peers/lte_dl_gen
# The LTE front end loads cuFFT on first use: the host's, or the one of its
# Python packages (nvidia-cufft).
if ! ldconfig -p 2>/dev/null | grep -q libcufft.so; then
    cufft_dir=$(python3 -c 'import nvidia.cufft, os; print(os.path.join(list(nvidia.cufft.__path__)[0], "lib"))' 2>/dev/null)
    [ -n "$cufft_dir" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$cufft_dir"
fi
status=0
nvidia-smi -L || true
gpurx-info | tee "$out/gpurx-info.txt"

for step in "$@"; do
  case $step in
    tests)
      (cd build && "$CTEST" --output-on-failure ${CTEST_ARGS:-} 2>&1) | tee "$out/ctest.log"
      [ "${PIPESTATUS[0]}" = 0 ] || status=1
      grep -E "tests passed|did not run|Skipped|Failed" "$out/ctest.log" || true
      ;;
    sanitize)
      for t in ${SAN_TESTS:-build/lib/tests/test_* build/lib/*/tests/test_*}; do
        [ -x "$t" ] || continue
        for tool in memcheck racecheck; do
          echo "== compute-sanitizer --tool $tool $t --cuda"
          timeout "${SAN_TIMEOUT:-240}" compute-sanitizer --tool $tool --error-exitcode 9 "$t" --cuda \
              --gtest_brief=1 > "$out/sanitize-$tool-$(basename "$t").log" 2>&1
          rc=$?
          tail -n 3 "$out/sanitize-$tool-$(basename "$t").log"
          [ $rc = 0 ] || { echo "FAILED ($rc)"; status=1; }
        done
      done
      ;;
    bench-pipeline)
      build/bench/bench_pipeline --markdown | tee "$out/bench_pipeline.md"
      ;;
    bench-lte)
      # The LTE downlink receiver against srsRAN's (lte_dl_rx) on the same
      # captures, and the GPU front end (bench_lte_grid).
      bash scripts/bench-lte-dl.sh "$out" || status=1
      [ -x build/bench/bench_lte_grid ] && build/bench/bench_lte_grid 2>&1 | tee "$out/bench_lte_grid.txt"
      ;;
    bench-turbo)
      build/bench/bench_turbo --markdown | tee "$out/bench_turbo.md"
      ;;
    bench-old-new)
      # The headline kernels of a previous commit's benchmarks (carried in
      # .devrun/old/, or packed as .devrun/old.tar.xz) and of this build,
      # alternately, in one run: turbo K=6144 scaled max-log (cuda-fixed16-dpx,
      # P=128), Viterbi K=7 int8 (cuda-thread), MIMO 4x4 16-QAM (cuda-mtt-fast,
      # cuda-lmmse), kernel only.
      [ -d .devrun/old ] || { [ -f .devrun/old.tar.xz ] && tar -xJf .devrun/old.tar.xz -C .devrun; }
      # The old benchmarks load the old libgpurx-core carried beside them
      # (.devrun/old/lib*.so*): their build tree's rpath does not exist here,
      # and this script's LD_LIBRARY_PATH would hand them this build's.
      log="$out/bench_old_new.txt"
      for d in .devrun/old build/bench; do
        lp=$LD_LIBRARY_PATH
        [ "$d" = .devrun/old ] && lp="$root/.devrun/old:$lp"
        echo "== $d: $(LD_LIBRARY_PATH=$lp ldd $d/bench_turbo 2>/dev/null | grep gpurx-core)" | tee -a "$log"
      done
      for r in ${OLD_NEW_RUNS:-1 2 3}; do
        for d in .devrun/old build/bench; do
          [ -x "$d/bench_turbo" ] || continue
          lp=$LD_LIBRARY_PATH
          [ "$d" = .devrun/old ] && lp="$root/.devrun/old:$lp"
          echo "== $d run $r" | tee -a "$log"
          LD_LIBRARY_PATH=$lp "$d/bench_turbo" --only cuda-fixed16-dpx 16 128 2>&1 | tee -a "$log"
          LD_LIBRARY_PATH=$lp "$d/bench_viterbi_gpu" --quick 2>&1 | tee -a "$log"
          for impl in cuda-mtt-fast cuda-lmmse; do
            LD_LIBRARY_PATH=$lp "$d/bench_mimo" --kernel-only --nt 4 --bits 4 --only $impl --no-cpu 2>&1 | tee -a "$log"
          done
        done
      done
      ;;
    bench-devices)
      # The host's topology first (which GPU on which NUMA node, the links
      # between them), then each benchmark's --devices mode: 1, 2, 4, 8 and
      # all GPUs in one run with the host's copy rate, the links alone and
      # all at once, kernel-bound and end-to-end figures with their ratio to
      # linear, and per device where each end-to-end run spent its time.
      # BENCH_DEVICES: which of turbo viterbi mimo sch (default all four);
      # BENCH_DEVICES_ARGS: given to each (e.g. "--device-threads 4" or
      # "--quick"). Sizes (each under about 2 minutes on 4 GPUs, most of it
      # the host survey each run repeats):
      #   turbo    K=6144, 6 iterations: 24 x SMs codewords per GPU launch,
      #            100000 codewords per GPU end to end
      #   viterbi  K=7 r1/2, 2048-bit frames, int8: 131072 frames per GPU
      #            launch; batches of 8192, 8 slots, 192 batches per GPU
      #   mimo     cuda-mtt-fast 4x4 16-QAM, N=12: 200000 channels per GPU
      #            launch; frames of 64 channels, batches of 65536 channels,
      #            3 slots, 3e9 coded bits per GPU (--e2e-bits 3e9)
      #   sch      100 cells (200 TBs of 75376 bits) per GPU launch and per
      #            batch, 4 slots, 128 batches per GPU, 6 full iterations
      {
        echo "== nvidia-smi topo -m"
        nvidia-smi topo -m 2>&1 || true
        echo "== lscpu (NUMA)"
        lscpu 2>/dev/null | grep -E "^(CPU\(s\)|Model name|Socket|Core|Thread|NUMA|L3)" || true
        echo "== GPU -> NUMA node (sysfs)"
        for bus in $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader 2>/dev/null); do
          b=$(echo "$bus" | tr 'A-F' 'a-f' | sed 's/^0000\(....:\)/\1/')
          echo "$bus numa_node=$(cat /sys/bus/pci/devices/$b/numa_node 2>/dev/null || echo '?')" \
               "local_cpulist=$(cat /sys/bus/pci/devices/$b/local_cpulist 2>/dev/null || echo '?')" \
               "link=$(cat /sys/bus/pci/devices/$b/current_link_speed 2>/dev/null || echo '?') x$(cat /sys/bus/pci/devices/$b/current_link_width 2>/dev/null || echo '?')"
        done
        echo "== memory"
        grep -E "MemTotal|Hugepagesize" /proc/meminfo || true
        nvidia-smi -q -d MEMORY 2>/dev/null | grep -iE "bar1|total" | head -4 || true
      } 2>&1 | tee "$out/topology.txt"
      for b in ${BENCH_DEVICES:-turbo viterbi mimo sch}; do
        case $b in
          turbo) cmd=(build/bench/bench_turbo --devices); log=bench_devices.md ;;
          viterbi) cmd=(build/bench/bench_viterbi_gpu --devices); log=bench_devices_viterbi.md ;;
          mimo) cmd=(build/bench/bench_mimo --devices --e2e-bits 3e9); log=bench_devices_mimo.md ;;
          sch) cmd=(build/bench/bench_lte_sch --devices --slots=4); log=bench_devices_sch.md ;;
          *) echo "bench-devices: unknown benchmark $b (turbo viterbi mimo sch)"; status=1; continue ;;
        esac
        echo "== ${cmd[*]} ${BENCH_DEVICES_ARGS:-}" | tee -a "$out/bench_devices_times.txt"
        t0=$SECONDS
        # shellcheck disable=SC2086 # BENCH_DEVICES_ARGS: several words
        "${cmd[@]}" ${BENCH_DEVICES_ARGS:-} 2>&1 | tee "$out/$log"
        rc=${PIPESTATUS[0]}
        echo "$b: exit $rc, $((SECONDS - t0)) s" | tee -a "$out/bench_devices_times.txt"
        [ "$rc" = 0 ] || status=1
      done
      ;;
    bench-flowgraph)
      python3 bench/bench_flowgraph.py --backend cuda | tee "$out/bench_flowgraph.md"
      ;;
    example)
      python3 examples/lte_turbo_ber.py --K 6144 --frames 2000 --ebn0 1.2 --backend cuda --check | tee "$out/example.txt"
      ;;
    ber)
      timeout "${BER_TIMEOUT:-3000}" build/apps/gpurx-turbo-ber --backend cuda --table \
          --min-frame-errors "${BER_MIN_FE:-60}" --max-frames "${BER_MAX_FRAMES:-12000}" \
          --csv "$out/ber.csv" ${BER_ARGS:-} | tee "$out/ber.md"
      ;;
    bench-viterbi-peers)
      # Viterbi K=7 r1/2 2048-bit frames, Eb/N0 4 dB, in one session: Karn's
      # libfec (SSE2 and portable), gr-fec's cc_decoder (float through
      # extended_decoder, and pre-quantised bytes) and gr-gpurx's CPU backend,
      # each on one pinned core (taskset -c 2) and on 16 threads/chains.
      secs=${PEER_SECONDS:-5}
      log="$out/bench_viterbi_peers.txt"
      : > "$log"
      if [ ! -x .peers/libfec_viterbi_bench ] || [ ! -f .peers/grfec_cc_bench.py ]; then
        echo "bench-viterbi-peers: carry .peers/ (libfec_viterbi_bench, grfec_cc_bench.py from ../shared/peers)"
        status=1
      else
        for v in sse2 port; do
          echo "== libfec $v, 1 core" | tee -a "$log"
          taskset -c 2 .peers/libfec_viterbi_bench 1 "$secs" 2048 4.0 "$v" 2>&1 | tee -a "$log"
          echo "== libfec $v, 16 threads" | tee -a "$log"
          .peers/libfec_viterbi_bench 16 "$secs" 2048 4.0 "$v" 2>&1 | tee -a "$log"
        done
        for v in ext raw; do
          echo "== gr-fec cc_decoder $v, 1 core" | tee -a "$log"
          taskset -c 2 python3 .peers/grfec_cc_bench.py 1 "$secs" 4.0 "$v" 2>&1 | tee -a "$log"
          echo "== gr-fec cc_decoder $v, 16 chains" | tee -a "$log"
          python3 .peers/grfec_cc_bench.py 16 "$secs" 4.0 "$v" 2>&1 | tee -a "$log"
        done
        # bench_viterbi's cpu-reference rows: all cores (16) and 1 worker;
        # pinned to core 2, its "all cores" row is the 1-core figure.
        echo "== gr-gpurx bench_viterbi, 16 threads" | tee -a "$log"
        build/bench/bench_viterbi 2>&1 | tee -a "$log"
        echo "== gr-gpurx bench_viterbi, 1 core (taskset -c 2)" | tee -a "$log"
        taskset -c 2 build/bench/bench_viterbi --quick 2>&1 | tee -a "$log"
        echo "== gr-gpurx vs gr-fec in flowgraphs (cuda, then cpu 16 threads vs 16 chains)" | tee -a "$log"
        python3 bench/bench_viterbi_grfec.py --backend cuda --mbit 200 2>&1 | grep -v ':warning:' | tee -a "$log"
        python3 bench/bench_viterbi_grfec.py --backend cpu --chains 16 --mbit 20 2>&1 | grep -v ':warning:' | tee -a "$log"
      fi
      ;;
    viterbi-ber)
      # The precise BER curves of docs/viterbi-ber.md on CUDA: K=7, K=5, K=9,
      # soft input, 2048-bit frames, 200 frame errors per point.
      for c in "k7 0:5:0.25" "gsm 0:6:0.25" "k9 0:4.5:0.25"; do
        read -r code range <<< "$c"
        timeout "${VBER_TIMEOUT:-900}" build/apps/gpurx-viterbi-ber --code "$code" --backend cuda --ebn0 "$range" \
            --min-frame-errors "${VBER_MIN_FE:-200}" --max-frames "${VBER_MAX_FRAMES:-2000000}" --quiet \
            --csv "$out/viterbi-ber-$code.csv" | tee "$out/viterbi-ber-$code.md"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
      done
      ;;
    mimo-ber)
      # The coded BER curves of docs/mimo-coded-ber.md on CUDA: LTE turbo
      # K=6144 rate 1/3, 6 iterations, i.i.d. Rayleigh, a channel per 12
      # vectors; 4x4 16-QAM (mtt, kbest16, one-pass, lmmse; ml on its own
      # with fewer blocks: 65536 candidates per vector) and 2x2 64-QAM (mtt
      # vs ml). One CSV per run, a curve per detector, written point by point,
      # so a run stopped by MBER_TIMEOUT keeps the points it finished.
      fe=${MBER_MIN_FE:-100}
      runs=(
        "4x4-16qam|${MBER_MAX_BLOCKS:-20000}|--nt 4 --nr 4 --modulation 16qam --algorithm mtt,kbest,one-pass,lmmse --ebn0 ${MBER_4X4_EBN0:-0:7:0.25}"
        "4x4-16qam-ml|${MBER_ML_MAX_BLOCKS:-3000}|--nt 4 --nr 4 --modulation 16qam --algorithm ml --ebn0 ${MBER_4X4_ML_EBN0:-0:4:0.25}"
        "2x2-64qam|${MBER_MAX_BLOCKS:-20000}|--nt 2 --nr 2 --modulation 64qam --algorithm mtt,ml --ebn0 ${MBER_2X2_EBN0:-4:11:0.25}"
      )
      for r in "${runs[@]}"; do
        IFS='|' read -r name mb args <<< "$r"
        # shellcheck disable=SC2086 # args is a list of options
        timeout "${MBER_TIMEOUT:-300}" build/apps/gpurx-mimo-ber --backend cuda $args \
            --min-block-errors "$fe" --max-blocks "$mb" --quiet \
            --csv "$out/mimo-ber-$name.csv" | tee "$out/mimo-ber-$name.md"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
      done
      ;;
    latency)
      # docs/latency.md's GPU table: TTIs of 1 ms posted to the PDU decoder.
      for args in "--K 6144 --per-tti 1 --settings 1:3:0 4:3:200 16:3:1000" \
                  "--K 6144 --per-tti 13 --settings 1:3:0 16:3:0 16:3:200 64:3:1000" \
                  "--K 1024 --per-tti 4 --settings 1:3:0 4:3:0 4:3:200 64:3:1000" \
                  "--K 40 --per-tti 1 --tti-us 5000 --ttis 100 --settings 1:3:0"; do
        echo "== latency_turbo.py --backend cuda $args"
        /usr/bin/python3 bench/latency_turbo.py --backend cuda $args 2>&1 | tee -a "$out/latency.md"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
      done
      ;;
    bench-cpu-turbo)
      # docs/benchmarks.md, CPU turbo decoder against srsRAN 4G (carried in
      # .peers/, never shipped): K=6144 and 1024, 6 iterations, 1.0 dB, one
      # round alternating the two per thread count; 1 and 2 threads pinned.
      [ -x .peers/srsran_turbo_bench ] || { echo ".peers/srsran_turbo_bench not carried"; status=1; }
      for K in 6144 1024; do
        for T in 1 2 16; do
          pin=""; [ $T = 1 ] && pin="taskset -c 2"; [ $T = 2 ] && pin="taskset -c 2,3"
          for r in 1 2; do
            echo "== K=$K threads=$T round $r: srsRAN"
            $pin .peers/srsran_turbo_bench $T 4 $K 6 1.0 2>&1 | tail -n 2 | tee -a "$out/bench_cpu_turbo.txt"
            echo "== K=$K threads=$T round $r: gr-gpurx"
            $pin build/bench/bench_turbo_cpu --threads $T --seconds 4 --K $K 2>&1 | tail -n 2 | tee -a "$out/bench_cpu_turbo.txt"
          done
        done
      done
      ;;
    bench-sch)
      # docs/benchmarks.md, the LTE transport decoder on the GPU: kernel only
      # and end to end, 100 cells per launch, once per count of batches in
      # flight in SCH_SLOTS (4).
      for s in ${SCH_SLOTS:-4}; do
        echo "== bench_lte_sch --gpu --cells=100 --esn0-et=4.3 --slots=$s" | tee -a "$out/bench_sch.txt"
        build/bench/bench_lte_sch --gpu --cells=100 --esn0-et=4.3 --slots=$s 2>&1 | tee -a "$out/bench_sch.txt"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
      done
      ;;
    bench-cpu-sch)
      # docs/benchmarks.md, the CPU DL-SCH decoder against srsRAN 4G's
      # (carried in .peers/, never shipped) on one pinned core, srsRAN at 12
      # and 6 half iterations (6 and 3 full), two rounds.
      [ -x .peers/srsran_dlsch_bench ] || { echo ".peers/srsran_dlsch_bench not carried"; status=1; }
      for r in 1 2; do
        echo "== round $r: taskset -c 3 bench_lte_sch --cpu --peer=.peers/srsran_dlsch_bench --peer-half-iterations=12,6 --seconds=4" | tee -a "$out/bench_cpu_sch.txt"
        taskset -c 3 build/bench/bench_lte_sch --cpu --peer=.peers/srsran_dlsch_bench --peer-half-iterations=12,6 --seconds=4 2>&1 | tee -a "$out/bench_cpu_sch.txt"
      done
      ;;
    bench-link)
      # docs/radio-link.md: the packet link's receiver without a throttle,
      # decoder on CUDA and on the CPU, QPSK and 16-QAM.
      for m in qpsk 16qam; do
        for b in cuda cpu; do
          echo "== $m, decoder backend $b" | tee -a "$out/bench_link.txt"
          PYTHONPATH="bench:$PYTHONPATH" python3 bench/bench_packet_link_rx.py --modulation $m --backend $b \
              --bursts 500 --repeats 8 2>&1 | grep -v ":debug\|:info" | tee -a "$out/bench_link.txt"
          [ "${PIPESTATUS[0]}" = 0 ] || status=1
        done
      done
      ;;
    bench-mimo-ofdm)
      # docs/mimo-ofdm.md: the MIMO-OFDM link's receiver without a throttle,
      # detector and decoder on CUDA and on the CPU.
      # Then a 20 MHz LTE-like numerology: 2048-point FFT, CP 144, 1200
      # used subcarriers, 8000-byte transport blocks (14 data symbols).
      for b in cuda cpu; do
        echo "== 2x2 16-QAM, FFT 64, backend $b" | tee -a "$out/bench_mimo_ofdm.txt"
        PYTHONPATH="bench:$PYTHONPATH" python3 bench/bench_mimo_ofdm_rx.py --backend $b --frames 300 --repeats 4 \
            2>&1 | grep -v ":debug\|:info" | tee -a "$out/bench_mimo_ofdm.txt"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
        echo "== 2x2 16-QAM, FFT 2048 (20 MHz), backend $b" | tee -a "$out/bench_mimo_ofdm.txt"
        PYTHONPATH="bench:$PYTHONPATH" python3 bench/bench_mimo_ofdm_rx.py --backend $b --frames 120 --repeats 3 \
            --fft-len 2048 --cp-len 144 --used 1200 --payload-bytes 8000 \
            2>&1 | grep -v ":debug\|:info" | tee -a "$out/bench_mimo_ofdm.txt"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
      done
      ;;
    bench-scale-out)
      # docs/scale-out.md: transport blocks a second through worker processes
      # (front end, ZMQ, workers and collector all on this host) against one
      # in-process decoder, on heavy traffic (TBS 75376 in 86400 int8 LLRs,
      # 6 iterations fixed) where the decoders, not the Python front end and
      # collector, are the bound; every output checked (all decoded, in
      # order, bit-exact), figures above workers x the in-process rate x 1.1
      # refused. CPU workers with SCALE_THREADS (1) threads each, counts
      # SCALE_WORKERS (1,2,3,4,8); then CUDA workers: one on GPU 0, one per
      # GPU of BENCH_DEVICES (0,1), and one over all of them (a decoder per
      # GPU, keys routed to a fixed one; --devices all where BENCH_DEVICES
      # is every GPU of the host). SCALE_N transmissions
      # per run (CPU 12000, CUDA 30000).
      # SCALE_CUDA=0 skips the CUDA workers, SCALE_WORKER_COST=0 the cost
      # of one worker. The CPU rows include the control: k in-process
      # decoders at once, a process each (the host's own scaling), each
      # count SCALE_REPEAT (1) rounds of control then workers.
      # SCALE_HUGETLB (1): every process of the bench (the in-process
      # decoder, the control, front end, workers, collector) runs with
      # GLIBC_TUNABLES=glibc.malloc.hugetlb=$SCALE_HUGETLB: 1 is what
      # gpurx-worker asks for itself, 0 keeps glibc's 4 kB pages everywhere
      # (the workers keep a value they are given).
      tunables="glibc.malloc.hugetlb=${SCALE_HUGETLB:-1}"
      log="$out/bench_scale_out.txt"
      { echo "== host"; lscpu | grep -E "^(CPU\(s\)|Thread|Core|Socket|NUMA node|Model name)";
        echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)";
        echo "GLIBC_TUNABLES=$tunables"; } | tee -a "$log"
      echo "== CPU workers" | tee -a "$log"
      GLIBC_TUNABLES=$tunables GPURX_TEST_BACKEND=cpu python3 python/gpurx/qa_scale_out.py --bench --traffic heavy \
          --transmissions "${SCALE_N:-12000}" --threads "${SCALE_THREADS:-1}" \
          --workers "${SCALE_WORKERS:-1,2,3,4,8}" --repeat "${SCALE_REPEAT:-1}" 2>&1 | grep -v ":info\|:debug" | tee -a "$log"
      [ "${PIPESTATUS[0]}" = 0 ] || status=1
      [ "${SCALE_CUDA:-1}" = 0 ] || {
      echo "== CUDA workers" | tee -a "$log"
      GLIBC_TUNABLES=$tunables GPURX_TEST_BACKEND=cuda python3 python/gpurx/qa_scale_out.py --bench --traffic heavy \
          --transmissions "${SCALE_N:-30000}" --devices "${BENCH_DEVICES:-0,1}" 2>&1 \
          | grep -v ":info\|:debug" | tee -a "$log"
      [ "${PIPESTATUS[0]}" = 0 ] || status=1
      }
      [ "${SCALE_WORKER_COST:-1}" = 0 ] && continue
      # One worker's CPU time per TB against the in-process decoder's (fed
      # and drained by plain pyzmq sockets: docs/scale-out.md, "Cost of a
      # worker").
      echo "== one CPU worker's CPU per TB" | tee -a "$log"
      if python3 -c "import zmq" 2>/dev/null; then
          GLIBC_TUNABLES=$tunables python3 bench/bench_scale_out_worker.py --transmissions 3000 --runs 3 2>&1 \
              | grep -v ":info\|:debug" | tee -a "$log"
          [ "${PIPESTATUS[0]}" = 0 ] || status=1
      else
          echo "skipped: no pyzmq (python3-zmq)" | tee -a "$log"
      fi
      ;;
    hybrid)
      # Would CPU workers beside the GPU add throughput? The GPU pipeline end
      # to end alone, then with the CPU decoder on 12 of the 16 cores at the
      # same time (4 left for the pipeline's staging threads).
      echo "== GPU alone" | tee -a "$out/hybrid.txt"
      build/bench/bench_turbo --e2e 8 2>&1 | tee -a "$out/hybrid.txt"
      echo "== GPU with bench_turbo_cpu --threads 12 beside it" | tee -a "$out/hybrid.txt"
      build/bench/bench_turbo_cpu --threads 12 --seconds 15 --K 6144 > "$out/hybrid_cpu.txt" 2>&1 &
      cpu_pid=$!
      sleep 2
      build/bench/bench_turbo --e2e 8 2>&1 | tee -a "$out/hybrid.txt"
      wait $cpu_pid
      tail -n 3 "$out/hybrid_cpu.txt" | tee -a "$out/hybrid.txt"
      echo "== CPU alone, 12 threads" | tee -a "$out/hybrid.txt"
      build/bench/bench_turbo_cpu --threads 12 --seconds 5 --K 6144 2>&1 | tail -n 3 | tee -a "$out/hybrid.txt"
      ;;
    *) echo "unknown step $step"; status=1 ;;
  esac
done
exit $status
