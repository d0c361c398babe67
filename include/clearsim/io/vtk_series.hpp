// A ParaView time series of the model: a folder with series.pvd and, per saved step k,
//   shapes_k.vtp    every shape's triangles at its body's pose (cell data "shape": index in
//                   Model::shapes);
//   contacts_k.vtp  one vertex per mesh-contact region at its point c (point data "normal" N,
//                   "force" F on body j, "normal_force" F_N, "penetration" δ, "element"), and
//                   one per tooth pair in contact of an analytic gear mesh
//                   (gear_mesh_contact_points), one per closed or impacting unilateral gap
//                   (NSGA clearance joints and sphere–plane contacts: gap_contact_points);
//   bodies_k.vtp    the mechanism as lines: each body's frame axes from its centre of mass and a
//                   link to every element attachment (joint, contact, spring marker) on it, ground
//                   attachments as points (cell data "body", "kind": 0–2 axes, 3 link, 4 ground).
// All are written by VTK's own XML writer (vtkXMLPolyDataWriter, Debian's libvtk9-dev, in the VTK
// plugin: vtp_file.hpp, so that a run without --vtk never loads VTK): binary,
// zlib-compressed, appended raw — exact doubles, about a third of the ASCII files this wrote
// before. series.pvd, a list of file names and times, is written here (VTK's collection writer
// is ParaView's). Each file is written under a temporary name and renamed, and series.pvd is
// brought up to date as the run goes (write()), so an interrupted run leaves a readable series.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {

struct VtkContactPoint {
  Vec3 point = Vec3::Zero();   // [m], world
  Vec3 normal = Vec3::Zero();  // unit
  Vec3 force = Vec3::Zero();   // on body j [N]
  double normal_force = 0.0;   // [N]
  double penetration = 0.0;    // [m]
  int element = -1;            // index in Model::elements
};

class VtkSeries {
 public:
  // Creates `folder` if needed; throws std::runtime_error if it cannot.
  explicit VtkSeries(std::filesystem::path folder);
  // Writes step t of `sys` at state `s` (shapes at their bodies' poses, every MeshContact's
  // regions evaluated with the state's memory, the gaps in contact with `last_step`, the step
  // that led to `s`, for their impulses' mean force).
  void write(const System& sys, const State& s, double last_step = 0.0);
  // Brings series.pvd up to date with every step written (also done on destruction).
  void flush();
  ~VtkSeries();
  VtkSeries(const VtkSeries&) = delete;
  VtkSeries& operator=(const VtkSeries&) = delete;
  int steps() const { return static_cast<int>(times_.size()); }
  const std::filesystem::path& folder() const { return folder_; }

 private:
  void write_pvd();
  std::filesystem::path folder_;
  std::vector<double> times_;
  std::size_t pvd_steps_ = 0;  // steps listed in series.pvd as last written
};

// Contact regions of every mesh contact of `sys` at `s`.
std::vector<VtkContactPoint> mesh_contact_points(const System& sys, const State& s);

// Tooth pairs in contact of every analytic gear mesh (`gear_mesh`) of `sys` at `s`: the point at
// the middle of the pair's contact line, the flank normal N (towards the wheel's tooth), the
// force on the wheel F_N N + F_T, F_N and the approach δ as penetration.
std::vector<VtkContactPoint> gear_mesh_contact_points(const System& sys, const State& s);

// Every unilateral gap of `sys` that is closed or impacting at `s` (State::contact): normal
// n = ∂g/∂x_j (the direction of the force on body j), normal force λ_N + Λ_N/h (the
// `contact_force` channel; h = last_step, 0: λ_N alone), penetration max(0, −g). Its point is
// the point of the force's line of action nearest body j's centre of mass, found from the gap
// gradient's moment part: the contact point itself for a ball or pin centred on its body, a
// point the force passes through in any case. (Body i's for a gap whose body j is ground.)
std::vector<VtkContactPoint> gap_contact_points(const System& sys, const State& s,
                                                double last_step);

// Forwards every call to `next` and writes every `every`-th output point to a VtkSeries.
class VtkObserver final : public StepObserver {
 public:
  VtkObserver(const System& sys, const std::string& folder, int every, StepObserver& next)
      : sys_(sys), series_(folder), every_(every), next_(next) {}
  void on_output(const State& s, const RunStats& stats) override;
  void on_step(const State& s, const RunStats& stats) override { next_.on_step(s, stats); }
  bool keep_going() const override { return next_.keep_going(); }
  const VtkSeries& series() const { return series_; }

 private:
  const System& sys_;
  VtkSeries series_;
  int every_ = 1;
  long outputs_ = 0;
  StepObserver& next_;
};

}  // namespace cs
