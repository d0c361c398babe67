// Conversions between a simulation's state and numpy arrays (state_arrays.cpp). They need the
// GIL: call them outside the Simulation's lock.
#pragma once

#include <string>

#include "bindings.hpp"
#include "clearsim/state/state.hpp"

namespace clearsim_py {

constexpr py::ssize_t kPositionsPerBody = 12;  // x, y, z, R_WB row by row

py::array_t<double> positions_array(const cs::State& s);
py::array_t<double> velocities_array(const cs::State& s);
// Into a state already sized for the model; ValueError names the array and its layout when the
// shape is wrong (values are checked by cs::Simulation::set_state).
void read_positions(const py::handle& q, cs::State& s);
void read_velocities(const py::handle& v, cs::State& s);

cs::Vec3 vec3(const py::handle& x, const std::string& what);
py::array_t<double> array3(const cs::Vec3& x);
py::array_t<double> array33(const cs::Mat3& m);

}  // namespace clearsim_py
