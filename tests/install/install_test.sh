#!/usr/bin/env bash
# The install as a user makes it (docs/install.md): `cmake --install BUILD --prefix PREFIX`, then
#   - examples/cpp_api configured on its own with find_package(clearsim) and built, and run;
#   - the same program compiled with `pkg-config --cflags --libs clearsim`;
#   - the Python package imported by /usr/bin/python3 from the prefix's site directory (the one
#     the interpreter searches for that prefix, found by its `site` module; no PYTHONPATH);
#   - PREFIX/bin/clearsim --version, clearsim.__version__/__commit__ and the example's first line
#     name the same version and commit.
# Usage: install_test.sh BUILD_DIR WORK_DIR [PYTHON_INSTALL_DIR] (empty: no Python module built)
set -euo pipefail
build=$(realpath "$1")
work=$2
pydir=${3:-}
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(realpath "$work")
prefix=$work/prefix
unset PYTHONPATH

# `make install` is the build, then this command.
make -s -n -C "$source_dir" install BUILD="$build" PREFIX="$prefix" |
  grep -Fxq "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/clearsim include/clearsim/clearsim.hpp include/clearsim/version.hpp \
         lib/libclearsim.a lib/cmake/clearsim/clearsimConfig.cmake lib/pkgconfig/clearsim.pc \
         lib/clearsim/libclearsim_assimp.so lib/clearsim/libclearsim_fcl.so \
         lib/clearsim/libclearsim_vtk.so \
         ${pydir:+"$pydir/clearsim/__init__.py"}; do
  test -e "$prefix/$f" || { echo "missing after install: $f"; exit 1; }
done

line=$("$prefix/bin/clearsim" --version)
echo "clearsim --version: $line"
[[ $line =~ ^clearsim\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{12}|unknown)\)$ ]] ||
  { echo "unexpected --version line"; exit 1; }

# The plugins (docs/install.md) come from the prefix, found beside the installed program, not from
# the build tree: an HDF5 result and a mesh model, with the loader's trace.
mesh_model=$source_dir/examples/mesh_drop/model.yaml
LD_DEBUG=files "$prefix/bin/clearsim" run "$mesh_model" --end 0.001 -q -o "$work/plugins.h5" \
  --vtk "$work/plugins_vtk" 2> "$work/plugins.trace"
for p in hdf5 assimp fcl vtk; do
  grep -q "file=$prefix/lib/clearsim/libclearsim_$p.so .*dynamically loaded" "$work/plugins.trace" ||
    { echo "the $p plugin was not loaded from $prefix/lib/clearsim"; grep clearsim_ "$work/plugins.trace"; exit 1; }
done

# find_package(clearsim): the example's own CMakeLists, configured against the prefix.
cmake -S "$source_dir/examples/cpp_api" -B "$work/cpp_api" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/cpp_api.log"
cmake --build "$work/cpp_api" >> "$work/cpp_api.log"
model=$source_dir/examples/spherical_clearance_slider_crank/model.yaml
"$work/cpp_api/cpp_api_example" "$model" 0.002 > "$work/cpp_api.out"
head -1 "$work/cpp_api.out"
[ "$(head -1 "$work/cpp_api.out")" = "$line" ] || { echo "the library names another build"; exit 1; }
grep -q "peak contact force: " "$work/cpp_api.out"

# pkg-config: the same program, one compiler command.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion clearsim)" = "$(echo "$line" | cut -d' ' -f2)" ]
# shellcheck disable=SC2046
g++ -O1 "$source_dir/examples/cpp_api/main.cpp" -o "$work/cpp_api_pc" \
  $(pkg-config --cflags --libs clearsim) -std=c++20
[ "$("$work/cpp_api_pc" "$model" 0.002 | head -1)" = "$line" ]

# Python: the prefix's site directories, as the interpreter adds its own.
if [ -z "$pydir" ]; then
  echo "install test passed (no Python module in this build): $prefix"
  exit 0
fi
ls "$prefix/$pydir"/clearsim/_core*.so > /dev/null
cd "$work"
/usr/bin/python3 - "$prefix" "$line" "$model" <<'PY'
import site, sys
prefix, line, model = sys.argv[1:]
for d in site.getsitepackages([prefix]):
    site.addsitedir(d)
import clearsim
assert clearsim.__file__.startswith(prefix), clearsim.__file__
assert f"clearsim {clearsim.__version__} (commit {clearsim.__commit__})" == line
sim = clearsim.load(model).simulation()
sim.step(3)
print("python:", clearsim.__file__, clearsim.__version__, clearsim.__commit__, sim.time)
PY
echo "install test passed: $prefix"
