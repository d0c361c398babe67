#!/usr/bin/env bash
# `cpack` (make package) builds a .deb of the install: its control fields and that it holds the
# command line, the library, the CMake package, the pkg-config file and the Python package
# under /usr, where /usr/bin/python3 imports it; unpacked (installing needs root), its command
# line and its Python package run and name the same build.
# Usage: deb_test.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1")
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" > cpack.log
deb=$(ls "$work"/clearsim_*.deb)
echo "built $deb"
dpkg-deb -f "$deb" Package Version Architecture Depends
[ "$(dpkg-deb -f "$deb" Package)" = clearsim ]
dpkg-deb -c "$deb" > contents.txt
for f in ./usr/bin/clearsim ./usr/include/clearsim/clearsim.hpp ./usr/lib/libclearsim.a \
         ./usr/lib/cmake/clearsim/clearsimConfig.cmake ./usr/lib/pkgconfig/clearsim.pc; do
  grep -q -- "$f" contents.txt || { echo "not in the package: $f"; exit 1; }
done
dpkg-deb -x "$deb" root
line=$(root/usr/bin/clearsim --version)
echo "$line"
if [ ! -e "$build/python/clearsim/__init__.py" ]; then
  echo "deb test passed (no Python module in this build)"
  exit 0
fi
grep -q "dist-packages/clearsim/__init__.py" contents.txt
grep -q "dist-packages/clearsim/_core.*\.so" contents.txt
# The package's Python directory is one /usr/bin/python3 searches without PYTHONPATH.
pydir=$(grep -o '\./usr/lib/python3[^ ]*/dist-packages/clearsim/__init__.py' contents.txt |
        sed 's|^\.||; s|/clearsim/__init__.py$||')
env -u PYTHONPATH /usr/bin/python3 -c "import sys; assert '$pydir' in sys.path, sys.path"
# Unpacked (not installed: that needs root), its Python package names the same build.
env PYTHONPATH="$PWD/root$pydir" /usr/bin/python3 -c \
  "import clearsim; assert f'clearsim {clearsim.__version__} (commit {clearsim.__commit__})' == '$line'"
echo "deb test passed"
