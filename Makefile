# SPDX-License-Identifier: GPL-3.0-or-later
# Quick start on Debian 12:  `make run`  (the app)   `make test`  (the whole test suite)
# Both install the Debian packages that are missing (and only those), then configure and build.

BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= 2
CMAKE_FLAGS ?=

DEBIAN_PACKAGES := cmake g++ make pkgconf \
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n \
  libgl-dev libeigen3-dev libopenblas-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
  qt6-qpa-plugins xvfb xauth fonts-dejavu-core fonts-dejavu-extra fonts-noto-cjk \
  dpkg-dev file desktop-file-utils appstream shared-mime-info man-db poppler-utils lintian clang-format \
  libopenblas0-openmp python3 python3-numpy python3-dev pybind11-dev python3-pytest libopenblas0-pthread \
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libgif-dev libpng-dev zlib1g-dev \
  libtorch-dev

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps print-debian-packages configure build run test lab lab-runs sanitize memcheck fuzz bench gallery package install clean format format-check translations docs

all: build

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "All Debian packages present."; fi

print-debian-packages:
	@echo $(DEBIAN_PACKAGES)

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/CMakeCache.txt

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

test: build
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j$(JOBS)

# The whole suite again in a Debug build with AddressSanitizer and UndefinedBehaviorSanitizer (its own build
# directory), warnings as errors (-Wall -Wextra -Wpedantic, POSATLAS_WERROR). Any report fails: UBSan halts
# on the first error, ASan aborts, and LeakSanitizer stays on (the offscreen QApplication tests run
# leak-free, so no suppression is needed). The package tests (label "package": the .deb with lintian,
# desktop and AppStream files) and the shipped data's (label "data": the lab's shipped runs evaluated
# again) run in `make test`: they check packaging and files, not code, and lintian on the instrumented
# binaries alone took five minutes.
# Optimised at -O1 with line tables only (-g1), as the sanitizers' documentation advises: at -O0 the
# Eigen kernels ran the numeric suites many times slower, and full debug information made the build and
# link the largest part of CI. Reports still name file and line; assertions stay on (Debug: no NDEBUG).
# The extrapolation lab's library and tests (POSATLAS_LAB) are built here too; LibTorch itself is not
# instrumented, and the program does not load it (the lab runs in posatlas-lab, app/CMakeLists.txt). The
# Python module is not built here (POSATLAS_PYTHON=OFF): an instrumented extension needs the sanitizer
# runtime preloaded into an uninstrumented python3. The command-line code it runs is the CLI library,
# which the CLI tests run here.
# Linked with gold (binutils, installed with g++): the instrumented test programs are 100-180 MB each,
# and gold linked one in 2.4 s where the default linker took 4.5 s; there are some eighty of them.
SANITIZE_DIR ?= build-sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DPOSATLAS_BUILD_BENCHMARKS=OFF -DPOSATLAS_WERROR=ON \
	  -DPOSATLAS_PYTHON=OFF \
	  -DCMAKE_CXX_FLAGS="$(SANITIZE_FLAGS)" -DCMAKE_EXE_LINKER_FLAGS="$(SANITIZE_FLAGS) -fuse-ld=gold" $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_DIR) -j$(JOBS)
	cd $(SANITIZE_DIR) && QT_QPA_PLATFORM=offscreen \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j$(JOBS) -LE 'package|data'

# The main window's preset walk and the parameter panel's rows under valgrind's memcheck (any error fails).
# It sees invalid accesses inside Qt and OpenBLAS, which ASan, instrumenting only PosAtlas's own code,
# cannot: Qt 6.4's QFormLayout::setRowVisible heap corruption behind the random GUI crashes was found this
# way. A few minutes.
MEMCHECK_PACKAGES := valgrind
MEMCHECK := valgrind --error-exitcode=1 --leak-check=no --num-callers=30
memcheck: build
	$(MAKE) deps DEBIAN_PACKAGES="$(DEBIAN_PACKAGES) $(MEMCHECK_PACKAGES)"
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen $(MEMCHECK) tests/ui/ui_main_window_tests everyPresetLoadsAndRendersEveryView
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen $(MEMCHECK) tests/ui/ui_parameter_panel_tests panelShowsExactlyTheMethodsParameters

# libFuzzer targets for every input parser (clang; see tests/fuzz). FUZZ_SECONDS per target.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CXX ?= clang++-14
# libFuzzer ships with clang's runtime libraries; only `make fuzz` needs them.
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev
fuzz:
	$(MAKE) deps DEBIAN_PACKAGES="$(DEBIAN_PACKAGES) $(FUZZ_PACKAGES)"
	cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DPOSATLAS_FUZZ=ON \
	  -DPOSATLAS_BUILD_BENCHMARKS=OFF $(CMAKE_FLAGS)
	cmake --build $(FUZZ_DIR) -j$(JOBS) --target fuzz_model_config fuzz_session fuzz_learned_csv fuzz_learned_npy
	for t in model_config session learned_csv learned_npy; do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t && \
	  $(FUZZ_DIR)/tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
	    -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t || exit 1; \
	done

# With a display: the GUI. Without one (ssh, CI, containers): say so and render the figure gallery.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  exec $(BUILD_DIR)/app/posatlas; \
	else \
	  echo "No display (DISPLAY and WAYLAND_DISPLAY are unset): rendering the figure gallery to ./gallery instead."; \
	  QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/app/posatlas gallery --out gallery; \
	fi

# The Debian package (CPack, Depends from dpkg-shlibdeps): $(BUILD_DIR)/posatlas_<version>_<arch>.deb
package: build
	cd $(BUILD_DIR) && cpack -G DEB

