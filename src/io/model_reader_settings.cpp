// The `solver` and `output` sections (RunSettings). Keys that the chosen analysis or integrator
// does not use are accepted with a warning, so switching integrator needs no other edit.
#include <optional>
#include <sstream>

#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

// clang-format off
const std::vector<std::string> kSolverKeys = {
    "analysis", "integrator", "rho_inf", "beta", "gamma", "step", "end", "adaptive", "rtol",
    "atol", "min_step", "max_step", "newton_tol", "max_newton_iterations", "newton",
    "linear_solver", "kinematic_steps", "formulation", "restitution_threshold",
    "persistent_contacts", "baumgarte_alpha", "baumgarte_beta", "penalty_factor",
    "penalty_omega", "penalty_damping", "coordinates"};
// clang-format on

const std::vector<std::string> kOutputKeys = {"every",    "channels", "file",
                                              "progress", "vtk",      "vtk_every"};

void warn_unused(const MapView& m, const std::vector<std::string>& keys, const std::string& why) {
  for (const std::string& key : keys)
    if (auto c = m.find(key)) c->warn_at_key("solver." + key + " is ignored: " + why);
}

bool is_explicit(IntegratorKind k) {
  return k == IntegratorKind::kRk4 || k == IntegratorKind::kDormandPrince;
}

// Integrator and step-size keys.
void read_integration(const MapView& m, SolverSettings& s) {
  if (auto c = m.find("integrator"))
    s.integrator = read_choice(*c, std::vector<std::pair<std::string, IntegratorKind>>{
                                       {"generalized_alpha", IntegratorKind::kGeneralizedAlpha},
                                       {"newmark", IntegratorKind::kNewmark},
                                       {"hht", IntegratorKind::kHht},
                                       {"trapezoidal", IntegratorKind::kTrapezoidal},
                                       {"nsga", IntegratorKind::kNsga},
                                       {"rk4", IntegratorKind::kRk4},
                                       {"dormand_prince", IntegratorKind::kDormandPrince}});
  if (auto c = m.find("rho_inf")) {
    s.rho_inf = read_number(*c, "");
    if (!(s.rho_inf >= 0.0 && s.rho_inf <= 1.0)) c->expected("a number in [0, 1]");
    if (s.integrator == IntegratorKind::kHht && s.rho_inf < 0.5)
      c->expected("a number in [0.5, 1] for the hht integrator");
  }
  if (auto c = m.find("beta")) s.newmark_beta = read_positive(*c, "");
  if (auto c = m.find("gamma")) s.newmark_gamma = read_positive(*c, "");
  if (s.integrator == IntegratorKind::kNewmark &&
      (s.newmark_gamma < 0.5 || 2.0 * s.newmark_beta < s.newmark_gamma)) {
    const Position at = m.find("beta").value_or(m.find("gamma").value_or(m.cursor())).key_pos();
    m.cursor().source().warn(at, "solver: Newmark with beta = " + format_number(s.newmark_beta) +
                                     ", gamma = " + format_number(s.newmark_gamma) +
                                     " is not unconditionally stable (needs 2 beta >= gamma >= "
                                     "1/2)");
  }
  if (auto c = m.find("baumgarte_alpha")) s.baumgarte_alpha = read_non_negative(*c, "1/s");
  if (auto c = m.find("baumgarte_beta")) s.baumgarte_beta = read_non_negative(*c, "1/s");
}

// Refuses more than kMaxStepCount steps. Blames the step (the usual slip: a step written 1e-21),
// except when the end is the later override (the command line's --end 1e12).
void check_step_count(const MapView& m, const SolverSettings& s) {
  if (step_count_ok(s.end, s.step)) return;
  const std::optional<Cursor> step = m.find("step"), end = m.find("end");
  const auto later = [](const Cursor& a, const Cursor& b) {
    const Position p = a.pos(), q = b.pos();
    return p.line > q.line || (p.line == q.line && p.column > q.column);
  };
  const bool end_overridden = end && end->source().override_at(end->pos()) != nullptr;
  const bool blame_end = end && (!step || (end_overridden && later(*end, *step)));
  const Cursor& c = blame_end ? *end : *step;
  std::ostringstream os;
  if (blame_end)
    os << "an end <= " << format_number(kMaxStepCount * s.step) << " s";
  else
    os << "a step >= " << format_number(s.end / kMaxStepCount) << " s";
  os << " (end " << format_number(s.end) << " s / step " << format_number(s.step)
     << " s = " << format_number(s.end / s.step) << " steps; at most "
     << format_number(kMaxStepCount) << " are run)";
  c.expected(os.str());
}

