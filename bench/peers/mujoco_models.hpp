// MJCF of the mechanisms the peers benchmark runs in MuJoCo, built as strings with the same
// masses, inertias, lengths and step as clearsim's models (testing/slider_crank.hpp,
// bench/support/planar_chain_model.hpp). Bodies carry explicit <inertial> elements and no geoms:
// nothing collides, and MuJoCo computes no inertia of its own.
#pragma once

#include <sstream>
#include <string>

#include "support/planar_chain_model.hpp"
#include "testing/slider_crank.hpp"

namespace cs::bench::peers {

// Seed 000's ideal slider–crank in the x–y plane, gravity off (as in clearsim's model). The crank
// and the rod are a hinge chain; the slider is its own body on a slide joint along x; the loop is
// closed by an `equality connect` between the rod's far end and the slider's centre, a soft
// constraint. Its default time constant (solref 0.02 s) exceeds the crank's period (12 ms) and
// lets the loop open by 0.19 m; solref = 2h, the stiffest MuJoCo keeps stable, holds it to µm.
// Euler at h.
inline std::string slider_crank_mjcf(double h) {
  const double r = testing::kCrank, l = testing::kRod;
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model='slider_crank'>\n"
    << "  <compiler angle='radian'/>\n"
    << "  <option timestep='" << h << "' gravity='0 0 0' integrator='Euler'>\n"
    << "    <flag contact='disable'/>\n"
    << "  </option>\n"
    << "  <worldbody>\n"
    << "    <body name='crank' pos='0 0 0'>\n"
    << "      <joint name='pivot' type='hinge' axis='0 0 1'/>\n"
    << "      <inertial pos='" << r / 2 << " 0 0' mass='0.30' diaginertia='1e-5 1e-5 1e-5'/>\n"
    << "      <body name='rod' pos='" << r << " 0 0'>\n"
    << "        <joint name='crank_rod' type='hinge' axis='0 0 1'/>\n"
    << "        <inertial pos='" << 0.11 - r << " 0 0' mass='0.21'"
    << " diaginertia='2.5e-4 2.5e-4 2.5e-4'/>\n"
    << "      </body>\n"
    << "    </body>\n"
    << "    <body name='slider' pos='" << r + l << " 0 0'>\n"
    << "      <joint name='guide' type='slide' axis='1 0 0'/>\n"
    << "      <inertial pos='0 0 0' mass='0.14' diaginertia='1e-4 1e-4 1e-4'/>\n"
    << "    </body>\n"
    << "  </worldbody>\n"
    << "  <equality>\n"
    << "    <connect body1='rod' body2='slider' anchor='" << l << " 0 0' solref='" << 2 * h
    << " 1'/>\n"
    << "  </equality>\n"
    << "</mujoco>\n";
  return x.str();
}

// The planar pendulum chain: nested bodies, each on a hinge about y at its parent's far end, the
// root turned by the tilt about y so that the straight chain starts like clearsim's.
inline std::string planar_chain_mjcf(int links, double h, const PlanarChainParameters& p = {}) {
  const Vec3 J = planar_link_inertia(p);
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model='planar_chain'>\n"
    << "  <compiler angle='radian'/>\n"
    << "  <option timestep='" << h << "' gravity='0 0 -9.81' integrator='Euler'>\n"
    << "    <flag contact='disable'/>\n"
    << "  </option>\n"
    << "  <worldbody>\n";
  for (int k = 0; k < links; ++k) {
    x << "<body name='link" << k << "' pos='" << (k == 0 ? 0.0 : p.link_length) << " 0 0'";
    if (k == 0) x << " euler='0 " << p.tilt << " 0'";
    x << ">\n"
      << "<joint type='hinge' axis='0 1 0'/>\n"
      << "<inertial pos='" << p.link_length / 2 << " 0 0' mass='" << p.link_mass
      << "' diaginertia='" << J.x() << ' ' << J.y() << ' ' << J.z() << "'/>\n";
  }
  for (int k = 0; k < links; ++k) x << "</body>\n";
  x << "  </worldbody>\n</mujoco>\n";
  return x.str();
}

}  // namespace cs::bench::peers
