#!/usr/bin/env bash
# run.sh - the whole test suite behind `make test`:
#   1. native build and run: every group on every x86 backend this CPU has (a backend it
#      lacks, such as avx512, is reported as skipped), plus NEON through SIMDe, and the
#      particle example built and run small; on a CPU without AVX-512, the avx512 kernels
#      built through SIMDe (AVX-512F emulated on AVX2) in a test program of their own;
#   2. TOI_BACKEND overrides (dispatch only);
#   3. the aarch64 cross-build run under qemu-aarch64, where dispatch must pick neon;
#   4. the x86 build under qemu-x86_64 CPU models: core2duo -> scalar, Nehalem -> sse,
#      Haswell -> avx2, and Skylake-Server -> avx2: that model has AVX-512, which qemu's TCG
#      does not execute and removes from the CPUID it reports, so dispatch must see it
#      missing (qemu, like valgrind, cannot run the avx512 backend; only a real CPU does;
#      that model runs the dispatch and golden groups, its kernels being Haswell's; the
#      models leave the guard-page and particle groups to the native run);
#   5. make install into a staging directory, and an outside program built with pkg-config;
#      the CMake build: its library's golden hashes, add_subdirectory and find_package
#      consumers, and the same installed files as make install (tests/cmake_check.sh);
#   6. the reliability checks: exported symbols, -Werror builds, cppcheck, AddressSanitizer +
#      UBSan, valgrind memcheck, ThreadSanitizer, a fuzz smoke run (TOI_CHECKS=0 skips them).
# Every run prints "N passed, N failed"; this script sums them into the last line.
set -u
cd "$(dirname "$0")/.."

JOBS=${JOBS:-2}
NATIVE=$(${CC:-cc} -dumpmachine)
CROSS=aarch64-linux-gnu
LOGS=build/test-logs
mkdir -p "$LOGS"
passed=0
failed=0

