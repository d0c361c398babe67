// The Flores slider–crank with a dry revolute clearance between the rod and the slider
// (examples/flores_slider_crank_nsga/model.yaml), written for Siconos in hand-reduced coordinates.
// The crank angle is driven, θ = ωt, so the mechanism has two coordinates left: the rod angle φ
// and the slider position x. The rod's CoM sits a = 0.06 m from the crank pin A = r(cos θ, sin θ),
// so T = ½ m_r |Ȧ + a φ̇ e⊥(φ)|² + ½ J_r φ̇² + ½ m_s ẋ² gives a constant mass matrix
// diag(m_r a² + J_r, m_s) and the one force the driven crank exerts through the pin,
// F_int,φ = m_r r a ω² sin(φ − θ) (Siconos' convention M q̈ + F_int = p). The bearing centre is
// B = A + l e(φ), the journal J = (x, 0), and the gap g = c − |J − B| depends on t through A:
// a rheonomous relation, with Newton's impact law e = 0.9 at velocity level (Moreau–Jean).
#include "peers/siconos_flores.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <siconos/kernel/SiconosKernel.hpp>

#include "support/thread_cpu.hpp"

namespace cs::bench::peers {
namespace {

// The example's numbers (model.yaml).
constexpr double kR = 0.05, kL = 0.12, kA = 0.06;  // crank, rod, pin-to-CoM of the rod [m]
constexpr double kRodMass = 0.21, kRodJ = 2.5e-4, kSliderMass = 0.14;
constexpr double kOmega = 523.5987756;  // 5000 rpm
constexpr double kClearance = 0.5e-3;   // c [m]
constexpr double kRestitution = 0.9;

// Journal minus bearing centre, d = J − B, at time t for q = (φ, x).
void journal_offset(double t, double phi, double x, double& dx, double& dy) {
  const double th = kOmega * t;
  dx = x - kR * std::cos(th) - kL * std::cos(phi);
  dy = -kR * std::sin(th) - kL * std::sin(phi);
}

double gap(double t, double phi, double x) {
  double dx = 0.0, dy = 0.0;
  journal_offset(t, phi, x, dx, dy);
  return kClearance - std::hypot(dx, dy);
}

// Siconos plugin signature FPtr6: (t, n, q, v, out, size of z, z).
void rod_force(double t, unsigned int, double* q, double*, double* f, unsigned int, double*) {
  f[0] = kRodMass * kR * kA * kOmega * kOmega * std::sin(q[0] - kOmega * t);
  f[1] = 0.0;
}

void rod_force_dq(double t, unsigned int, double* q, double*, double* K, unsigned int, double*) {
  // Column-major 2 × 2.
  K[0] = kRodMass * kR * kA * kOmega * kOmega * std::cos(q[0] - kOmega * t);
  K[1] = K[2] = K[3] = 0.0;
}

// y = g(q, t), ∇_q g and ∂g/∂t. At the centre of the bearing the normal is undefined; any unit
// vector will do there, the gap being c, far from closing.
class ClearanceGap final : public LagrangianRheonomousR {
 public:
  ClearanceGap() {
    _jachq.reset(new SimpleMatrix(1, 2));
    _hDot.reset(new SiconosVector(1));
  }
  void computeh(double time, const BlockVector& q, BlockVector&, SiconosVector& y) override {
    y.setValue(0, gap(time, q.getValue(0), q.getValue(1)));
  }
  void computeJachq(double time, const BlockVector& q, BlockVector&) override {
    double nx = 0.0, ny = 0.0;
    normal(time, q.getValue(0), q.getValue(1), nx, ny);
    const double phi = q.getValue(0);
    // ∂d/∂φ = l (sin φ, −cos φ), ∂d/∂x = (1, 0); ∇g = −n·∂d.
    _jachq->setValue(0, 0, -kL * (nx * std::sin(phi) - ny * std::cos(phi)));
    _jachq->setValue(0, 1, -nx);
  }
  void computehDot(double time, const BlockVector& q, BlockVector&) override {
    double nx = 0.0, ny = 0.0;
    normal(time, q.getValue(0), q.getValue(1), nx, ny);
    const double th = kOmega * time;
    // ∂d/∂t = −Ȧ = −rω(−sin θ, cos θ); ∂g/∂t = −n·∂d/∂t.
    _hDot->setValue(0, kR * kOmega * (-nx * std::sin(th) + ny * std::cos(th)));
  }

 private:
  static void normal(double t, double phi, double x, double& nx, double& ny) {
    journal_offset(t, phi, x, nx, ny);
    const double n = std::hypot(nx, ny);
    if (n < 1e-15) {
      nx = 1.0;
      ny = 0.0;
    } else {
      nx /= n;
      ny /= n;
    }
  }
};

}  // namespace

SiconosFloresRun siconos_flores_run(double h, double end) {
  // The ideal mechanism's state at θ = 0: the bearing centre at rest with the journal.
  SP::SiconosVector q0(new SiconosVector(2));
  SP::SiconosVector v0(new SiconosVector(2));
  q0->setValue(0, 0.0);
  q0->setValue(1, kR + kL);
  v0->setValue(0, -kR * kOmega / kL);
  v0->setValue(1, 0.0);
  SP::SimpleMatrix mass(new SimpleMatrix(2, 2));
  mass->zero();
  mass->setValue(0, 0, kRodMass * kA * kA + kRodJ);
  mass->setValue(1, 1, kSliderMass);
  SP::LagrangianDS ds(new LagrangianDS(q0, v0, mass));
  ds->setComputeFIntFunction(rod_force);
  ds->setComputeJacobianFIntqFunction(rod_force_dq);

  SP::NonSmoothDynamicalSystem nsds(new NonSmoothDynamicalSystem(0.0, end));
  nsds->insertDynamicalSystem(ds);
  SP::NonSmoothLaw law(new NewtonImpactNSL(kRestitution));
  SP::Relation relation(new ClearanceGap());
  SP::Interaction contact(new Interaction(law, relation));
  nsds->link(contact, ds);

  SP::MoreauJeanOSI osi(new MoreauJeanOSI(0.5));
  SP::TimeDiscretisation td(new TimeDiscretisation(0.0, h));
  SP::OneStepNSProblem lcp(new LCP());
  SP::TimeStepping sim(new TimeStepping(nsds, td, osi, lcp));

  SiconosFloresRun run;
  const double t0 = thread_cpu_seconds();
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    const SiconosVector& q = *ds->q();
    const double t = sim->nextTime(), th = kOmega * t, sn = std::sin(th);
    const double x_ideal = kR * std::cos(th) + std::sqrt(kL * kL - kR * kR * sn * sn);
    run.max_slider_deviation = std::max(run.max_slider_deviation, std::abs(q(1) - x_ideal));
    run.max_penetration = std::max(run.max_penetration, -gap(t, q(0), q(1)));
    sim->nextStep();
    ++run.steps;
  }
  run.cpu = thread_cpu_seconds() - t0;
  return run;
}

}  // namespace cs::bench::peers
