#include "clearsim/assembly/forest_rank.hpp"

#include <Eigen/QR>
#include <cstdint>
#include <numeric>
#include <queue>
#include <unordered_map>

namespace cs {

namespace {

// Union–find over the bodies and the ground: false when a pair closes a loop.
class Forest {
 public:
  explicit Forest(int nodes) : parent_(static_cast<std::size_t>(nodes)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  bool join(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent_[static_cast<std::size_t>(a)] = b;
    return true;
  }

 private:
  int find(int a) {
    while (parent_[static_cast<std::size_t>(a)] != a)
      a = parent_[static_cast<std::size_t>(a)] =
          parent_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(a)])];
    return a;
  }
  std::vector<int> parent_;
};

// Each node's parent in the forest rooted at the ground (node `ground`) and then at the first
// unvisited body of every other tree; roots have −1.
std::vector<int> parents(const std::vector<std::vector<int>>& adjacent, int ground) {
  const int nodes = static_cast<int>(adjacent.size());
  std::vector<int> parent(static_cast<std::size_t>(nodes), -1);
  std::vector<char> seen(static_cast<std::size_t>(nodes), 0);
  std::queue<int> next;
  const auto visit_from = [&](int root) {
    seen[static_cast<std::size_t>(root)] = 1;
    next.push(root);
    while (!next.empty()) {
      const int a = next.front();
      next.pop();
      for (int b : adjacent[static_cast<std::size_t>(a)]) {
        if (seen[static_cast<std::size_t>(b)]) continue;
        seen[static_cast<std::size_t>(b)] = 1;
        parent[static_cast<std::size_t>(b)] = a;
        next.push(b);
      }
    }
  };
  visit_from(ground);
  for (int a = 0; a < nodes; ++a)
    if (!seen[static_cast<std::size_t>(a)]) visit_from(a);
  return parent;
}

}  // namespace

bool rows_independent_on_a_forest(const std::vector<BodyPairRow>& rows, int num_bodies) {
  const int ground = num_bodies, nodes = num_bodies + 1;
  const auto node = [&](int body) { return body < 0 ? ground : body; };
  // Group the rows by body pair.
  std::unordered_map<std::int64_t, int> group_of;
  std::vector<std::pair<int, int>> pair_of_group;
  std::vector<std::vector<int>> rows_of_group;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    int a = node(rows[r].body_i), b = node(rows[r].body_j);
    if (a == b) return false;
    if (a > b) std::swap(a, b);
    const auto [it, added] =
        group_of.emplace(std::int64_t{a} * nodes + b, static_cast<int>(pair_of_group.size()));
    if (added) {
      pair_of_group.emplace_back(a, b);
      rows_of_group.emplace_back();
    }
    rows_of_group[static_cast<std::size_t>(it->second)].push_back(static_cast<int>(r));
  }
  // The pairs must form a forest.
  Forest forest(nodes);
  std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(nodes));
  for (const auto& [a, b] : pair_of_group) {
    if (!forest.join(a, b)) return false;
    adjacent[static_cast<std::size_t>(a)].push_back(b);
    adjacent[static_cast<std::size_t>(b)].push_back(a);
  }
  const std::vector<int> parent = parents(adjacent, ground);
  // Each group's rows on its child's columns must be independent.
  for (std::size_t g = 0; g < pair_of_group.size(); ++g) {
    const auto [a, b] = pair_of_group[g];
    const int child = parent[static_cast<std::size_t>(b)] == a ? b : a;
    const std::vector<int>& members = rows_of_group[g];
    if (members.size() > 6) return false;
    MatX R(6, static_cast<Eigen::Index>(members.size()));  // the rows as columns
    for (std::size_t k = 0; k < members.size(); ++k) {
      const BodyPairRow& row = rows[static_cast<std::size_t>(members[k])];
      const Eigen::Matrix<double, 1, 6> part =
          node(row.body_i) == child ? row.B.head<6>() : row.B.tail<6>();
      const double norm = part.norm();
      if (!(norm > 0.0)) return false;
      R.col(static_cast<Eigen::Index>(k)) = part.transpose() / norm;
    }
    Eigen::ColPivHouseholderQR<MatX> qr(R);
    qr.setThreshold(1e-9);
    if (qr.rank() < R.cols()) return false;
  }
  return true;
}

}  // namespace cs