logname() { printf '%s/%s.log' "$LOGS" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_')"; }

# run LABEL ENV... COMMAND...: run a test binary, show its failures, add up its counts
run() {
    local log
    log=$(logname "$1")
    echo "== $1"
    exec_logged "$log" env "${@:2}"
    report "$1"
}

# exec_logged LOG COMMAND...: run it into LOG; its exit status and seconds into LOG.rc
exec_logged() {
    local log=$1 t0=$SECONDS
    shift
    "$@" >"$log" 2>&1
    echo "$? $((SECONDS - t0))" >"$log.rc"
}

# background LABEL ENV... COMMAND...: `run` in the background, reported by `collect`. The test
# binaries run on one core (the thread groups aside): two of them side by side, or one beside a
# build, use both of CI's cores.
# background_step LABEL COMMAND...: `step` in the background, reported by `collect` too.
bg_labels=()
bg_kinds=()
background() {
    exec_logged "$(logname "$1")" env "${@:2}" &
    bg_labels+=("$1")
    bg_kinds+=(run)
}
background_step() {
    exec_logged "$(logname "$1")" "${@:2}" &
    bg_labels+=("$1")
    bg_kinds+=(step)
}
collect() {
    wait
    local i label
    for i in "${!bg_labels[@]}"; do
        label=${bg_labels[$i]}
        if [ "${bg_kinds[$i]}" = run ]; then
            echo "== $label (ran in the background)"
            report "$label"
        else
            step_report "$label" "(ran in the background)"
        fi
    done
    bg_labels=()
    bg_kinds=()
}

# report LABEL: show a finished run's failures and time, add up its counts
report() {
    local log rc secs
    log=$(logname "$1")
    read -r rc secs <"$log.rc"
    echo "   ($secs s)"
    grep -v -e '^ok ' -e '^    .*bit-identical$' -e "TCG doesn't support requested feature" "$log" | sed 's/^/   /'
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        local p f
        p=${line%% passed*}
        f=${line#*passed, }
        f=${f%% failed}
        passed=$((passed + p))
        failed=$((failed + f))
        if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
            echo "   (exit status $rc)"
            failed=$((failed + 1))
        fi
    else
        echo "   (no result line: exit status $rc; see $log)"
        failed=$((failed + 1))
    fi
}

# step LABEL COMMAND...: a build or check step that counts as one test
step() {
    exec_logged "$(logname "$1")" "${@:2}"
    step_report "$1"
}
step_report() { # step_report LABEL [NOTE]
    local log rc secs
    log=$(logname "$1")
    read -r rc secs <"$log.rc"
    if [ "$rc" = 0 ]; then
        passed=$((passed + 1))
        echo "== $1: ok ($secs s)${2:+ $2}"
    else
        failed=$((failed + 1))
        echo "== $1: FAILED${2:+ $2}"
        tail -n 30 "$log" | sed 's/^/   /'
    fi
}

# 1. native
# (-Werror: these builds are also the warning checks for gcc and the aarch64 gcc; step 6's
#  sanitizer build is clang's)
step "build ($NATIVE, -Werror)" make -j"$JOBS" CFLAGS=-Werror lib tests-bin
BIN=build/$NATIVE/toi_tests
# The native run (one core, 71 s of CI's 22 minutes with nothing beside it) goes on in the
# background, beside the builds and runs that follow; what dispatch picked and what this CPU
# has (for step 2) come from a run of the dispatch group first.
run "dispatch, $NATIVE" TOI_TEST_GROUPS=dispatch "$BIN"
native_log=$(logname "dispatch, $NATIVE")
background "tests, $NATIVE" "$BIN"
best=$(sed -n 's/^toi .* tests: dispatch picked \([a-z0-9]*\);.*/\1/p' "$native_log")
available=$(sed -n 's/^ *dispatch picked .*available:\(.*\)$/\1 /p' "$native_log")

# 1b. the particle example (needs the triangle queries and libpng): builds, runs small, no
#     sphere escapes (its exit status)
if grep -q toi_sweep_sphere_triangle_pairs include/toi.h; then
    step "examples/particles.c builds and runs" sh -c "make -j$JOBS build/$NATIVE/particles &&
        build/$NATIVE/particles -n 2000 -t 30 -o $LOGS/particles.png"
fi
# 1c. the character example: builds, walks 500 capsules for 100 steps over the terrain of
#     assimp-testmodels; none may sink into it (its exit status)
if grep -q toi_sweep_capsules_mesh include/toi.h; then
    step "examples/characters.c builds and runs" sh -c "make -j$JOBS build/$NATIVE/characters &&
        build/$NATIVE/characters -m /usr/share/assimp/models/TER/RealisticTerrain.ter \
            -n 500 -t 100 -o $LOGS/characters.png"
fi

# 1d. the avx512 kernels where the CPU lacks AVX-512 (qemu and valgrind cannot run them
#     either): built through SIMDe, AVX-512F emulated on AVX2 (src/avx512/simde_compat.h),
#     into a test program of their own, run beside the scalar reference in the background:
#     every group that calls a kernel table (the accuracy, particle and thread groups test
#     the scalar reference or the API's backends only) at a quarter of the random counts,
#     since the emulation runs 10 to 40 times slower than the avx2 kernels, except the guard
#     pages: through the emulation they took 59 of the run's 75 s, and with them the run
#     added 2.5 minutes to CI's 2 cores. `make test-avx512-simde` runs every group at full
#     counts. Where the CPU has AVX-512 the native run tests the avx512 backend itself, and
#     this is skipped.
case "$NATIVE" in
x86_64-*)
    if grep -qw avx2 /proc/cpuinfo && ! grep -qw avx512f /proc/cpuinfo; then
        step "build of the avx512 kernels through SIMDe (-Werror)" \
            make -j"$JOBS" CFLAGS=-Werror "build/$NATIVE/toi_tests_avx512simde"
        background "tests, avx512 kernels through SIMDe (TOI_TEST_SCALE=0.25)" \
            TOI_TEST_IMPLS=avx512-simde TOI_TEST_SKIP=accuracy,particles,threads,guard \
            TOI_TEST_SCALE=0.25 "build/$NATIVE/toi_tests_avx512simde"
    fi
    ;;
esac

# 2. TOI_BACKEND overrides: an available backend is used; anything else falls back to the best
for b in scalar sse avx2 avx512 neon bogus; do
    if [ "${available/ $b /}" != "$available" ]; then
        expect=$b
    else
        expect=$best
    fi
    run "TOI_BACKEND=$b picks $expect" TOI_BACKEND=$b TOI_TEST_EXPECT="$expect" \
        TOI_TEST_GROUPS=dispatch "$BIN"
done

# 3. aarch64 under qemu: the whole suite, neon must be picked, at 15 % of the random counts
#    (emulation; the native run checks the same NEON kernel bodies through SIMDe at full
#    counts; 30 % took 530 s of CI's CPU, 15 % 337 s), and the long-double oracle is
#    software quad precision there, so the accuracy group runs a smaller sample still. The
#    run goes on in the background beside steps 4-6 (collected at the end).
if [ "$NATIVE" != "$CROSS" ]; then
    step "build ($CROSS, -Werror)" make -j"$JOBS" CC=$CROSS-gcc CFLAGS=-Werror lib tests-bin
    run "TOI_BACKEND=scalar on $CROSS" TOI_BACKEND=scalar TOI_TEST_EXPECT=scalar \
        TOI_TEST_GROUPS=dispatch qemu-aarch64 -L /usr/$CROSS "build/$CROSS/toi_tests"
    background "tests, $CROSS under qemu-aarch64 (TOI_TEST_SCALE=0.15)" TOI_TEST_EXPECT=neon \
        TOI_TEST_SCALE=0.15 TOI_TEST_ACCURACY_SCALE=0.03 \
        qemu-aarch64 -L /usr/$CROSS "build/$CROSS/toi_tests"
fi

# 4. x86 CPU models under qemu: dispatch picks the best each supports, nothing faults
case "$NATIVE" in
x86_64-*)
    # Each model runs the groups that prove dispatch and that the kernels it must pick run
    # there with the right bits: dispatch, the contract cases, the differential batches (every
    # batch size and tail) and the golden hashes. Skylake-Server runs dispatch and golden only:
    # its avx2 kernels are the Haswell run's. The other groups (the long-double oracle,
    # magnitude, threads, fuzz replay, guard pages, particles) test the same machine code the
    # native run does: under qemu they were more than half of each model's time. Each model
    # tests the backend it must pick beside the scalar reference (TOI_TEST_IMPLS): the other
    # backends' machine code is the same on every model (sse runs under Nehalem, NEON through
    # SIMDe and every backend at full counts in the native run), and emulated they took about
    # half of the models' 6 minutes.
    for m in core2duo:scalar:0.05:dispatch,contract,differential,golden \
             Nehalem:sse:0.05:dispatch,contract,differential,golden \
             Haswell:avx2:0.05:dispatch,contract,differential,golden \
             Skylake-Server:avx2:0.01:dispatch,golden; do
        IFS=: read -r model expect scale groups <<<"$m"
        run "tests under qemu-x86_64 -cpu $model (expects $expect)" \
            TOI_TEST_EXPECT="$expect" TOI_TEST_IMPLS="$expect" TOI_TEST_SCALE="$scale" \
            TOI_TEST_GROUPS="$groups" qemu-x86_64 -cpu "$model" "$BIN"
    done
    ;;