// Step, end time and adaptive step control.
void read_steps(const MapView& m, SolverSettings& s) {
  if (auto c = m.find("step")) s.step = read_positive(*c, "s");
  if (auto c = m.find("end")) s.end = read_positive(*c, "s");
  if (s.end < s.step) {
    if (auto c = m.find("end"))
      c->expected("a final time >= step (" + format_number(s.step) + " s)");
    m.need("step", "").expected("a step <= end (" + format_number(s.end) + " s, the default)");
  }
  check_step_count(m, s);
  if (auto c = m.find("adaptive")) {
    s.adaptive = read_bool(*c);
    // rk4 has no error estimate: the step-size controller would only grow the step.
    if (s.adaptive && s.analysis == Analysis::kDynamic && s.integrator == IntegratorKind::kRk4) {
      c->warn_at_key(
          "solver.adaptive is ignored: rk4 runs at a fixed step (dormand_prince controls it)");
      s.adaptive = false;
    }
  }
  // Issue 28: rtol = 1e10 took 13 steps over 2 s and ended 0.6 m off. A tolerance of 1 or more
  // lets an error as large as the values through; every step is then accepted.
  if (auto c = m.find("rtol")) {
    s.rtol = read_positive(*c, "");
    if (!(s.rtol < 1.0))
      c->expected(
          "a relative tolerance below 1 (the default is 1e-6; at 1 an error as large as "
          "the values is accepted)");
  }
  if (auto c = m.find("atol")) {
    s.atol = read_positive(*c, "m, rad");
    if (!(s.atol < 1.0))
      c->expected(
          "an absolute tolerance below 1 m or rad (the default is 1e-8; at 1 an error "
          "of a metre or a radian is accepted)");
  }
  if (auto c = m.find("min_step")) {
    s.min_step = read_positive(*c, "s");
    if (s.adaptive && s.min_step > s.step)
      c->expected("a positive number <= step (" + format_number(s.step) + " s)");
  }
  if (auto c = m.find("max_step")) {
    s.max_step = read_non_negative(*c, "s");
    if (s.adaptive && s.max_step > 0.0 && s.max_step < s.step)
      c->expected("0 (no limit) or a number >= step (" + format_number(s.step) + " s)");
  }
}

// Warns about keys that the chosen analysis and integrator do not read.
void warn_ignored(const MapView& m, const SolverSettings& s) {
  if (s.analysis != Analysis::kKinematic)
    warn_unused(m, {"kinematic_steps"}, "it is used by the kinematic analysis only");
  if (s.analysis != Analysis::kDynamic) {
    warn_unused(m,
                {"integrator", "rho_inf", "beta", "gamma", "adaptive", "rtol", "atol", "min_step",
                 "max_step", "restitution_threshold", "persistent_contacts", "baumgarte_alpha",
                 "baumgarte_beta", "coordinates"},
                "a " + std::string(s.analysis == Analysis::kStatic ? "static" : "kinematic") +
                    " analysis does not integrate the equations of motion");
    return;
  }
  if (s.integrator != IntegratorKind::kNsga)
    warn_unused(m, {"restitution_threshold", "persistent_contacts"},
                "they are used by the nsga integrator only");
  if (s.integrator != IntegratorKind::kNewmark)
    warn_unused(m, {"beta", "gamma"}, "beta and gamma are used by the newmark integrator only");
  if (s.integrator == IntegratorKind::kNewmark || s.integrator == IntegratorKind::kTrapezoidal)
    warn_unused(m, {"rho_inf"}, "the newmark and trapezoidal integrators do not use rho_inf");
  if (!is_explicit(s.integrator))
    warn_unused(m, {"baumgarte_alpha", "baumgarte_beta"},
                "they are used by the rk4 and dormand_prince integrators only");
  if (is_explicit(s.integrator))
    warn_unused(m, {"rho_inf", "newton", "max_newton_iterations", "formulation"},
                "the explicit integrators rk4 and dormand_prince use no rho_inf, Newton "
                "iteration or constraint formulation (they impose the constraints at "
                "acceleration level, with Baumgarte stabilisation)");
  const bool penalty_family = s.formulation == ConstraintFormulation::kAli3p ||
                              s.formulation == ConstraintFormulation::kPenalty;
  if (!penalty_family || is_explicit(s.integrator) || s.integrator == IntegratorKind::kNsga)
    warn_unused(m, {"penalty_factor"},
                "it is used by formulation ali3p or penalty with the generalized-α family");
  if (s.formulation != ConstraintFormulation::kPenalty || is_explicit(s.integrator) ||
      s.integrator == IntegratorKind::kNsga)
    warn_unused(m, {"penalty_omega", "penalty_damping"},
                "they are used by formulation penalty with the generalized-α family");
  if (s.integrator == IntegratorKind::kNsga && penalty_family)
    warn_unused(m, {"formulation"},
                "nsga always uses the stabilized formulation (its contacts need the projections)");
  if (is_explicit(s.integrator) || (s.integrator != IntegratorKind::kNsga && penalty_family) ||
      s.newton == NewtonMode::kFull)
    warn_unused(m, {"coordinates"},
                "joint coordinates are used by nsga and the generalized-α family with newton: "
                "modified (and formulation index3 or stabilized) only; this run is in body poses");
  if (!s.adaptive)
    warn_unused(m, {"rtol", "atol", "min_step", "max_step"},
                "step-size control is off (adaptive: false)");
}

}  // namespace

