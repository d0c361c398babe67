#include "clearsim/solvers/configuration.hpp"

#include "clearsim/math/so3.hpp"

namespace cs {

void integrate_configuration(const State& base, const VecX& dq, State& out) {
  const int nb = static_cast<int>(base.x_W.size());
  if (&out != &base) {
    out.x_W.resize(nb);
    out.R_WB.resize(nb);
  }
  for (int b = 0; b < nb; ++b) {
    out.x_W[b] = base.x_W[b] + dq.segment<3>(6 * b);
    out.R_WB[b] = base.R_WB[b] * so3::exp(dq.segment<3>(6 * b + 3));
  }
}

}  // namespace cs
