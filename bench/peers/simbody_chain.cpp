// Simbody's planar pendulum chain (simbody_chain.hpp): pins about z in the x–y plane, gravity −y,
// body frames at the inboard pin with the centre of mass L/2 along x.
#include "simbody_chain.hpp"

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
}  // namespace

struct SimbodyChain::Impl {
  SimbodyChainSpec spec;
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::MobilizedBodyIndex first, last;
};

SimbodyChain::SimbodyChain(const SimbodyChainSpec& spec) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.spec = spec;
  SimTK::Force::UniformGravity(m.forces, m.matter, SimTK::Vec3(0, -9.81, 0));
  const SimTK::Vec3 com(0.5 * spec.link_length, 0, 0);
  const SimTK::Inertia central(spec.inertia_axial, spec.inertia_cross, spec.inertia_cross);
  const SimTK::Body::Rigid body(
      SimTK::MassProperties(spec.link_mass, com, central.shiftFromMassCenter(com, spec.link_mass)));
  SimTK::MobilizedBody parent = m.matter.Ground();
  for (int k = 0; k < spec.links; ++k) {
    const SimTK::Vec3 at = k == 0 ? SimTK::Vec3(0) : SimTK::Vec3(spec.link_length, 0, 0);
    SimTK::MobilizedBody::Pin pin(parent, SimTK::Transform(at), body, SimTK::Transform());
    if (k == 0) m.first = pin.getMobilizedBodyIndex();
    parent = pin;
  }
  m.last = parent.getMobilizedBodyIndex();
  m.system.realizeTopology();
}

SimbodyChain::~SimbodyChain() = default;

SimbodyChainRun SimbodyChain::run(long steps) {
  Impl& m = *impl_;
  SimTK::State s = m.system.getDefaultState();
  m.matter.getMobilizedBody(m.first).setOneQ(s, 0, -m.spec.tilt);
  std::unique_ptr<SimTK::Integrator> integ;
  if (m.spec.semi_explicit_euler) {
    integ = std::make_unique<SimTK::SemiExplicitEulerIntegrator>(m.system, m.spec.step);
  } else {
    integ = std::make_unique<SimTK::VerletIntegrator>(m.system, m.spec.step);
  }
  SimTK::TimeStepper stepper(m.system, *integ);
  stepper.initialize(s);
  SimbodyChainRun r;
  const double t0 = thread_cpu();
  stepper.stepTo(static_cast<double>(steps) * m.spec.step);
  r.cpu = thread_cpu() - t0;
  const SimTK::State& end = integ->getState();
  m.system.realize(end, SimTK::Stage::Position);
  const SimTK::Vec3 tip = m.matter.getMobilizedBody(m.last).findStationLocationInGround(
      end, SimTK::Vec3(m.spec.link_length, 0, 0));
  r.tip_x = tip[0];
  r.tip_z = tip[1];
  return r;
}

}  // namespace cs::bench::peers