esac

# 5. install, then build and run an outside program with pkg-config
install_check() {
    local stage=build/install-check
    rm -rf "$stage"
    make install DESTDIR="$PWD/$stage/root" PREFIX=/usr/local &&
        test -f "$stage/root/usr/local/include/toi.h" &&
        test -f "$stage/root/usr/local/lib/libtoi.a" &&
        test -f "$stage/root/usr/local/lib/libtoi.so" &&
        test -f "$stage/root/usr/local/lib/pkgconfig/toi.pc" &&
        PKG_CONFIG_PATH="$PWD/$stage/root/usr/local/lib/pkgconfig" \
            PKG_CONFIG_SYSROOT_DIR="$PWD/$stage/root" \
            sh -c 'cc -std=c11 -Wall -Werror -o build/install-check/outside examples/quickstart.c \
                   $(pkg-config --cflags --libs toi) -lm' &&
        LD_LIBRARY_PATH="$PWD/$stage/root/usr/local/lib" build/install-check/outside
}
step "make install + pkg-config build of examples/quickstart.c" install_check

# 5b. CMake: the same library (golden hashes), add_subdirectory and find_package consumers,
#     cmake --install and make install writing the same files (tests/cmake_check.sh)
run "CMake build and consumers" tests/cmake_check.sh

# 6. reliability and hygiene checks (docs/testing.md: "Reliability"), each one test; TOI_CHECKS=0 skips
if [ "${TOI_CHECKS:-1}" != 0 ]; then
    # sizes chosen to keep the whole of make test well inside CI's budget on 2 cores; the
    # targets' own defaults (docs/testing.md) run more
    # (-j: their builds - five backends each, sanitizer and fuzzer instrumented - run on
    # every core; valgrind, one process, runs in the background beside them)
    # (valgrind leaves out the particle and golden groups here, 41 s and 35 s of its 172 s
    #  avx2 run: fixed-size work that the native run, AddressSanitizer + UBSan and every
    #  backend's run still check; `make test-valgrind` alone runs them)
    background_step "make test-valgrind (TOI_TEST_SCALE=0.02)" make --no-print-directory \
        test-valgrind TOI_TEST_SCALE=0.02 VALGRIND_SKIP=guard,threads,particles,golden
    step "make check-exports" make --no-print-directory check-exports
    step "make cppcheck" make --no-print-directory cppcheck
    # (clang: its objects are the fuzz targets', so the fuzz step builds no library again.
    #  -Werror: this build is also clang's warning check, as steps 1 and 3 are gcc's and the
    #  aarch64 gcc's - clang's warnings come from its front end, the same at -O1 as at -O2)
    step "make test-sanitize (clang, -Werror, TOI_TEST_SCALE=0.1)" make --no-print-directory \
        -j"$JOBS" test-sanitize SAN_CC=clang CFLAGS=-Werror TOI_TEST_SCALE=0.1
    step "make test-tsan" make --no-print-directory -j"$JOBS" test-tsan
    step "make fuzz-smoke (6 s per family)" make --no-print-directory -j"$JOBS" fuzz-smoke \
        FUZZ_SMOKE_SECONDS=6
fi

collect
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
