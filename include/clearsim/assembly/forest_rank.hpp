// Whether constraint rows are independent by the structure of the model alone: the rank test of
// the redundant-row check (System::remove_redundant_rows) without factorizing B.
//
// Group the rows by the pair of bodies they join. If the pairs form a forest (no loop through
// joints, the ground one node) then, rooting each tree (at the ground where it has it), every
// body but a root has exactly one group joining it to its parent, and a body's columns appear
// only in that group and in its children's groups. Rows that combine to zero then cannot use a
// leaf's group (its columns appear nowhere else) unless that group's rows restricted to the
// leaf's columns are dependent; removing leaves one by one, B has full row rank when every
// group's rows restricted to its child's six columns have. Each group is at most a few rows by
// six columns, so the whole test is O(rows); a chain of 10 000 links, where the sparse QR took
// minutes and the sparse LU of [M Bᵀ; B 0] missed its accuracy test on conditioning alone, is
// settled in milliseconds. Loops (and dependent groups) are left to the factorizations.
#pragma once

#include <vector>

#include "clearsim/math/types.hpp"

namespace cs {

struct BodyPairRow {
  int body_i = -1, body_j = -1;    // model body indices; −1 is the ground
  Eigen::Matrix<double, 1, 12> B;  // ∂Φ/∂q of the row on (body_i, body_j)
};

// True if the rows are independent by the argument above (false says nothing: loops, or a
// group whose rows restricted to its child's columns have a relative pivot below 1e-9 after
// scaling each row to unit norm, as the dense rank test does).
bool rows_independent_on_a_forest(const std::vector<BodyPairRow>& rows, int num_bodies);

}  // namespace cs
