// The interface of the VTK plugin (plugins/vtk_plugin.cpp, libclearsim_vtk.so): one polygonal
// data set as plain arrays, written by VTK's own XML writer (vtkXMLPolyDataWriter: binary,
// zlib-compressed, appended raw). vtk_series.hpp builds the data; only the plugin links VTK,
// so a run without --vtk never loads it. Header-only on purpose (io/plugin.hpp).
#pragma once

#include <string>
#include <vector>

#include "clearsim/math/types.hpp"

namespace cs {

// A named data array: `components` values per point or cell, stored as VTK doubles, or as VTK
// ints when `integer` (the values are then whole numbers).
struct VtpArray {
  std::string name;
  int components = 1;
  bool integer = false;
  bool active = false;  // the data's active scalars (1 component) or vectors (3)
  std::vector<double> values;
};

struct VtpPolyData {
  std::vector<Vec3> points;                     // [m], world
  std::vector<int> verts;                       // one point index per vertex cell
  std::vector<int> lines;                       // two per line cell
  std::vector<int> polys;                       // three per triangle cell
  std::vector<VtpArray> point_data, cell_data;  // cell data in VTK's order: verts, lines, polys
};

// Writes `data` to `path` (a .vtp file, under a temporary name then renamed). Returns false and
// fills `error` if it cannot.
using VtpWriteFunction = bool(const std::string& path, const VtpPolyData& data, std::string& error);
inline constexpr const char* kVtpWriteSymbol = "clearsim_vtk_write_vtp";

}  // namespace cs
