#!/usr/bin/env bash
# ASan + UBSan over the CPU cases of the core's C++ tests (no GPU needed).
#   scripts/sanitize-cpu.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-asan}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -O1"
cmake -S . -B "$b" -DENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
tests="test_backend test_pipeline test_worker_pool test_agreement test_lte_code test_turbo_decoder
       test_viterbi_code test_viterbi_decoders test_mimo_qam test_mimo_qr test_mimo_detectors test_mimo_config"
make -C "$b" -j"$(nproc)" $tests >/dev/null
for t in $tests; do
    echo "== $t"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$(find "$b/lib" -name "$t" -type f -perm -u+x | head -1)" --gtest_brief=1
done
