#include <algorithm>

#include "clearsim/solvers/run_watches.hpp"

namespace cs {

void ContactCounter::count(const State& after, RunStats& st) {
  const int p = sys_.num_gaps();
  if (p == 0) return;
  for (int j = 0; j < p; ++j) {
    switch (after.contact[j]) {
      case ContactState::kOpen:
        ++st.open_steps;
        break;
      case ContactState::kContact:
        ++st.contact_steps;
        break;
      case ContactState::kImpact:
        ++st.impact_steps;
        break;
    }
    if (before_[j] == ContactState::kOpen && after.contact[j] != ContactState::kOpen)
      ++st.contact_onsets;
  }
  sys_.gather(after, kin_);
  g_.resize(p);
  sys_.gaps(kin_, after.t, &g_, MatrixSink());
  st.max_penetration = std::max(st.max_penetration, -g_.minCoeff());
}

}  // namespace cs
