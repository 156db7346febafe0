# toi - batched time-of-impact kernels. `make` builds the libraries for the compiler's target
# (`make CC=aarch64-linux-gnu-gcc` cross-builds for aarch64) under build/<target>/.
# `make test` runs every test group (docs/testing.md); `make bench` the benchmark; `make demo` the
# particle example (examples/particles.c).

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
TARGET := $(shell $(CC) -dumpmachine)
ARCH := $(firstword $(subst -, ,$(TARGET)))
BUILD ?= build/$(TARGET)
ifneq ($(filter %gcc,$(CC)),)
AR := $(CC)-ar
else
AR ?= ar
endif

PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include

OPT ?= -O2
# Determinism: no contraction into FMA, no fast-math, IEEE semantics everywhere.
DET := -ffp-contract=off -fno-math-errno
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?=
# Instrumentation (sanitizers, fuzzing) goes on every compile and link line; DEFS on every
# compile line (the instrumented builds set SAN_DEFS there).
SAN ?=
DEFS ?=
BASE := -std=c11 $(OPT) $(DET) $(WARN) -fPIC -fvisibility=hidden -Iinclude $(DEFS) $(SAN) $(CFLAGS)

COMMON_SRC := src/api.c src/dispatch.c src/cpu.c \
              src/scalar/spheres.c src/scalar/plane.c src/scalar/respond.c \
              src/scalar/triangles.c src/scalar/kernels.c src/mesh.c src/scalar/mesh.c \
              src/scalar/capsules.c src/scalar/boxes.c
SIMD_KERNELS := spheres plane respond triangles mesh kernels capsules boxes

ifeq ($(ARCH),x86_64)
SIMD_SRC := $(foreach k,$(SIMD_KERNELS),src/sse/$(k).c src/avx2/$(k).c src/avx512/$(k).c)
else ifeq ($(ARCH),aarch64)
SIMD_SRC := $(foreach k,$(SIMD_KERNELS),src/neon/$(k).c)
else
SIMD_SRC :=
endif

LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(COMMON_SRC) $(SIMD_SRC))
HEADERS := include/toi.h $(wildcard src/*.h src/*/*.h)
# Each object records the headers it includes (-MMD, in a .d file beside it; -MP keeps a deleted
# header from breaking the build), so editing one kernel header rebuilds only its objects.
DEPFLAGS := -MMD -MP

# Per-ISA flags go on the per-ISA files only; everything else runs on the baseline CPU.
$(BUILD)/src/sse/%.o: ISA = -msse4.1
$(BUILD)/src/avx2/%.o: ISA = -mavx2
# AVX-512F only (no VL/DQ/BW). GCC's -mavx512f leaves __FMA__ undefined, clang's defines it:
# DET's -ffp-contract=off is what keeps either from fusing (src/avx512/vec.h).
$(BUILD)/src/avx512/%.o: ISA = -mavx512f

.PHONY: all lib test test-native test-avx512-simde bench bench-bin bench-instructions demo characters install uninstall \
        clean tests-bin tests-with-lib
all: lib
lib: $(BUILD)/libtoi.a $(BUILD)/libtoi.so

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(ISA) $(DEPFLAGS) -c $< -o $@

$(BUILD)/libtoi.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libtoi.so: $(LIB_OBJ) src/toi.map
	$(CC) $(SAN) -shared -Wl,--version-script=src/toi.map -Wl,-soname,libtoi.so.0 -o $@ $(LIB_OBJ) -lm

# ---- tests -------------------------------------------------------------------------------
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(TEST_SRC))
# On x86 the tests also link the NEON kernels built through SIMDe (never part of the library).
ifeq ($(ARCH),x86_64)
SIMDE_OBJ := $(patsubst %.c,$(BUILD)/simde/%.o,$(foreach k,$(SIMD_KERNELS),src/neon/$(k).c))
TEST_DEFS := -DTOI_TEST_SIMDE_NEON
endif