SolverSettings read_solver(const Cursor& section) {
  SolverSettings s;
  if (section.is_null()) return s;
  const MapView m(section, "a map of solver settings (" + join(kSolverKeys) + ")");
  m.allow_only("in section 'solver'", kSolverKeys);
  if (auto c = m.find("analysis"))
    s.analysis = read_choice(
        *c, std::vector<std::pair<std::string, Analysis>>{{"dynamic", Analysis::kDynamic},
                                                          {"kinematic", Analysis::kKinematic},
                                                          {"static", Analysis::kStatic}});
  read_integration(m, s);
  read_steps(m, s);
  if (auto c = m.find("newton_tol")) {
    s.newton_tol = read_positive(*c, "");
    // A tolerance on a scaled correction past 1 % accepts iterates that have not converged
    // (1e308 accepted the predictor as the solution, without a word).
    if (s.newton_tol > 1e-2) c->expected("a positive number <= 0.01 (usual: 1e-12 to 1e-6)");
  }
  if (auto c = m.find("max_newton_iterations")) s.max_newton_iterations = read_integer(*c, 1);
  if (auto c = m.find("newton"))
    s.newton =
        read_choice(*c, std::vector<std::pair<std::string, NewtonMode>>{
                            {"full", NewtonMode::kFull}, {"modified", NewtonMode::kModified}});
  if (auto c = m.find("linear_solver"))
    s.linear_solver = read_choice(*c, std::vector<std::pair<std::string, LinearSolverKind>>{
                                          {"auto", LinearSolverKind::kAuto},
                                          {"dense", LinearSolverKind::kDense},
                                          {"sparse", LinearSolverKind::kSparse}});
  if (auto c = m.find("coordinates"))
    s.coordinates = read_choice(*c, std::vector<std::pair<std::string, CoordinateChoice>>{
                                        {"auto", CoordinateChoice::kAuto},
                                        {"joint", CoordinateChoice::kJoint},
                                        {"absolute", CoordinateChoice::kAbsolute}});
  if (auto c = m.find("kinematic_steps")) s.kinematic_steps = read_integer(*c, 0);
  if (auto c = m.find("formulation"))
    s.formulation = read_choice(*c, std::vector<std::pair<std::string, ConstraintFormulation>>{
                                        {"index3", ConstraintFormulation::kIndex3},
                                        {"stabilized", ConstraintFormulation::kStabilized},
                                        {"ali3p", ConstraintFormulation::kAli3p},
                                        {"penalty", ConstraintFormulation::kPenalty}});
  // `auto` or a positive number; auto is stored as −1 (SolverSettings).
  auto read_auto = [&](const char* key, const std::string& unit, double& out) {
    auto c = m.find(key);
    if (!c) return;
    if (c->node().IsScalar() && c->node().Scalar() == "auto") {
      out = -1.0;
    } else if (!number_of(c->node())) {
      c->expected("auto or a positive number [" + unit + "]");
    } else {
      out = read_positive(*c, unit);
    }
  };
  read_auto("penalty_factor", "N/m for ali3p, kg for penalty", s.penalty_factor);
  read_auto("penalty_omega", "rad/s", s.penalty_omega);
  if (auto c = m.find("penalty_damping")) s.penalty_damping = read_non_negative(*c, "");
  if (auto c = m.find("restitution_threshold")) {
    if (c->node().IsScalar() && c->node().Scalar() == "auto") {
      s.restitution_threshold = -1.0;
    } else if (!number_of(c->node())) {
      c->expected("auto or a number >= 0 [m/s]");
    } else {
      s.restitution_threshold = read_non_negative(*c, "m/s");
    }
  }
  if (auto c = m.find("persistent_contacts")) s.persistent_contacts = read_bool(*c);
  warn_ignored(m, s);
  return s;
}

OutputSettings read_output(const Cursor& section) {
  OutputSettings o;
  if (section.is_null()) return o;
  const MapView m(section, "a map of output settings (" + join(kOutputKeys) + ")");
  m.allow_only("in section 'output'", kOutputKeys);
  if (auto c = m.find("every")) o.every = read_integer(*c, 1);
  if (auto c = m.find("channels")) {
    for (const Cursor& item : c->items("a list of channel names")) {
      o.channels.push_back(read_text(item, "channel name"));
      o.channel_positions.emplace_back(item.pos().line, item.pos().column);
    }
  }
  if (auto c = m.find("file")) o.file = read_text(*c, "a file name");
  if (auto c = m.find("progress")) o.progress = read_bool(*c);
  if (auto c = m.find("vtk")) o.vtk = read_text(*c, "a folder name");
  if (auto c = m.find("vtk_every")) o.vtk_every = read_integer(*c, 1);
  return o;
}

}  // namespace cs::model_file
