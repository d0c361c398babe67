// Driving a Simulation from outside between steps: a state set whole, loads held on bodies.
// Malformed input is refused before anything changes, naming the item, so the caller (a
// controller, the Python module) can correct it and carry on.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "clearsim/io/suggest.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {

namespace {

std::string body_label(const Model& m, int b) { return "body '" + m.bodies[b].name + "'"; }

// Throws std::invalid_argument naming `what` if a component of x is not finite.
template <class Vector>
void require_finite(const Vector& x, const std::string& what) {
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (std::isfinite(x(k))) continue;
    std::ostringstream os;
    os << what << " [" << k << "] is " << x(k) << "; expected a finite number";
    throw std::invalid_argument(os.str());
  }
}

// A rotation matrix to round-off: RᵀR = I within 1e-9 and det R > 0. A matrix further off
// would be integrated as given and skew the body.
void require_rotation(const Mat3& R, const std::string& what) {
  require_finite(R.reshaped(), what);
  const double off = (R.transpose() * R - Mat3::Identity()).lpNorm<Eigen::Infinity>();
  if (off <= 1e-9 && R.determinant() > 0.0) return;
  std::ostringstream os;
  os << what << " is not a rotation: max |RᵀR − I| = " << off << ", det R = " << R.determinant()
     << " (expected an orthonormal matrix with det +1)";
  throw std::invalid_argument(os.str());
}

void check_given_state(const System& sys, const State& s) {
  const Model& m = sys.model();
  const auto nb = static_cast<std::size_t>(m.num_bodies());
  if (s.x_W.size() != nb || s.R_WB.size() != nb || s.v.size() != m.num_dofs()) {
    std::ostringstream os;
    os << "set_state: the state has " << s.x_W.size() << " positions, " << s.R_WB.size()
       << " rotations and " << s.v.size() << " velocities; the model has " << nb
       << " bodies (one position and rotation each, 6 velocities each: " << m.num_dofs() << ")";
    throw std::invalid_argument(os.str());
  }
  if (!std::isfinite(s.t))
    throw std::invalid_argument("set_state: the time is " + std::to_string(s.t) +
                                "; expected a finite time [s]");
  for (std::size_t b = 0; b < nb; ++b) {
    const std::string who = "set_state: " + body_label(m, static_cast<int>(b));
    require_finite(s.x_W[b], who + ": position x_W");
    require_rotation(s.R_WB[b], who + ": rotation R_WB");
    require_finite(s.v.segment<6>(6 * static_cast<Eigen::Index>(b)), who + ": velocity [v_W; w_B]");
  }
}

}  // namespace

void Simulation::set_state(const State& s, std::vector<std::string>& notes) {
  check_given_state(sys_, s);
  State guess = initial_state(sys_, s.t);
  guess.x_W = s.x_W;
  guess.R_WB = s.R_WB;
  guess.v = s.v;
  const State previous = state_;
  if (start(std::move(guess), notes, StartFrom::kGivenState)) {
    stats_.ok = true;
    stats_.message.clear();
    return;
  }
  const std::string why = "set_state at t = " + std::to_string(s.t) + ": " + stats_.message;
  std::vector<std::string> ignored;  // said when it started there
  const bool had_state = previous.x_W.size() == s.x_W.size();
  if (had_state && start(previous, ignored, StartFrom::kGivenState)) {
    stats_.ok = true;
    stats_.message.clear();
  }
  throw std::runtime_error(why);
}

void Simulation::apply_load(const std::string& body, const Vec3& p_B, const Vec3& F_W,
                            const Vec3& tau_W) {
  const Model& m = sys_.model();
  const std::optional<int> b = m.find_body(body);
  if (!b || *b == kGround) {
    std::vector<std::string> names;
    for (const Body& each : m.bodies) names.push_back(each.name);
    throw std::invalid_argument(
        "apply_load: " + (b ? std::string("'ground' cannot be loaded (it does not move)")
                            : "no body '" + body + "' in the model" + did_you_mean(body, names)));
  }
  const std::string who = "apply_load on " + body_label(m, *b) + ": ";
  require_finite(p_B, who + "point");
  require_finite(F_W, who + "force");
  require_finite(tau_W, who + "torque");
  sys_.set_external_load({*b, p_B, F_W, tau_W});
  loads_changed();
}

void Simulation::clear_loads() {
  sys_.clear_external_loads();
  loads_changed();
}

void Simulation::loads_changed() {
  if (!ready_ || k_ != 0) return;
  std::vector<std::string> notes;  // said at the start itself
  start(state_, notes, StartFrom::kGivenState);
}

}  // namespace cs