$(BUILD)/simde/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -DTOI_NEON_SIMDE -Wno-shadow $(DEPFLAGS) -c $< -o $@

# The avx512 kernels through SIMDe, AVX-512F emulated on AVX2, for a CPU without AVX-512
# (src/avx512/simde_compat.h; never part of the library): a test program of their own,
# toi_tests_avx512simde. TOI_NO_FORCE_INLINE, as in the instrumented builds: the same
# operations, but forced inlining through SIMDe's emulation took over 15 minutes for one file.
ifeq ($(ARCH),x86_64)
AVX512_SIMDE_OBJ := $(patsubst %.c,$(BUILD)/simde512/%.o,\
                    $(foreach k,$(SIMD_KERNELS),src/avx512/$(k).c))
endif

$(BUILD)/simde512/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -mavx2 -DTOI_AVX512_SIMDE -DTOI_NO_FORCE_INLINE -Wno-shadow -Wno-psabi \
	    $(DEPFLAGS) -c $< -o $@

# The particle example's simulation joins the tests once the triangle queries are in the API.
HAVE_TRIANGLES := $(shell grep -q toi_sweep_sphere_triangle_pairs include/toi.h && echo 1)
ifeq ($(HAVE_TRIANGLES),1)
EXAMPLE_OBJ := $(BUILD)/examples/sim.o $(BUILD)/examples/meshload.o
TEST_DEFS += -DTOI_TEST_PARTICLES
endif

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(TEST_DEFS) -Isrc -Iexamples $(DEPFLAGS) -c $< -o $@

$(BUILD)/toi_tests: $(TEST_OBJ) $(SIMDE_OBJ) $(EXAMPLE_OBJ) $(BUILD)/libtoi.a
	$(CC) $(SAN) -o $@ $(TEST_OBJ) $(SIMDE_OBJ) $(EXAMPLE_OBJ) $(BUILD)/libtoi.a -lm -lpthread

tests-bin: $(BUILD)/toi_tests

$(BUILD)/toi_tests_avx512simde: $(TEST_OBJ) $(SIMDE_OBJ) $(AVX512_SIMDE_OBJ) $(EXAMPLE_OBJ) \
                                $(BUILD)/libtoi.a
	$(CC) $(SAN) -o $@ $(TEST_OBJ) $(SIMDE_OBJ) $(AVX512_SIMDE_OBJ) $(EXAMPLE_OBJ) \
	    $(BUILD)/libtoi.a -lm -lpthread

# The same test runner linked against another build of the library, for tests/cmake_check.sh:
# `make tests-with-lib WITH_LIB=path/libtoi.a WITH_OUT=path/toi_tests`.
tests-with-lib: $(TEST_OBJ) $(SIMDE_OBJ) $(EXAMPLE_OBJ)
	$(CC) $(SAN) -o $(WITH_OUT) $(TEST_OBJ) $(SIMDE_OBJ) $(EXAMPLE_OBJ) $(WITH_LIB) -lm -lpthread

# The whole suite: dependencies, native run, aarch64 under qemu, x86 CPU models under qemu.
test:
	@scripts/deps.sh test
	@tests/run.sh

# The avx512 kernels through SIMDe against the scalar reference, on any CPU with AVX2 (as
# tests/run.sh runs them where the CPU lacks AVX-512; this target at full counts).
test-avx512-simde: $(BUILD)/toi_tests_avx512simde
	TOI_TEST_IMPLS=avx512-simde TOI_TEST_SKIP=accuracy,particles,threads $<

# Only the native run (quick, during development).
test-native: $(BUILD)/toi_tests
	$(BUILD)/toi_tests

# ---- the particle example (examples/particles.c; needs libpng) ---------------------------
$(BUILD)/examples/sim.o $(BUILD)/examples/particles.o: examples/sim.h examples/meshload.h

$(BUILD)/particles: $(BUILD)/examples/particles.o $(BUILD)/examples/sim.o \
                    $(BUILD)/examples/meshload.o $(BUILD)/examples/image.o $(BUILD)/libtoi.a
	$(CC) -o $@ $^ -lpng -lm

