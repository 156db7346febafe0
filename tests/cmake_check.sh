#!/usr/bin/env bash
# cmake_check.sh - the CMake build (CMakeLists.txt) as a consumer sees it; run by tests/run.sh
# after the native test run (it links that run's test objects). It checks:
#   1. add_subdirectory(toi) + target_link_libraries(app PRIVATE toi::toi) builds
#      examples/quickstart.c, which prints what the Makefile-built quickstart prints;
#   2. that library, built by CMake, returns the golden hashes of the Makefile's (the test
#      runner, linked against CMake's libtoi.a, runs the golden groups on every backend): the
#      same sources and the same flags give the same bits;
#   3. cmake --install of that build (the consumer asks for toi's install rules with
#      TOI_INSTALL=ON, which a top-level build of toi has by default: checked on a top-level
#      configure), then find_package(toi <version> CONFIG) from a consumer project, with
#      the static (toi::toi) and the shared (toi::shared) library; an incompatible version
#      request is refused;
#   4. make install writes the same files (the same names, the same header, pkg-config and
#      CMake package files, libraries exporting the same symbols), and find_package works on
#      its tree too.
# CMake compiles the library once (the add_subdirectory build serves checks 1 to 3): each
# build of it takes about 3 CPU minutes, the box and capsule kernels most of them.
# Prints "ok ..." / "FAIL ..." per check and ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build/$(${CC:-cc} -dumpmachine)}
W=$ROOT/build/cmake-check
rm -rf "$W"
mkdir -p "$W"
VERSION=$(sed -n 's/^#define TOI_VERSION_STRING "\(.*\)"/\1/p' include/toi.h)
passed=0
failed=0
check() { # check NAME COMMAND...: one check; its output goes to $W/NAME.log
    local name=$1 log
    shift
    log=$W/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_').log
    if "$@" >"$log" 2>&1; then
        echo "ok $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name (log: ${log#"$ROOT"/})"
        tail -n 20 "$log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}
cmake_build() { # cmake_build SRC BIN [ARGS...]: configure and build quietly
    local src=$1 bin=$2
    shift 2
    cmake -S "$src" -B "$bin" -DCMAKE_BUILD_TYPE=Release "$@" && cmake --build "$bin" -j 2
}

# The reference output: quickstart built by the Makefile's library.
reference() {
    cc -std=c11 -Wall -Werror -Iinclude -o "$W/quickstart-make" examples/quickstart.c \
        "$BUILD/libtoi.a" -lm && "$W/quickstart-make" >"$W/quickstart.expected"
}
check "quickstart built with the Makefile's library" reference

# 1. add_subdirectory, the consumer asking for toi's install rules (checks 2 and 3 use its build)
sub() {
    mkdir -p "$W/sub" &&
        cat >"$W/sub/CMakeLists.txt" <<EOT &&
cmake_minimum_required(VERSION 3.16)
project(consumer C)
add_subdirectory("$ROOT" toi)
add_executable(quickstart "$ROOT/examples/quickstart.c")
target_link_libraries(quickstart PRIVATE toi::toi)
EOT
        cmake_build "$W/sub" "$W/sub/build" -DTOI_INSTALL=ON -DCMAKE_INSTALL_PREFIX=/usr/local &&
        "$W/sub/build/quickstart" >"$W/sub/out" && diff "$W/quickstart.expected" "$W/sub/out"
}
check "add_subdirectory(toi) + toi::toi builds and runs examples/quickstart.c" sub

# 2. CMake's library (add_subdirectory's, above), the Makefile's golden hashes
golden() {
    test -f "$W/sub/build/toi/libtoi.a" &&
        make --no-print-directory tests-with-lib WITH_LIB="$W/sub/build/toi/libtoi.a" \
            WITH_OUT="$W/toi_tests_cmake" &&
        TOI_TEST_GROUPS=golden "$W/toi_tests_cmake" | tee "$W/golden.out" &&
        grep -Eq '^[1-9][0-9]* passed, 0 failed$' "$W/golden.out"
}
check "library built by CMake: the golden hashes of the Makefile's" golden

# toi as the top-level project installs by default; vendored, only when asked (configure only)
top() {
    cmake -S "$ROOT" -B "$W/top" -DCMAKE_BUILD_TYPE=Release &&
        grep -q '^TOI_INSTALL:BOOL=ON$' "$W/top/CMakeCache.txt" &&
        cmake -S "$W/sub" -B "$W/sub-default" &&
        grep -q '^TOI_INSTALL:BOOL=OFF$' "$W/sub-default/CMakeCache.txt"
}
check "TOI_INSTALL: on for a top-level build, off by default under add_subdirectory" top

# 3. find_package against an installed tree
consumer() { # consumer DIR PREFIX VERSION-REQUEST: static and shared consumers
    local dir=$1 prefix=$2 want=$3
    mkdir -p "$dir" &&
        cat >"$dir/CMakeLists.txt" <<EOT &&
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(toi $want CONFIG REQUIRED)
add_executable(quickstart_static "$ROOT/examples/quickstart.c")
target_link_libraries(quickstart_static PRIVATE toi::toi)
add_executable(quickstart_shared "$ROOT/examples/quickstart.c")
target_link_libraries(quickstart_shared PRIVATE toi::shared)
EOT
        cmake_build "$dir" "$dir/build" -DCMAKE_PREFIX_PATH="$prefix" &&
        "$dir/build/quickstart_static" >"$dir/out_static" &&
        diff "$W/quickstart.expected" "$dir/out_static" &&
        "$dir/build/quickstart_shared" >"$dir/out_shared" &&
        diff "$W/quickstart.expected" "$dir/out_shared" &&
        ldd "$dir/build/quickstart_shared" | grep -q "libtoi.so.0 => $prefix/lib/libtoi.so.0"
}
cmake_install() {
    DESTDIR="$W/cmake-root" cmake --install "$W/sub/build" &&
        consumer "$W/found-cmake" "$W/cmake-root/usr/local" "$VERSION"
}
check "cmake --install + find_package(toi $VERSION CONFIG): toi::toi and toi::shared" cmake_install
refuse() {
    mkdir -p "$W/found-wrong" &&
        printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(consumer C)' \
            'find_package(toi 99.0 CONFIG REQUIRED)' >"$W/found-wrong/CMakeLists.txt" &&
        ! cmake -S "$W/found-wrong" -B "$W/found-wrong/build" \
            -DCMAKE_PREFIX_PATH="$W/cmake-root/usr/local" >"$W/found-wrong/out" 2>&1 &&
        cat "$W/found-wrong/out" &&
        grep -q 'requested version "99.0"' "$W/found-wrong/out" &&
        grep -q "version: $VERSION" "$W/found-wrong/out"
}
check "find_package(toi 99.0) refuses the installed $VERSION" refuse

# 4. make install writes the same files, and they work the same
make_install() {
    make --no-print-directory install DESTDIR="$W/make-root" PREFIX=/usr/local &&
        consumer "$W/found-make" "$W/make-root/usr/local" "$VERSION"
}
check "make install + find_package(toi $VERSION CONFIG): toi::toi and toi::shared" make_install
same_files() {
    local a=$W/cmake-root b=$W/make-root f
    diff <(cd "$a" && find . | sort) <(cd "$b" && find . | sort) || return 1
    for f in include/toi.h lib/pkgconfig/toi.pc lib/cmake/toi/toiConfig.cmake \
        lib/cmake/toi/toiConfigVersion.cmake; do
        cmp "$a/usr/local/$f" "$b/usr/local/$f" || return 1
    done
    [ "$(readlink "$a/usr/local/lib/libtoi.so")" = "$(readlink "$b/usr/local/lib/libtoi.so")" ] ||
        return 1
    diff <(nm -D --defined-only "$a/usr/local/lib/libtoi.so.0" | awk '{print $3}' | sort) \
        <(nm -D --defined-only "$b/usr/local/lib/libtoi.so.0" | awk '{print $3}' | sort) ||
        return 1
    diff <(nm -g --defined-only "$a/usr/local/lib/libtoi.a" | awk 'NF == 3 {print $3}' | sort) \
        <(nm -g --defined-only "$b/usr/local/lib/libtoi.a" | awk 'NF == 3 {print $3}' | sort) ||
        return 1
    [ "$(objdump -p "$a/usr/local/lib/libtoi.so.0" | awk '/SONAME/ {print $2}')" = libtoi.so.0 ] &&
        [ "$(objdump -p "$b/usr/local/lib/libtoi.so.0" | awk '/SONAME/ {print $2}')" = libtoi.so.0 ]
}
check "make install and cmake --install write the same files" same_files

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
