// Simbody's spatial trees (simbody_tree.hpp): body frames at each link's joint with x along the
// link, Ball mobilizers whose frames make q = identity the spec's pose.
#include "simbody_tree.hpp"

#include <Simbody.h>
#include <time.h>

#include <memory>

namespace cs::bench::peers {

namespace {
double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

SimTK::Rotation rotation(const std::array<double, 9>& r) {
  return SimTK::Rotation(SimTK::Mat33(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]), true);
}

SimTK::Vec3 vec(const std::array<double, 3>& v) { return SimTK::Vec3(v[0], v[1], v[2]); }
}  // namespace

struct SimbodyTree::Impl {
  SimbodyTreeSpec spec;
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  std::vector<SimTK::MobilizedBody> bodies;
};

SimbodyTree::SimbodyTree(const SimbodyTreeSpec& spec) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.spec = spec;
  SimTK::Force::UniformGravity(m.forces, m.matter, SimTK::Vec3(0, 0, -9.81));
  for (const SimbodyTreeSpec::Link& L : spec.links) {
    const SimTK::Vec3 com(0.5 * L.length, 0, 0);
    const SimTK::Inertia central(L.inertia[0], L.inertia[1], L.inertia[2]);
    const SimTK::Body::Rigid body(SimTK::MassProperties(
        spec.link_mass, com, central.shiftFromMassCenter(com, spec.link_mass)));
    const SimTK::Transform X_GB(rotation(L.R_WB), vec(L.joint));
    SimTK::MobilizedBody parent = m.matter.Ground();
    SimTK::Transform X_GP;  // identity for ground
    if (L.parent >= 0) {
      const SimbodyTreeSpec::Link& P = spec.links[static_cast<std::size_t>(L.parent)];
      parent = m.bodies[static_cast<std::size_t>(L.parent)];
      X_GP = SimTK::Transform(rotation(P.R_WB), vec(P.joint));
    }
    m.bodies.push_back(SimTK::MobilizedBody::Ball(parent, ~X_GP * X_GB, body, SimTK::Transform()));
  }
  if (spec.closed) {
    const SimbodyTreeSpec::Link& L = spec.links.back();
    const SimTK::Vec3 end_B(L.length, 0, 0);
    const SimTK::Vec3 end_G = vec(L.joint) + rotation(L.R_WB) * end_B;
    SimTK::Constraint::Ball(m.matter.Ground(), end_G, m.bodies.back(), end_B);
  }
  m.system.realizeTopology();
}

SimbodyTree::~SimbodyTree() = default;

SimbodyTreeRun SimbodyTree::run(long steps) {
  Impl& m = *impl_;
  SimTK::State s = m.system.getDefaultState();
  SimTK::VerletIntegrator integ(m.system, m.spec.step);
  integ.setConstraintTolerance(m.spec.constraint_tol);
  SimTK::TimeStepper stepper(m.system, integ);
  stepper.initialize(s);
  SimbodyTreeRun r;
  const double t0 = thread_cpu();
  stepper.stepTo(static_cast<double>(steps) * m.spec.step);
  r.cpu = thread_cpu() - t0;
  const SimTK::State& end = integ.getState();
  m.system.realize(end, SimTK::Stage::Position);
  const SimTK::Vec3 tip = m.bodies.back().findStationLocationInGround(
      end, SimTK::Vec3(m.spec.links.back().length, 0, 0));
  for (int i = 0; i < 3; ++i) r.tip[static_cast<std::size_t>(i)] = tip[i];
  return r;
}

}  // namespace cs::bench::peers
