// The constraint formulations on the IFToMM examples (docs/PERFORMANCE.md, *IFToMM group A*), and
// what an R-matrix (velocity transformation) formulation would pay before anything else: the
// null-space basis R of B, RᵀMR and its Cholesky, once per evaluation
// (docs/time-integration.md, *Generalized-α and its formulations*). Models are the shipped
// examples, at their consistent initial state.
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"

namespace cs::bench {
namespace {

const char* const kExamples[] = {"slider_crank_ideal", "iftomm_a04_bricard"};
const ConstraintFormulation kFormulations[] = {
    ConstraintFormulation::kIndex3, ConstraintFormulation::kStabilized,
    ConstraintFormulation::kAli3p, ConstraintFormulation::kPenalty};
const char* const kFormulationNames[] = {"index3", "stabilized", "ali3p", "penalty"};

LoadedModel load(int example) {
  return load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + kExamples[example] +
                         "/model.yaml");
}

// 1000 steps of the example's own step size from its consistent initial state.
void BM_FormulationSteps(benchmark::State& state) {
  LoadedModel lm = load(static_cast<int>(state.range(0)));
  SolverSettings st = lm.run.solver;
  st.formulation = kFormulations[state.range(1)];
  System sys(lm.model);
  std::vector<std::string> notes;
  State start = initial_state(sys, 0.0);
  if (!make_consistent(sys, start, st.newton_tol, notes).ok) {
    state.SkipWithError("initial conditions failed");
    return;
  }
  if (st.formulation == ConstraintFormulation::kAli3p ||
      st.formulation == ConstraintFormulation::kPenalty)
    sys.restore_removed_rows(start);
  constexpr int kSteps = 1000;
  long iterations = 0;
  for (auto _ : state) {
    const auto integrator = make_integrator(sys, st);
    State s = start;
    for (int k = 0; k < kSteps; ++k) {
      const StepResult r = integrator->step(s, st.step);
      if (!r.converged) {
        state.SkipWithError(r.message.c_str());
        return;
      }
      iterations += r.iterations;
    }
    benchmark::DoNotOptimize(s.v.data());
  }
  state.SetLabel(std::string(kExamples[state.range(0)]) + " " + kFormulationNames[state.range(1)]);
  state.counters["time/step"] =
      benchmark::Counter(static_cast<double>(kSteps) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["newton_it/step"] =
      static_cast<double>(iterations) / (kSteps * static_cast<double>(state.iterations()));
}
BENCHMARK(BM_FormulationSteps)->ArgsProduct({{0, 1}, {0, 1, 2, 3}})->Unit(benchmark::kMillisecond);

// The R-matrix formulation's basis at the example's initial state: R from the full-pivoting QR
// of Bᵀ (all rows, redundant included), RᵀMR and its Cholesky.
void BM_RMatrixBasis(benchmark::State& state) {
  LoadedModel lm = load(static_cast<int>(state.range(0)));
  System sys(lm.model);
  std::vector<std::string> notes;
  State s = initial_state(sys, 0.0);
  if (!make_consistent(sys, s, lm.run.solver.newton_tol, notes).ok) {
    state.SkipWithError("initial conditions failed");
    return;
  }
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  const int n = sys.num_dofs(), m = sys.num_constraints();
  MatX B = MatX::Zero(m, n), M = MatX::Zero(n, n);
  sys.constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  sys.mass(MatrixSink(&M));
  for (auto _ : state) {
    Eigen::FullPivHouseholderQR<MatX> qr(B.transpose());
    const MatX Q = qr.matrixQ();
    const MatX R = Q.rightCols(n - static_cast<int>(qr.rank()));
    const MatX reduced = R.transpose() * M * R;
    Eigen::LLT<MatX> llt(reduced);
    benchmark::DoNotOptimize(llt.matrixLLT().data());
  }
  state.SetLabel(std::string(kExamples[state.range(0)]) + " " + std::to_string(m) + " x " +
                 std::to_string(n));
}
BENCHMARK(BM_RMatrixBasis)->DenseRange(0, 1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cs::bench