# ---- the character example (examples/characters.c; needs libpng) -------------------------
$(BUILD)/examples/walk.o $(BUILD)/examples/characters.o: examples/walk.h examples/meshload.h \
                                                        examples/image.h
$(BUILD)/characters: $(BUILD)/examples/characters.o $(BUILD)/examples/walk.o \
                     $(BUILD)/examples/meshload.o $(BUILD)/examples/image.o $(BUILD)/libtoi.a
	$(CC) -o $@ $^ -lpng -lm

# `make demo DEMO_ARGS="-n 20000 -t 100"` passes options (particles -h lists them).
ifeq ($(HAVE_TRIANGLES),1)
demo:
	@scripts/deps.sh demo
	@$(MAKE) --no-print-directory $(BUILD)/particles
	$(BUILD)/particles -o $(BUILD)/particles.png $(DEMO_ARGS)

# `make characters CHAR_ARGS="-n 4000 -t 600"`: the character example on Debian's
# assimp-testmodels terrain (characters -h lists the options).
CHAR_MODEL ?= /usr/share/assimp/models/TER/RealisticTerrain_Large.ter
characters:
	@scripts/deps.sh demo
	@$(MAKE) --no-print-directory $(BUILD)/characters
	$(BUILD)/characters -m $(CHAR_MODEL) -o $(BUILD)/characters.png $(CHAR_ARGS)
else
demo:
	@echo "make demo: the particle example needs the triangle queries (toi_sweep_sphere_triangle_pairs), not in this tree yet" >&2
	@exit 1
endif

