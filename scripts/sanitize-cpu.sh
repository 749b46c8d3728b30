#!/usr/bin/env bash
# ASan + UBSan over the CPU cases of every C++ test program of the core (no
# GPU needed; the CUDA cases report themselves skipped). The programs are
# read from the gpurx_add_test() lines, so a new test is covered without
# editing this list (lib/lte/<step>/tests included); SAN_TESTS="test_a
# test_b" runs those alone.
#   scripts/sanitize-cpu.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-asan}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -O1"
cmake -S . -B "$b" -DENABLE_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
tests=${SAN_TESTS:-$(grep -ho '^gpurx_add_test(test_[a-z0-9_]*' lib/tests/CMakeLists.txt lib/*/tests/CMakeLists.txt lib/*/*/tests/CMakeLists.txt |
        sed 's/.*(//' | sort -u)}
make -C "$b" -j"$(nproc)" $tests >/dev/null
failed=""
for t in $tests; do
    echo "== $t"
    rc=0
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$(find "$b/lib" -name "$t" -type f -perm -u+x | head -1)" --gtest_brief=1 || rc=$?
    # 77: the program has no CPU cases (ctest's skip code), not a failure.
    [ $rc = 0 ] || [ $rc = 77 ] || failed="$failed $t"
done
if [ -n "$failed" ]; then
    echo "sanitize-cpu: failed or reported:$failed"
    exit 1
fi
echo "sanitize-cpu: every program above ran without a sanitizer report"
