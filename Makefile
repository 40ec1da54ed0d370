# Quick start on Debian 12:  `make run`  (the app)   `make test`  (the whole test suite)
# Both install the Debian packages that are missing (and only those), then configure and build.

BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= 2
CMAKE_FLAGS ?=

DEBIAN_PACKAGES := cmake g++ make pkgconf \
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools \
  libgl-dev libeigen3-dev libopenblas-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
  qt6-qpa-plugins xvfb xauth fonts-dejavu-core fonts-noto-cjk \
  dpkg-dev file desktop-file-utils appstream shared-mime-info man-db poppler-utils \
  python3-numpy libopenblas0-pthread

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps print-debian-packages configure build run test bench gallery package install clean format

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

# Into PREFIX (default /usr/local): cmake --install $(BUILD_DIR) --prefix PREFIX
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

gallery: build
	$(BUILD_DIR)/app/posatlas gallery --out gallery

# Benchmarks are built only here (POSATLAS_BUILD_BENCHMARKS, OFF by default so `make test` skips them),
# then Google Benchmark, the GEMM peak probe and the NumPy reference run in one go (tests/bench/run_bench.py).
bench: configure
	cmake -S . -B $(BUILD_DIR) -DPOSATLAS_BUILD_BENCHMARKS=ON
	cmake --build $(BUILD_DIR) -j$(JOBS) --target core_bench
	/usr/bin/python3 tests/bench/run_bench.py $(BUILD_DIR)/tests/bench/core_bench --repetitions 5

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD_DIR)
