# clearsim — the two commands a user needs:
#   make demo   install what is missing, build (Release), run the flagship example, write results
#   make test   install what is missing, build (Release, warnings as errors), run every test
# Other targets: build, install (PREFIX, default /usr/local), package (a .deb by cpack),
# sanitize (ASan+UBSan test run), portable (the suite built by Clang without -march=native),
# bench, format, clean.

BUILD     ?= build/release
ASAN      ?= build/asan
PORTABLE  ?= build/portable-clang
JOBS      ?= $(shell nproc)
DEMO      ?= slider_crank_ideal
PREFIX    ?= /usr/local
CMAKE_GEN := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# Where ccache is installed the build compiles through it (CMakeLists.txt, CLEARSIM_CCACHE):
# paths under the clone are hashed relative to it, so that any clone hits the same cache.
export CCACHE_BASEDIR ?= $(CURDIR)

.PHONY: all deps build test demo install package sanitize portable bench format clean

all: build

deps:
	@scripts/install-deps

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCLEARSIM_WERROR=ON
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

demo: build
	scripts/run-example $(DEMO)

# The command line, library, headers, CMake package, pkg-config file and Python package under
# PREFIX (docs/install.md).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# A Debian package of the same files under /usr: $(BUILD)/clearsim_<version>_<arch>.deb.
package: build
	cd $(BUILD) && cpack -G DEB

# Address and undefined-behaviour sanitizers over the whole suite (debug-friendly -O1 build).
sanitize: deps
	cmake -S . -B $(ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLEARSIM_WERROR=ON \
	  -DCLEARSIM_SANITIZE=ON -DCLEARSIM_BENCH=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g"
	cmake --build $(ASAN) -j $(JOBS)
	ctest --test-dir $(ASAN) --output-on-failure -j $(JOBS)

# The suite built by the other compiler (Clang) for any x86-64 CPU (no -march=native: SSE2, no
# FMA). Its round-off differs from the native GCC build's, so chaotic runs (contact, film spikes)
# take other histories, and Clang's warnings and its order of evaluation differ: what passes only
# with one build is fragile. CI runs it after `make test`.
portable: deps
	CXX=clang++ cmake -S . -B $(PORTABLE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release \
	  -DCLEARSIM_WERROR=ON -DCLEARSIM_NATIVE=OFF -DCLEARSIM_BENCH=OFF
	cmake --build $(PORTABLE) -j $(JOBS)
	ctest --test-dir $(PORTABLE) --output-on-failure -j $(JOBS)

bench: build
	scripts/run-benchmarks

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp')

clean:
	rm -rf build results