# ---- benchmark ---------------------------------------------------------------------------
# bench/ links the library like any user would; the peers (textbook AoS quadratic,
# sphere-triangle and capsule-triangle sweeps, the plain box loop, Bullet) are built only into
# the benchmark.
# pthreads are the benchmark's own (the thread-scaling part splits batches over the caller's
# threads); the library starts no threads. Bullet needs C++ and
# Debian's libbullet-dev for the target, so it is part of native builds only.
BENCH_SRC := $(filter-out bench/bullet.cpp bench/mesh.c bench/capsules.c bench/boxes.c \
                           bench/textbook_capsule.c bench/plain_boxes.c,\
                         $(wildcard bench/*.c))
BENCH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(BENCH_SRC))
HOST_TARGET := $(shell cc -dumpmachine 2>/dev/null)
CXX ?= g++
ifeq ($(TARGET),$(HOST_TARGET))
BENCH_BULLET := $(shell pkg-config --exists bullet 2>/dev/null && command -v $(CXX) >/dev/null && echo 1)
endif
ifeq ($(BENCH_BULLET),1)
BULLET_INC := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags-only-I bullet))
BENCH_DEFS := -DTOI_BENCH_BULLET
BENCH_OBJ += $(BUILD)/bench/bullet.o
BENCH_PEER_OBJ := $(BUILD)/bench/bullet.o
BENCH_LINK := $(CXX)
BENCH_LIBS := -lBulletCollision -lLinearMath
else
BENCH_LINK := $(CC)
endif
# Emulated run for a cross-built target: qemu-user with the target's libraries.
ifneq ($(TARGET),$(HOST_TARGET))
BENCH_RUNNER := qemu-$(ARCH) -L /usr/$(TARGET)
endif

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(BENCH_DEFS) $(BENCH_OPT) $(DEPFLAGS) -c $< -o $@

# The bandwidth floor must stream as fast as plain code can: let the compiler vectorise it.
$(BUILD)/bench/floor.o: BENCH_OPT := -O3
# So must the plain box sweep, the baseline issue 11 names ("auto-vectorised").
$(BUILD)/bench/plain_boxes.o: BENCH_OPT := -O3

$(BUILD)/bench/bullet.o: bench/bullet.cpp bench/bench.h bench/peers.h include/toi.h
	@mkdir -p $(dir $@)
	$(CXX) -std=c++14 -O2 -ffp-contract=off -Wall -Wextra -Iinclude $(BULLET_INC) \
	    $(BENCH_DEFS) -c $< -o $@

$(BUILD)/toi_bench: $(BENCH_OBJ) $(BUILD)/libtoi.a
	$(BENCH_LINK) -o $@ $(BENCH_OBJ) $(BUILD)/libtoi.a $(BENCH_LIBS) -lm -lpthread

# The mesh benchmark is a program of its own (bench/mesh.c).
$(BUILD)/toi_bench_mesh: $(BUILD)/bench/mesh.o $(BUILD)/bench/clock.o $(BUILD)/libtoi.a
	$(CC) -o $@ $(BUILD)/bench/mesh.o $(BUILD)/bench/clock.o $(BUILD)/libtoi.a -lm

# The capsule and box benchmarks are programs of their own too (bench/capsules.c, boxes.c).
$(BUILD)/toi_bench_capsules: $(BUILD)/bench/capsules.o $(BUILD)/bench/textbook_capsule.o \
                             $(BUILD)/bench/clock.o $(BENCH_PEER_OBJ) $(BUILD)/libtoi.a
	$(BENCH_LINK) -o $@ $(BUILD)/bench/capsules.o $(BUILD)/bench/textbook_capsule.o \
	    $(BUILD)/bench/clock.o $(BENCH_PEER_OBJ) $(BUILD)/libtoi.a \
	    $(BENCH_LIBS) -lm
$(BUILD)/toi_bench_boxes: $(BUILD)/bench/boxes.o $(BUILD)/bench/plain_boxes.o \
                          $(BUILD)/bench/clock.o $(BENCH_PEER_OBJ) $(BUILD)/libtoi.a
	$(BENCH_LINK) -o $@ $(BUILD)/bench/boxes.o $(BUILD)/bench/plain_boxes.o \
	    $(BUILD)/bench/clock.o $(BENCH_PEER_OBJ) $(BUILD)/libtoi.a \
	    $(BENCH_LIBS) -lm

bench-bin: $(BUILD)/toi_bench $(BUILD)/toi_bench_mesh $(BUILD)/toi_bench_capsules \
           $(BUILD)/toi_bench_boxes

# The README's main command: dependencies, build, the full run, hyperfine, CSV and plot.
# A cross-built target runs under qemu-user, which the test dependencies bring.
bench:
	@scripts/deps.sh bench
	@$(if $(BENCH_RUNNER),scripts/deps.sh test)
	@$(MAKE) --no-print-directory bench-bin
	@CC="$(CC)" bench/run.sh "$(BUILD)" "$(TARGET)" "$(BENCH_RUNNER)"

# Instruction counts per query from callgrind (native only: valgrind does not run qemu).
bench-instructions:
	@scripts/deps.sh bench
	@$(MAKE) --no-print-directory bench-bin
	@bench/instructions.sh "$(BUILD)" "$(TARGET)"

# ---- install -----------------------------------------------------------------------------
# The same files `cmake --install` writes (CMakeLists.txt): the header, both libraries, toi.pc
# and the CMake package files, which find the libraries relative to their own directory.
CMAKEDIR := $(LIBDIR)/cmake/toi
SUBST = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
            -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
            -e "s|@TO_LIBDIR@|$$(realpath -m --relative-to=$(CMAKEDIR) $(LIBDIR))|" \
            -e "s|@TO_INCLUDEDIR@|$$(realpath -m --relative-to=$(CMAKEDIR) $(INCLUDEDIR))|"
install: lib
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(CMAKEDIR)
	install -m 644 include/toi.h $(DESTDIR)$(INCLUDEDIR)/toi.h
	install -m 644 $(BUILD)/libtoi.a $(DESTDIR)$(LIBDIR)/libtoi.a
	install -m 755 $(BUILD)/libtoi.so $(DESTDIR)$(LIBDIR)/libtoi.so.0
	ln -sf libtoi.so.0 $(DESTDIR)$(LIBDIR)/libtoi.so
	$(SUBST) src/toi.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/toi.pc
	$(SUBST) cmake/toiConfig.cmake.in > $(DESTDIR)$(CMAKEDIR)/toiConfig.cmake
	$(SUBST) cmake/toiConfigVersion.cmake.in > $(DESTDIR)$(CMAKEDIR)/toiConfigVersion.cmake

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/toi.h $(DESTDIR)$(LIBDIR)/libtoi.a \
	      $(DESTDIR)$(LIBDIR)/libtoi.so $(DESTDIR)$(LIBDIR)/libtoi.so.0 \
	      $(DESTDIR)$(LIBDIR)/pkgconfig/toi.pc \
	      $(DESTDIR)$(CMAKEDIR)/toiConfig.cmake $(DESTDIR)$(CMAKEDIR)/toiConfigVersion.cmake
	-rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null

VERSION := $(shell sed -n 's/^\#define TOI_VERSION_STRING "\(.*\)"/\1/p' include/toi.h)

clean:
	rm -rf build

# ---- reliability checks (docs/testing.md: "Reliability") ----------------------------------
# Each builds its own tree under build/<check>/ and exits nonzero on any finding.
SAN_CC ?= $(CC)
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# Every instrumented build (sanitizers, ThreadSanitizer, fuzz targets) leaves inlining to the
# compiler (src/internal.h: TOI_NO_FORCE_INLINE): the kernels' forced-inline bodies, once
# instrumented, took clang up to 11 minutes per file (avx2/boxes.c: 677 s user, 18 s this way),
# and made the sanitizer build most of make test's time. Same operations, same checks, every
# UBSan check on every object.
SAN_DEFS := -DTOI_NO_FORCE_INLINE
.PHONY: test-sanitize test-valgrind test-tsan

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer, but for the guard-page
# group: its arrays are mmap'd pages, which ASan does not watch (the native run and the qemu
# runs fault on them), and ASan's mmap costs made it most of this run.
# With SAN_CC=clang (make test does so), the suite is
# built exactly as the fuzz targets' objects are, in their tree, so the fuzz run that follows
# builds no library again (the coverage hooks do nothing without libFuzzer).
SAN_CLANG = $(findstring clang,$(notdir $(SAN_CC)))
SAN_BUILD = $(if $(SAN_CLANG),$(FUZZ_BUILD),build/asan)
test-sanitize:
	$(MAKE) CC=$(SAN_CC) BUILD=$(SAN_BUILD) OPT="-O1 -g" DEFS="$(SAN_DEFS)" \
	    SAN="$(if $(SAN_CLANG),$(FUZZ_SAN),$(SANITIZE))" tests-bin
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    TOI_TEST_SKIP=guard TOI_TEST_SCALE=$(or $(TOI_TEST_SCALE),0.2) $(SAN_BUILD)/toi_tests

# The suite under valgrind memcheck with dispatch forced to each x86 backend in turn. Every
# group tests every backend explicitly whatever is forced, so the whole suite runs once, with
# the first backend forced; for the others, which differ only in what the first call
# resolves, the dispatch and contract groups run (VALGRIND_GROUPS). The guard-page group is
# left out, as in test-sanitize: its check is a page fault, the native run's on the same
# machine code, and under valgrind it was a quarter of this run (73 of 283 s). So are the thread
# groups: valgrind runs one thread at a time, so they race nothing here, while their memory is
# AddressSanitizer's (test-sanitize) and their races ThreadSanitizer's (test-tsan); with the
# backend switcher spinning beside seven querying threads they took 87 of this run's 150 s.
# Not avx512: valgrind (3.19, and every release so far) does not execute AVX-512 and reports
# a CPU without it, so under valgrind that backend is unavailable and skipped.
VALGRIND_BACKENDS ?= $(if $(filter x86_64,$(ARCH)),avx2 sse scalar,scalar)
VALGRIND_GROUPS ?= dispatch,contract
VALGRIND_SKIP ?= guard,threads
# Small superblocks: the AVX2 kernels' straight-line blocks are large enough that valgrind
# 3.19's default translation exhausts its temporary storage ("VEX temporary storage
# exhausted"). Origin tracking is left to a rerun by hand (it multiplies the IR again).
VALGRIND := valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect -q \
            --vex-guest-max-insns=16 --vex-guest-chase=no
test-valgrind: $(BUILD)/toi_tests
	@set -e; groups=; for b in $(VALGRIND_BACKENDS); do \
	    echo "valgrind: TOI_BACKEND=$$b$${groups:+, groups $$groups}"; \
	    log=$(BUILD)/valgrind-$$b.log; \
	    if ! env TOI_BACKEND=$$b TOI_TEST_EXPECT=$$b TOI_TEST_SKIP=$(VALGRIND_SKIP) \
	        TOI_TEST_SCALE=$(or $(TOI_TEST_SCALE),0.05) \
	        $${groups:+TOI_TEST_GROUPS=$$groups} $(VALGRIND) $(BUILD)/toi_tests >$$log 2>&1; then \
	        grep -v '^ok ' $$log; echo "valgrind: errors with TOI_BACKEND=$$b"; exit 1; \
	    fi; tail -1 $$log; groups=$(VALGRIND_GROUPS); \
	done

# The suite under ThreadSanitizer (clang): the thread groups race first calls and backend
# switches; the rest checks that nothing else shares state unsafely.
TSAN_CC ?= clang
test-tsan:
	$(MAKE) CC=$(TSAN_CC) BUILD=build/tsan OPT="-O1 -g" DEFS="$(SAN_DEFS)" \
	    SAN="-fsanitize=thread" tests-bin
	TSAN_OPTIONS=halt_on_error=1:exitcode=66 TOI_TEST_SCALE=$(or $(TOI_TEST_SCALE),0.05) \
	    build/tsan/toi_tests

# ---- hygiene -------------------------------------------------------------------------------
.PHONY: check-exports check-warnings cppcheck
# libtoi.so exports exactly the functions toi.h declares TOI_API; libtoi.a defines no global
# symbol outside the toi_ prefix.
check-exports: lib
	@sed -n 's/^TOI_API[^(]*[ *]\(toi_[a-z0-9_]*\)(.*/\1/p' include/toi.h | sort >$(BUILD)/api.txt
	@nm -D --defined-only $(BUILD)/libtoi.so | awk '{print $$3}' | sed 's/@.*//' | sort \
	    >$(BUILD)/exports.txt
	@diff -u $(BUILD)/api.txt $(BUILD)/exports.txt || \
	    { echo "check-exports: libtoi.so exports differ from the TOI_API list in toi.h"; exit 1; }
	@nm -g --defined-only $(BUILD)/libtoi.a | awk 'NF == 3 && $$3 !~ /^toi_/ {print; bad = 1} \
	    END {exit bad}' || { echo "check-exports: libtoi.a defines non-toi_ symbols"; exit 1; }
	@echo "check-exports: $$(wc -l <$(BUILD)/api.txt) toi_* symbols exported, nothing else"

# Library and tests warning-free with -Werror: gcc and clang natively, gcc for aarch64 when
# the cross compiler is installed.
WARN_CCS ?= gcc clang $(shell command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && \
                            echo aarch64-linux-gnu-gcc)
check-warnings:
	@set -e; for c in $(WARN_CCS); do \
	    echo "check-warnings: $$c"; \
	    $(MAKE) -s CC=$$c BUILD=build/werror-$$c CFLAGS=-Werror lib tests-bin; \
	done

# Static analysis of the library. The one suppression: in t-only mode a kernel fills only the
# t field of its result block, and vstore_res reads only that field (cppcheck's cross-file
# analysis cannot see the `full` condition). CPPCHECK_JOBS files at a time: with a build
# directory the cross-file analysis still runs (and a rerun reanalyses only changed files).
CPPCHECK_JOBS ?= 2
CPPCHECK := cppcheck -q --std=c11 --enable=warning,style,performance,portability \
            --error-exitcode=1 --inline-suppr -Iinclude -Isrc \
            --suppress=ctuuninitvar:src/simd/common.h
cppcheck:
	@mkdir -p $(BUILD)/cppcheck
	$(CPPCHECK) -j$(CPPCHECK_JOBS) --cppcheck-build-dir=$(BUILD)/cppcheck src/

# ---- fuzzing (clang + libFuzzer) -----------------------------------------------------------
# One target per query family: a family is a row of tests/families.c plus its seed corpus
# fuzz/corpus/<family>/ (`make fuzz-seeds` writes the corpus of every row). Inputs that once
# failed are kept in fuzz/regressions/<family>/; the test suite replays both directories.
FUZZ_FAMILIES := $(notdir $(wildcard fuzz/corpus/*))
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build/fuzz
FUZZ_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_OBJ := $(BUILD)/tests/families.o $(BUILD)/tests/fuzzcheck.o
.PHONY: fuzz fuzz-smoke fuzz-bins fuzz-seeds

$(BUILD)/fuzz_%: fuzz/fuzz_query.c $(FUZZ_OBJ) $(SIMDE_OBJ) $(BUILD)/libtoi.a
	$(CC) $(BASE) $(TEST_DEFS) -Isrc -Itests -DTOI_FUZZ_FAMILY='"$*"' -fsanitize=fuzzer \
	    -o $@ $< $(FUZZ_OBJ) $(SIMDE_OBJ) $(BUILD)/libtoi.a -lm
fuzz-bins: $(patsubst %,$(BUILD)/fuzz_%,$(FUZZ_FAMILIES))

$(BUILD)/fuzz_seeds: fuzz/seeds.c $(FUZZ_OBJ) $(SIMDE_OBJ) $(BUILD)/libtoi.a
	$(CC) $(BASE) $(TEST_DEFS) -Isrc -Itests -o $@ $< $(FUZZ_OBJ) $(SIMDE_OBJ) \
	    $(BUILD)/libtoi.a -lm
fuzz-seeds: $(BUILD)/fuzz_seeds
	$(BUILD)/fuzz_seeds fuzz/corpus

# Each family for FUZZ_SECONDS; new inputs go to build/fuzz/corpus, failures to
# build/fuzz/crash-<family>-* (copy them to fuzz/regressions/<family>/ once fixed). The families
# are targets of their own, so `make -j` fuzzes as many at a time as it has jobs.
fuzz:
	$(MAKE) CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) OPT="-O1 -g" DEFS="$(SAN_DEFS)" \
	    SAN="$(FUZZ_SAN)" fuzz-bins
	$(MAKE) --no-print-directory $(patsubst %,fuzz-run-%,$(FUZZ_FAMILIES))

fuzz-run-%:
	@mkdir -p $(FUZZ_BUILD)/corpus/$*
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@$(FUZZ_BUILD)/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crash-$*- \
	    $(FUZZ_BUILD)/corpus/$* fuzz/corpus/$* $(wildcard fuzz/regressions/$*) \
	    2>$(FUZZ_BUILD)/fuzz-$*.log || { tail -40 $(FUZZ_BUILD)/fuzz-$*.log; exit 1; }
	@grep -E '^stat::number_of_executed_units|^Done' $(FUZZ_BUILD)/fuzz-$*.log | \
	    sed 's/^/fuzz: $*: /' || true

# A short run for CI.
fuzz-smoke:
	$(MAKE) fuzz FUZZ_SECONDS=$(or $(FUZZ_SMOKE_SECONDS),15)

# Every reliability and hygiene check, one after another (CI; a few minutes on 2 cores).
.PHONY: check-all
check-all:
	$(MAKE) check-exports
	$(MAKE) check-warnings
	$(MAKE) cppcheck
	$(MAKE) test-sanitize
	$(MAKE) test-valgrind
	$(MAKE) test-tsan
	$(MAKE) fuzz-smoke

# The headers each object was built from (DEPFLAGS above).
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
