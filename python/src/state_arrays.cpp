// A simulation's state as numpy arrays and back: q holds 12 numbers per body (the centre of
// mass x, y, z [m], then R_WB row by row, so a state read and set again is the same bit for
// bit), v the engine's 6 per body ([v_W (m/s, world); w_B (rad/s, body frame)]).
#include "state_arrays.hpp"

#include <sstream>

namespace clearsim_py {

namespace {
// A 1-D float64 array of `expected` values, or ValueError naming `what` and the layout.
py::array_t<double, py::array::c_style | py::array::forcecast> flat(const py::handle& x,
                                                                    const char* what,
                                                                    py::ssize_t expected,
                                                                    const char* layout) {
  // ensure() converts what numpy can (lists, ints, other dtypes) and is null otherwise.
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(x);
  if (!a) throw py::type_error(std::string(what) + " must be an array of numbers");
  if (a.ndim() != 1 || a.size() != expected) {
    std::ostringstream os;
    os << what << " has shape (";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) os << (d ? ", " : "") << a.shape(d);
    os << (a.ndim() == 1 ? ",)" : ")") << "; expected (" << expected << ",): " << layout;
    throw py::value_error(os.str());
  }
  return a;
}
}  // namespace

py::array_t<double> positions_array(const cs::State& s) {
  const auto nb = static_cast<py::ssize_t>(s.x_W.size());
  py::array_t<double> q(kPositionsPerBody * nb);
  auto w = q.mutable_unchecked<1>();
  for (py::ssize_t b = 0; b < nb; ++b) {
    const auto k = static_cast<std::size_t>(b);
    for (int i = 0; i < 3; ++i) w(kPositionsPerBody * b + i) = s.x_W[k](i);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) w(kPositionsPerBody * b + 3 + 3 * r + c) = s.R_WB[k](r, c);
  }
  return q;
}

py::array_t<double> velocities_array(const cs::State& s) {
  py::array_t<double> v(s.v.size());
  auto w = v.mutable_unchecked<1>();
  for (Eigen::Index k = 0; k < s.v.size(); ++k) w(k) = s.v(k);
  return v;
}

void read_positions(const py::handle& x, cs::State& s) {
  const auto nb = static_cast<py::ssize_t>(s.x_W.size());
  const auto q = flat(x, "Simulation.set_state: q", kPositionsPerBody * nb,
                      "12 per body, the centre of mass x, y, z then R_WB row by row");
  const auto r = q.unchecked<1>();
  for (py::ssize_t b = 0; b < nb; ++b) {
    const auto k = static_cast<std::size_t>(b);
    for (int i = 0; i < 3; ++i) s.x_W[k](i) = r(kPositionsPerBody * b + i);
    for (int row = 0; row < 3; ++row)
      for (int c = 0; c < 3; ++c) s.R_WB[k](row, c) = r(kPositionsPerBody * b + 3 + 3 * row + c);
  }
}

void read_velocities(const py::handle& x, cs::State& s) {
  const auto v =
      flat(x, "Simulation.set_state: v", s.v.size(), "6 per body, [v_W (world); w_B (body frame)]");
  const auto r = v.unchecked<1>();
  for (Eigen::Index k = 0; k < s.v.size(); ++k) s.v(k) = r(k);
}

cs::Vec3 vec3(const py::handle& x, const std::string& what) {
  const auto a = flat(x, what.c_str(), 3, "x, y, z");
  const auto r = a.unchecked<1>();
  return {r(0), r(1), r(2)};
}

py::array_t<double> array3(const cs::Vec3& x) {
  py::array_t<double> a(3);
  auto w = a.mutable_unchecked<1>();
  for (int i = 0; i < 3; ++i) w(i) = x(i);
  return a;
}

py::array_t<double> array33(const cs::Mat3& m) {
  py::array_t<double> a(std::vector<py::ssize_t>{3, 3});
  auto w = a.mutable_unchecked<2>();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) w(r, c) = m(r, c);
  return a;
}

}  // namespace clearsim_py
