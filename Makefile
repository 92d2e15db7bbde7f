# gpusim - cycle-level SIMT GPU simulator.
#
#   make            build ./gpusim
#   make run        build and run the tiled matrix multiply on Fermi
#   make test       unit + golden tests, the same under ASan/UBSan, then
#                   parallel launches under ThreadSanitizer
#   make asan       only the ASan/UBSan run
#   make tsan       only the ThreadSanitizer run
#   make docs       regenerate docs/isa.md and docs/config.md from the tables
#   make fuzz       libFuzzer harnesses (clang; development only)
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean

CC      ?= cc
CFLAGS  ?= -O3 -g
STDFLAGS := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
CPPFLAGS += -I.
LDLIBS  += -lm -lpthread
BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0

SIM_DIRS := sim/base sim/mem sim/core sim/timing sim/front
LIB_SRC := $(sort $(wildcard isa/*.c) $(filter-out sim/front/main.c,$(foreach d,$(SIM_DIRS),$(wildcard $(d)/*.c))))
# The trace viewer's page: web files in sim/front/viewer/, turned into C at
# build time by sim/front/viewer/embed.c (a few lines of C: no tool beyond
# the compiler), compiled into the library like any other source.
VIEWER_DIR := sim/front/viewer
VIEWER_SRC := $(sort $(wildcard $(VIEWER_DIR)/*.html $(VIEWER_DIR)/*.css $(VIEWER_DIR)/*.js))
VIEWER_GEN := $(BUILD)/gen/viewer_data.c
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/viewer_data.o
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
# The slowest binaries start first (tests/run.sh runs them side by side, in
# this order): the longest one no longer begins last and holds the run up.
# Measured with the sanitizers on (ASan+UBSan, one at a time, 2026-11-27,
# eleventh session): test_validation 42 s, test_threads, test_labs and
# test_backend 15 s, test_cli, test_timing and test_kernels 14 s,
# test_configs and test_corpus 12 s, test_trace 10 s; the other 27 together
# about 50 s.
TEST_SLOW := test_validation test_threads test_labs test_backend test_cli test_timing test_kernels test_configs \
             test_corpus test_trace
TEST_RUN := $(foreach t,$(TEST_SLOW),$(filter %/$(t),$(TEST_BIN))) \
            $(filter-out $(foreach t,$(TEST_SLOW),%/$(t)),$(TEST_BIN))

ALL_CFLAGS = $(STDFLAGS) $(CFLAGS) -DGPUSIM_VERSION='"$(VERSION)"' -MMD -MP

.PHONY: all run test unit asan tsan docs fuzz install uninstall clean check-cmocka check-js check-scripts check-browser bench validate validate-all

all: gpusim

gpusim: $(BUILD)/gpusim
	cp $< $@.tmp && mv -f $@.tmp $@

$(BUILD)/gpusim: $(BUILD)/sim/front/main.o $(BUILD)/libgpusim.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libgpusim.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) -c -o $@ $<

$(BUILD)/embed: $(VIEWER_DIR)/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $<

$(VIEWER_GEN): $(BUILD)/embed $(VIEWER_SRC)
	@mkdir -p $(dir $@)
	$(BUILD)/embed $(VIEWER_DIR)/viewer.html $@

$(BUILD)/gen/viewer_data.o: $(VIEWER_GEN)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libgpusim.a | check-cmocka
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgpusim.a -lcmocka $(LDLIBS)

run: gpusim
	./gpusim configs/fermi.ini kernels/tiled_mm.s

# CMocka is the one test dependency.  As root we install it; otherwise we say
# exactly what to run.
check-cmocka:
	@if ! printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' \
	     | $(CC) -x c - -o /dev/null -lcmocka >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "CMocka is missing: installing libcmocka-dev with apt-get"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y libcmocka-dev </dev/null || \
	      { apt-get update </dev/null && apt-get install -y libcmocka-dev </dev/null; } || exit 1; \
	  else \
	    echo "CMocka is missing. Install it with:"; \
	    echo "    sudo apt-get install -y libcmocka-dev"; \
	    exit 1; \
	  fi; \
	fi

# The viewer's JavaScript, syntax-checked when node is there (optional).
check-js:
	@if command -v node >/dev/null 2>&1; then \
	  node --check $(VIEWER_DIR)/viewer.js && echo "node --check $(VIEWER_DIR)/viewer.js: ok"; \
	else \
	  echo "node not found: skipped the syntax check of $(VIEWER_DIR)/viewer.js"; \
	fi

# The speed-change scripts (tests/same_reports.sh, tests/ab.sh): one kernel
# on one config through each, a second or so.
check-scripts: $(BUILD)/gpusim
	@out=$$(SAME_KERNELS=kernels/vecadd.s SAME_CONFIGS=configs/tiny.ini sh tests/same_reports.sh $(BUILD)/gpusim $(BUILD)/gpusim 1 2) && \
	  [ "$$out" = "same_reports: 2 runs, 0 differ" ] || { echo "tests/same_reports.sh: $$out"; exit 1; }
	@out=$$(sh tests/ab.sh 1 $(BUILD)/gpusim $(BUILD)/gpusim configs/tiny.ini kernels/vecadd.s) && \
	  [ "$$(printf '%s\n' "$$out" | grep -c 'fastest .* s, median .* s, 1 runs')" = 2 ] || { echo "tests/ab.sh: $$out"; exit 1; }
	@echo "tests/same_reports.sh, tests/ab.sh: ok"

# The viewer in headless Chromium when it is installed (optional):
# tests/browser_check.sh says it skipped otherwise.
check-browser: $(BUILD)/gpusim
	@sh tests/browser_check.sh $(BUILD)/gpusim

# Unit and golden tests in this build directory (run from the repo root).
unit: check-cmocka gpusim $(TEST_BIN) $(BUILD)/gpusim $(BUILD)/validate
	@$(MAKE) --no-print-directory check-js
	@$(MAKE) --no-print-directory check-scripts
	@$(MAKE) --no-print-directory check-browser
	@GPUSIM=$(BUILD)/gpusim sh tests/run.sh $(TEST_RUN)

test: check-cmocka
	@$(MAKE) --no-print-directory -j2 unit
	@$(MAKE) --no-print-directory asan
	@$(MAKE) --no-print-directory tsan

# -g1: line tables only, all a sanitizer's stack trace reads (file:line);
# the build takes 27-32 s instead of 32-43 s on 2 cores (docs/performance-log.md,
# twelfth session)
asan: check-cmocka
	@$(MAKE) --no-print-directory -j2 BUILD=build/asan \
	  CFLAGS="-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" unit-asan

unit-asan: check-cmocka $(TEST_BIN) $(BUILD)/gpusim $(BUILD)/validate
	@echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  GPUSIM=$(BUILD)/gpusim sh tests/run.sh $(TEST_RUN)

# The parallel simulation under ThreadSanitizer: a few launches on 2 host
# threads against the plain build's one-thread reports (tests/tsan_check.sh;
# about 30 s on 2 cores, the build included).
tsan: $(BUILD)/gpusim
	@$(MAKE) --no-print-directory -j2 BUILD=build/tsan \
	  CFLAGS="-O1 -g1 -fsanitize=thread" LDFLAGS="-fsanitize=thread" build/tsan/gpusim
	@echo "== launches on 2 host threads under ThreadSanitizer"
	@sh tests/tsan_check.sh build/tsan/gpusim $(BUILD)/gpusim

# Simulation speed (never part of `make test`): see docs/performance.md.
bench: $(BUILD)/bench
	$(BUILD)/bench

# what a barrier between host threads costs (docs/parallel.md)
bench-sync:
	@mkdir -p $(BUILD)
	$(CC) $(ALL_CFLAGS) -o $(BUILD)/bench_sync tests/bench_sync.c -lpthread
	$(BUILD)/bench_sync 2 2000000

$(BUILD)/bench: tests/bench.c $(BUILD)/libgpusim.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgpusim.a $(LDLIBS)

docs: gpusim
	./gpusim --doc isa > docs/isa.md
	./gpusim --doc config > docs/config.md

FUZZ_FLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -I. -g -O1 -fsanitize=fuzzer,address,undefined
fuzz: $(VIEWER_GEN)
	@mkdir -p build/fuzz
	clang $(FUZZ_FLAGS) -o build/fuzz/fuzz_asm tests/fuzz/fuzz_asm.c $(LIB_SRC) $(VIEWER_GEN) -lm -lpthread
	clang $(FUZZ_FLAGS) -o build/fuzz/fuzz_ini tests/fuzz/fuzz_ini.c $(LIB_SRC) $(VIEWER_GEN) -lm -lpthread
	clang $(FUZZ_FLAGS) -o build/fuzz/fuzz_run tests/fuzz/fuzz_run.c $(LIB_SRC) $(VIEWER_GEN) -lm -lpthread
	@mkdir -p build/fuzz/corpus_asm && cp kernels/*.s tests/data/*.s tests/data/*.ptx tests/data/include/*.s tests/data/include/*.ptx tests/data/nvcc/*.ptx tests/data/half/*.s tests/data/half/*.ptx tests/validation/ptx/lineinfo/kernels_corpus.ptx build/fuzz/corpus_asm/
	@echo "run: build/fuzz/fuzz_asm -max_total_time=600 build/fuzz/corpus_asm  (seeded with every kernel)"
	@echo "     build/fuzz/fuzz_ini -max_total_time=600 tests/fuzz/corpus_ini"
	@echo "     build/fuzz/fuzz_run -max_total_time=600 build/fuzz/corpus_asm  (runs them: from the repository root)"

install: gpusim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/gpusim/configs \
	  $(DESTDIR)$(PREFIX)/share/gpusim/kernels $(DESTDIR)$(PREFIX)/share/doc/gpusim/docs
	install -m 755 gpusim $(DESTDIR)$(PREFIX)/bin/gpusim
	install -m 644 configs/*.ini $(DESTDIR)$(PREFIX)/share/gpusim/configs
	install -m 644 kernels/*.s $(DESTDIR)$(PREFIX)/share/gpusim/kernels
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/gpusim
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/gpusim/docs

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gpusim
	rm -rf $(DESTDIR)$(PREFIX)/share/gpusim $(DESTDIR)$(PREFIX)/share/doc/gpusim

clean:
	rm -rf build gpusim

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Cycles and counters against the H100 (no GPU needed): docs/validation.md,
# docs/validation/*.svg and correlation.csv.  See docs/validation.md.
validate: $(BUILD)/validate
	@mkdir -p docs/validation
	$(BUILD)/validate --threads 2

$(BUILD)/validate: tests/validate.c tests/csv.h $(BUILD)/libgpusim.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgpusim.a $(LDLIBS)

validate-all: $(BUILD)/validate
	@mkdir -p docs/validation
	$(BUILD)/validate --threads 2 --all