# Into PREFIX (default /usr/local): cmake --install $(BUILD_DIR) --prefix PREFIX, then the Python module
# (component python: PREFIX/lib/python3/dist-packages/posatlas) and the lab's process (component lab:
# PREFIX/libexec/posatlas/posatlas-lab) when they were built. `make package` makes one .deb of each.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)
	if [ -f $(BUILD_DIR)/app/python/posatlas/__init__.py ]; then \
	  cmake --install $(BUILD_DIR) --prefix $(PREFIX) --component python; fi
	if [ -x $(BUILD_DIR)/app/posatlas-lab ]; then \
	  cmake --install $(BUILD_DIR) --prefix $(PREFIX) --component lab; fi

gallery: build
	$(BUILD_DIR)/app/posatlas gallery --out gallery

# The lab alone, in the default build: the program, its lab process (posatlas-lab), the lab's tests and
# `posatlas lab` end to end, and the check that the program itself does not load LibTorch.
lab: configure
	cmake --build $(BUILD_DIR) -j$(JOBS) --target posatlas posatlas-lab lab_tests cli_lab_tests
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j$(JOBS) -R '[Ll]ab|libtorch'

# The lab's runs that ship with the app (resources/lab-runs/, read by the lessons and the Lab window):
# every encoding the lab trains, on the copy task at length 32 (the defaults of `posatlas lab train`, seed
# 0, one thread), evaluated at five lengths; each run's command.txt names the folder it was made in.
# The test lab_shipped_runs evaluates each shipped run again and compares with sweep.json exactly. Training
# is deterministic (the same seed and thread count give the same files), so a rerun changes nothing unless
# the lab's code changed.
LAB_RUNS_DIR := resources/lab-runs
LAB_RUNS_SWEEP := --task copy --train-len 32 --steps 2000 --seeds 1 --lengths 32,48,64,128,256 \
  --methods nope,sinusoidal,learned,t5,alibi,rope,xpos,cope,shaw,transformer-xl,deberta
# Then the evaluations the lesson "Evidence: what happens past the trained length" quotes (listed in
# tests/lab/check_shipped_runs.py, EVALS): each one `lab eval --format json` written to
# METHOD/seed-0/evals/NAME.json, with the attention entropy per layer; lab_shipped_runs runs the same list
# again and requires the same numbers. About 4 minutes (three fine-tunes of 200 steps).
lab-runs: build
	rm -rf $(LAB_RUNS_DIR)/copy
	$(BUILD_DIR)/app/posatlas lab sweep $(LAB_RUNS_SWEEP) --out $(LAB_RUNS_DIR)/copy
	/usr/bin/python3 tests/lab/check_shipped_runs.py $(BUILD_DIR)/app/posatlas $(LAB_RUNS_DIR) --write-evals

# Benchmarks are built only here (POSATLAS_BUILD_BENCHMARKS, OFF by default so `make test` skips them),
# then Google Benchmark, the GEMM peak probe and the NumPy reference run in one go (tests/bench/run_bench.py),
# then the GUI latency benchmark (tests/bench/gui_latency.cpp; GUI_LATENCY_ARGS=--quick for a short run),
# then the animation writers (tests/bench/animation_bench.cpp), then the NumPy notebook tasks done with
# NumPy and with `import posatlas` side by side (tests/bench/python_vs_numpy.py), then the lab's model
# against the same model in PyTorch (tests/bench/lab_pytorch_reference.py).
# PyTorch (Python) for the lab's reference model (tests/bench/lab_pytorch_reference.py): benchmarks only.
BENCH_PACKAGES := python3-torch
bench: build
	$(MAKE) deps DEBIAN_PACKAGES="$(DEBIAN_PACKAGES) $(BENCH_PACKAGES)"
	cmake -S . -B $(BUILD_DIR) -DPOSATLAS_BUILD_BENCHMARKS=ON
	cmake --build $(BUILD_DIR) -j$(JOBS) --target core_bench gui_latency animation_bench
	/usr/bin/python3 tests/bench/run_bench.py $(BUILD_DIR)/tests/bench/core_bench --repetitions 5
	QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/tests/bench/gui_latency $(GUI_LATENCY_ARGS)
	$(BUILD_DIR)/tests/bench/animation_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
	if [ -f $(BUILD_DIR)/app/python/posatlas/__init__.py ]; then \
	  PYTHONPATH=$(BUILD_DIR)/app/python /usr/bin/python3 tests/bench/python_vs_numpy.py --repetitions 5; fi
	if [ -x $(BUILD_DIR)/app/posatlas-lab ]; then \
	  /usr/bin/python3 tests/bench/lab_pytorch_reference.py $(BUILD_DIR)/app/posatlas-lab --steps 300; fi

# The tree is formatted with the repository's .clang-format (Debian 12's clang-format 14);
# format-check fails on any file that differs (CI runs it).
FORMAT_FILES = $$(git ls-files '*.cpp' '*.h' '*.hpp')
format: deps
	clang-format -i $(FORMAT_FILES)

format-check: deps
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD_DIR)

# After changing the command line's options or help, or a figure the user guide shows: rewrite
# docs/cli.md's reference from the program and draw the guide's gallery pictures again (the test
# docs_current fails until they match `posatlas help --all` and `posatlas gallery`).
docs: build
	/usr/bin/python3 tests/docs/check_docs.py . $(BUILD_DIR)/app/posatlas --update

# After adding or changing user-visible strings: bring resources/translations/*.ts up to date, then
# translate the new entries (linguist resources/translations/posatlas_zh_CN.ts). The test
# translations_complete fails until every string has its Chinese translation.
LUPDATE ?= /usr/lib/qt6/bin/lupdate
translations: deps
	python3 resources/translations/translations.py update $(LUPDATE) .
