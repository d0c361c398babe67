#include "clearsim/solvers/joint_tree.hpp"

#include <Eigen/Cholesky>

#include "clearsim/math/so3.hpp"

namespace cs {

namespace {

struct Frame {
  Mat3 R = Mat3::Identity();
  Vec3 x = Vec3::Zero();
};

Frame body_frame(const std::vector<BodyKinematics>& kin, int b) {
  if (b == kGround) return {};
  return {kin[b].R_WB, kin[b].x_W};
}

}  // namespace

JointTree::Link JointTree::make_link(const TreeJointSpec& joint, int e, int parent, int child,
                                     const std::vector<BodyKinematics>& kin) {
  const bool parent_is_i = joint.marker_i.body == parent;
  const Frame P = body_frame(kin, parent), C = body_frame(kin, child);
  const Marker& mi = joint.marker_i;
  const Marker& mp = parent_is_i ? mi : joint.marker_j;
  const Mat3 R_i = mi.body == kGround ? Mat3::Identity() : kin[mi.body].R_WB;
  Link link;
  link.body = child;
  link.parent = parent;
  link.element = e;
  switch (joint.kind) {
    case TreeJointSpec::Kind::kRevolute:
      link.kind = Kind::kRevolute;
      break;
    case TreeJointSpec::Kind::kPrismatic:
      link.kind = Kind::kPrismatic;
      break;
    case TreeJointSpec::Kind::kSpherical:
      link.kind = Kind::kSpherical;
      break;
    case TreeJointSpec::Kind::kFixed:
      link.kind = Kind::kFixed;
      break;
  }
  if (link.kind == Kind::kSpherical) {
    link.coord = num_coords_;
    link.rotation = static_cast<int>(rotation_slots_.size());
    rotation_slots_.push_back(link.coord);
    num_coords_ += 3;
  } else if (link.kind != Kind::kFixed) {
    link.coord = num_coords_++;
  }
  link.axis_P = P.R.transpose() * (R_i * mi.R_BM.col(2));
  link.anchor_P = mp.p_B;  // the parent's marker origin lies on the axis (or is the centre)
  const Vec3 anchor_W = P.x + P.R * link.anchor_P;
  link.R_rel = P.R.transpose() * C.R;
  link.offset_rel = link.kind == Kind::kSpherical ? Vec3(C.R.transpose() * (C.x - anchor_W))
                                                  : Vec3(P.R.transpose() * (C.x - anchor_W));
  const Mat3 K = so3::skew(link.axis_P);
  link.KR = K * link.R_rel;
  link.K2R = K * link.KR;
  link.Ko = K * link.offset_rel;
  link.K2o = K * link.Ko;
  return link;
}

std::optional<JointTree> JointTree::build(const System& sys, const State& ref, std::string* why) {
  auto refuse = [&](const std::string& reason) -> std::optional<JointTree> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const Model& model = sys.model();
  const int nb = model.num_bodies();
  if (nb == 0) return refuse("the model has no bodies");
  if (sys.num_memory() > 0) return refuse("the model has elements with memory");
  if (sys.has_removed_rows()) return refuse("the model has redundant joint rows");
  // Tree-capable joints by body, for a breadth-first walk from ground; every other constraint
  // element keeps its rows.
  std::vector<std::vector<int>> joints_at(nb + 1);  // index body + 1 (ground at 0)
  std::vector<char> in_tree(model.elements.size(), 0);
  for (int e = 0; e < static_cast<int>(model.elements.size()); ++e) {
    const Element& el = *model.elements[e];
    if (el.num_constraints() == 0 || !el.tree_joint()) continue;
    joints_at[el.body_i() + 1].push_back(e);
    joints_at[el.body_j() + 1].push_back(e);
  }
  std::vector<BodyKinematics> kin;
  sys.gather(ref, kin);
  JointTree tree;
  std::vector<char> reached(nb + 1, 0), used(model.elements.size(), 0);
  std::vector<int> queue{kGround};
  reached[0] = 1;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int parent = queue[head];
    for (int e : joints_at[parent + 1]) {
      if (used[e]) continue;
      used[e] = 1;
      const Element& el = *model.elements[e];
      const bool parent_is_i = el.body_i() == parent;
      const int child = parent_is_i ? el.body_j() : el.body_i();
      if (reached[child + 1]) continue;  // closes a loop: keeps its rows
      reached[child + 1] = 1;
      in_tree[e] = 1;
      queue.push_back(child);
      tree.links_.push_back(tree.make_link(el.tree_joint().value(), e, parent, child, kin));
    }
  }
  for (int e = 0; e < static_cast<int>(model.elements.size()); ++e) {
    const Element& el = *model.elements[e];
    if (el.num_constraints() == 0 || in_tree[e]) continue;
    tree.loop_elements_.push_back(e);
    tree.num_loop_rows_ += el.num_constraints();
  }
  for (int b = 0; b < nb; ++b)
    if (!reached[b + 1])
      return refuse("body '" + model.bodies[b].name + "' is not joined to ground by joints");
  // Paths to ground, parents first (links_ is in breadth-first order).
  std::vector<int>& link_of = tree.link_of_;
  link_of.assign(nb, -1);
  for (int l = 0; l < nb; ++l) link_of[tree.links_[l].body] = l;
  tree.path_links_.resize(nb);
  for (const Link& link : tree.links_) {
    auto& path = tree.path_links_[link.body];
    if (link.parent != kGround) path = tree.path_links_[link.parent];
    path.push_back(link_of[link.body]);
  }
  return tree;
}

int JointTree::coordinate_between(int a, int b, bool rotation) const {
  for (const Link& L : links_) {
    const bool joins = (L.parent == a && L.body == b) || (L.parent == b && L.body == a);
    if (joins && L.kind == (rotation ? Kind::kRevolute : Kind::kPrismatic)) return L.coord;
  }
  return -1;
}

int JointTree::body_of_coordinate(int k) const {
  for (const Link& L : links_) {
    const int n = L.kind == Kind::kSpherical ? 3 : (L.kind == Kind::kFixed ? 0 : 1);
    if (n > 0 && k >= L.coord && k < L.coord + n) return L.body;
  }
  return 0;
}

Vec3 JointTree::motion_axis(int l, int k, const std::vector<BodyKinematics>& kin) const {
  const Link& L = links_[l];
  if (L.kind == Kind::kSpherical) return kin[L.body].R_WB.col(k);  // the child's own axes
  return axis_W_[l];
}

void JointTree::kinematics(const VecX& q, const std::vector<Mat3>& Q, const VecX& qd,
                           std::vector<BodyKinematics>& kin) const {
  const int nl = num_bodies();
  axis_W_.resize(nl);
  anchor_W_.resize(nl);
  w_W_.resize(nl);
  for (int l = 0; l < nl; ++l) {
    const Link& L = links_[l];
    if (L.parent == kGround) {
      place<true>(L, l, q, Q, qd, kin);
    } else {
      place<false>(L, l, q, Q, qd, kin);
    }
  }
}

template <bool kOnGround>
void JointTree::place(const Link& L, int l, const VecX& q, const std::vector<Mat3>& Q,
                      const VecX& qd, std::vector<BodyKinematics>& kin) const {
  // The parent's frame, velocity and angular velocity (world); on ground the products with the
  // identity are left out (most links of small mechanisms hang from ground).
  const BodyKinematics* p = kOnGround ? nullptr : &kin[L.parent];
  auto to_world = [&](const auto& v) -> Vec3 {
    if constexpr (kOnGround) {
      return v;
    } else {
      return p->R_WB * v;
    }
  };
  const Vec3 x_p = kOnGround ? Vec3::Zero() : p->x_W;
  const Vec3 v_p = kOnGround ? Vec3::Zero() : p->v_W;
  const Vec3 w_p = kOnGround ? Vec3::Zero() : w_W_[L.parent];
  BodyKinematics& c = kin[L.body];
  const Vec3 anchor = x_p + to_world(L.anchor_P);
  const Vec3 a = to_world(L.axis_P);
  anchor_W_[l] = anchor;
  axis_W_[l] = a;
  Vec3 w_c = w_p;
  auto rotate = [&](const Mat3& R_rel) {
    if constexpr (kOnGround) {
      c.R_WB = R_rel;
    } else {
      c.R_WB.noalias() = p->R_WB * R_rel;
    }
  };
  if (L.kind == Kind::kRevolute) {
    const double theta = q(L.coord), sn = std::sin(theta), vers = 1.0 - std::cos(theta);
    rotate(L.R_rel + sn * L.KR + vers * L.K2R);
    c.x_W = anchor + to_world(Vec3(L.offset_rel + sn * L.Ko + vers * L.K2o));
    w_c += a * qd(L.coord);
    c.v_W = v_p + w_p.cross(anchor - x_p) + w_c.cross(c.x_W - anchor);
  } else if (L.kind == Kind::kSpherical) {
    rotate(L.R_rel * Q[L.rotation]);
    c.x_W = anchor + c.R_WB * L.offset_rel;
    w_c += c.R_WB * qd.segment<3>(L.coord);
    c.v_W = v_p + w_p.cross(anchor - x_p) + w_c.cross(c.x_W - anchor);
  } else {
    const double s = L.kind == Kind::kPrismatic ? q(L.coord) : 0.0;
    const double sd = L.kind == Kind::kPrismatic ? qd(L.coord) : 0.0;
    rotate(L.R_rel);
    c.x_W = anchor + to_world(Vec3(L.offset_rel + s * L.axis_P));
    c.v_W = v_p + w_p.cross(c.x_W - x_p) + sd * a;
  }
  w_W_[L.body] = w_c;
  c.w_B.noalias() = c.R_WB.transpose() * w_c;
}

void JointTree::accelerations(const std::vector<BodyKinematics>& kin, const VecX& qd,
                              const VecX& qdd, VecX& vdot) const {
  vdot.resize(6 * num_bodies());
  // World angular accelerations, written into the rotational slots and turned into body-frame
  // ones once the children have read them.
  for (int l = 0; l < num_bodies(); ++l) {
    const Link& L = links_[l];
    Vec3 x_p = Vec3::Zero(), w_p = Vec3::Zero(), acc_p = Vec3::Zero(), alpha_p = Vec3::Zero();
    if (L.parent != kGround) {
      x_p = kin[L.parent].x_W;
      w_p = w_W_[L.parent];
      acc_p = vdot.segment<3>(6 * L.parent);
      alpha_p = vdot.segment<3>(6 * L.parent + 3);
    }
    const BodyKinematics& c = kin[L.body];
    const Vec3& anchor = anchor_W_[l];
    const Vec3& a = axis_W_[l];
    Vec3 acc, alpha = alpha_p;
    if (L.kind == Kind::kRevolute || L.kind == Kind::kSpherical) {
      const Vec3& w_c = w_W_[L.body];
      if (L.kind == Kind::kRevolute) {
        alpha += a * qdd(L.coord) + w_p.cross(a) * qd(L.coord);
      } else {  // ω_c = ω_p + R_c ω_rel: α_c = α_p + R_c ω̇_rel + ω_p × (R_c ω_rel)
        alpha += c.R_WB * qdd.segment<3>(L.coord) + w_p.cross(c.R_WB * qd.segment<3>(L.coord));
      }
      const Vec3 r_p = anchor - x_p, r_c = c.x_W - anchor;
      acc = acc_p + alpha_p.cross(r_p) + w_p.cross(w_p.cross(r_p)) + alpha.cross(r_c) +
            w_c.cross(w_c.cross(r_c));
    } else {
      const double sd = L.kind == Kind::kPrismatic ? qd(L.coord) : 0.0;
      const double sdd = L.kind == Kind::kPrismatic ? qdd(L.coord) : 0.0;
      const Vec3 r = c.x_W - x_p;
      acc = acc_p + alpha_p.cross(r) + w_p.cross(w_p.cross(r)) + 2.0 * sd * w_p.cross(a) + sdd * a;
    }
    vdot.segment<3>(6 * L.body) = acc;
    vdot.segment<3>(6 * L.body + 3) = alpha;
  }
  for (int b = 0; b < num_bodies(); ++b)
    vdot.segment<3>(6 * b + 3) = kin[b].R_WB.transpose() * vdot.segment<3>(6 * b + 3);
}

void JointTree::transpose_times(const std::vector<BodyKinematics>& kin, const VecX& y,
                                VecX& y_red) const {
  const int nb = num_bodies();
  y_red.setZero(num_coords_);
  work_f_.resize(nb);
  work_n_.resize(nb);
  for (int b = 0; b < nb; ++b) {  // each body's wrench about the world origin
    work_f_[b] = y.segment<3>(6 * b);
    work_n_[b] = kin[b].x_W.cross(work_f_[b]) + kin[b].R_WB * y.segment<3>(6 * b + 3);
  }
  for (int l = nb - 1; l >= 0; --l) {  // children before parents
    const Link& L = links_[l];
    const Vec3& F = work_f_[L.body];
    const Vec3& N = work_n_[L.body];
    if (L.kind == Kind::kRevolute) {
      y_red(L.coord) = axis_W_[l].dot(N - anchor_W_[l].cross(F));
    } else if (L.kind == Kind::kSpherical) {
      y_red.segment<3>(L.coord) = kin[L.body].R_WB.transpose() * (N - anchor_W_[l].cross(F));
    } else if (L.kind == Kind::kPrismatic) {
      y_red(L.coord) = axis_W_[l].dot(F);
    }
    if (L.parent != kGround) {
      work_f_[L.parent] += F;
      work_n_[L.parent] += N;
    }
  }
}

void JointTree::jacobian(const std::vector<BodyKinematics>& kin, MatX& J) const {
  J.setZero(6 * num_bodies(), num_coords_);
  for (int b = 0; b < num_bodies(); ++b) {
    for (int l : path_links_[b]) {
      const Link& L = links_[l];
      if (L.kind == Kind::kFixed) continue;
      if (L.kind == Kind::kPrismatic) {
        J.block<3, 1>(6 * b, L.coord) = axis_W_[l];
        continue;
      }
      for (int k = 0; k < (L.kind == Kind::kSpherical ? 3 : 1); ++k) {
        const Vec3 a = motion_axis(l, k, kin);
        J.block<3, 1>(6 * b, L.coord + k) = a.cross(kin[b].x_W - anchor_W_[l]);
        J.block<3, 1>(6 * b + 3, L.coord + k) = kin[b].R_WB.transpose() * a;
      }
    }
  }
}

void JointTree::spatial_links(const std::vector<BodyKinematics>& kin, const std::vector<Mat6>& D,
                              std::vector<SpatialLink>& out) const {
  const int nb = num_bodies();
  out.resize(nb);
  for (int l = 0; l < nb; ++l) {
    const Link& L = links_[l];
    SpatialLink& s = out[l];
    s.body = L.body;
    s.parent_link = L.parent == kGround ? -1 : link_of_[L.parent];
    s.coord = L.coord;
    // Body b's coordinates are X_b (ω; v_O) with X_b = [−[x_b]×, I; R_bᵀ, 0]: its block about
    // the origin is X_bᵀ D_b X_b, written out by 3 × 3 blocks (X is sparse).
    const Mat6& Db = D[L.body];
    const Mat3 xs = so3::skew(kin[L.body].x_W);
    const Mat3& R = kin[L.body].R_WB;
    // D X = [−D11 [x]× + D12 Rᵀ, D11; −D21 [x]× + D22 Rᵀ, D21] (D_ij its 3 × 3 blocks).
    const Mat3 DX1 = -Db.block<3, 3>(0, 0) * xs + Db.block<3, 3>(0, 3) * R.transpose();
    const Mat3 DX2 = -Db.block<3, 3>(3, 0) * xs + Db.block<3, 3>(3, 3) * R.transpose();
    // Xᵀ = [[x]×, R; I, 0] ([x]×ᵀ = −[x]×).
    s.I_O.block<3, 3>(0, 0).noalias() = xs * DX1 + R * DX2;
    s.I_O.block<3, 3>(0, 3).noalias() = xs * Db.block<3, 3>(0, 0) + R * Db.block<3, 3>(3, 0);
    s.I_O.block<3, 3>(3, 0) = DX1;
    s.I_O.block<3, 3>(3, 3) = Db.block<3, 3>(0, 0);
    if (L.kind == Kind::kPrismatic) {
      s.S.col(0) << Vec3::Zero(), axis_W_[l];
      s.ncols = 1;
    } else if (L.kind == Kind::kFixed) {
      s.ncols = 0;
    } else {
      s.ncols = L.kind == Kind::kSpherical ? 3 : 1;
      for (int k = 0; k < s.ncols; ++k) {
        const Vec3 a = motion_axis(l, k, kin);
        s.S.col(k) << a, anchor_W_[l].cross(a);
      }
    }
  }
}

void JointTree::project_blocks(const std::vector<BodyKinematics>& kin, const std::vector<Mat6>& D,
                               MatX& A) const {
  const int nb = num_bodies();
  spatial_links(kin, D, spatial_);
  A.setZero(num_coords_, num_coords_);
  for (int l = nb - 1; l >= 0; --l) {  // children first: I_O becomes the subtree's C_l
    const SpatialLink& L = spatial_[l];
    const Mat6& C = L.I_O;
    const int nl = L.ncols;
    if (nl == 1) {
      // A revolute or prismatic joint: its entries are dot products of 6-vectors (a chain of
      // them, the common case, spent most of the composite step in small dynamic products).
      const Vec6 CS = C * L.S.col(0), SC = C.transpose() * L.S.col(0);
      A(L.coord, L.coord) = L.S.col(0).dot(CS);
      for (int k = L.parent_link; k >= 0; k = spatial_[k].parent_link) {
        const SpatialLink& P = spatial_[k];
        for (int j = 0; j < P.ncols; ++j) {
          A(P.coord + j, L.coord) = P.S.col(j).dot(CS);
          A(L.coord, P.coord + j) = SC.dot(P.S.col(j));
        }
      }
    } else if (nl > 0) {
      const auto Sl = L.S.leftCols(nl);
      const Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 3> CS = C * Sl;
      const Eigen::Matrix<double, Eigen::Dynamic, 6, 0, 3, 6> SC = Sl.transpose() * C;
      A.block(L.coord, L.coord, nl, nl) = Sl.transpose() * CS;
      // With every ancestor k: A(k, l) = S_kᵀ C S_l and A(l, k) = S_lᵀ C S_k.
      for (int k = L.parent_link; k >= 0; k = spatial_[k].parent_link) {
        const SpatialLink& P = spatial_[k];
        if (P.ncols == 0) continue;
        const auto Sk = P.S.leftCols(P.ncols);
        A.block(P.coord, L.coord, P.ncols, nl) = Sk.transpose() * CS;
        A.block(L.coord, P.coord, nl, P.ncols) = SC * Sk;
      }
    }
    if (L.parent_link >= 0) spatial_[L.parent_link].I_O += C;
  }
}

void JointTree::rates(const std::vector<BodyKinematics>& kin, VecX& qd) const {
  qd.setZero(num_coords_);
  for (const Link& L : links_) {
    if (L.kind == Kind::kFixed) continue;
    const BodyKinematics& c = kin[L.body];
    Frame P;
    Vec3 v_p = Vec3::Zero(), w_p = Vec3::Zero();
    if (L.parent != kGround) {
      P = {kin[L.parent].R_WB, kin[L.parent].x_W};
      v_p = kin[L.parent].v_W;
      w_p = P.R * kin[L.parent].w_B;
    }
    const Vec3 a = P.R * L.axis_P;
    if (L.kind == Kind::kRevolute) {
      qd(L.coord) = a.dot(c.R_WB * c.w_B - w_p);
    } else if (L.kind == Kind::kSpherical) {
      qd.segment<3>(L.coord) = c.w_B - c.R_WB.transpose() * w_p;
    } else {
      qd(L.coord) = a.dot(c.v_W - v_p - w_p.cross(c.x_W - P.x));
    }
  }
}

void JointTree::reactions(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                          const VecX& vdot, const VecX& f, VecX& lambda) const {
  const Model& model = sys.model();
  const int nb = num_bodies();
  if (lambda.size() != sys.num_constraints()) lambda.setZero(sys.num_constraints());
  work_f_.resize(nb);
  work_n_.resize(nb);
  for (int b = 0; b < nb; ++b) {  // M v̇ − f about the world origin
    const Body& body = model.bodies[b];
    work_f_[b] = body.mass * vdot.segment<3>(6 * b) - f.segment<3>(6 * b);
    const Vec3 tau_B = body.inertia_B * vdot.segment<3>(6 * b + 3) - f.segment<3>(6 * b + 3);
    work_n_[b] = kin[b].x_W.cross(work_f_[b]) + kin[b].R_WB * tau_B;
  }
  ConstraintBlock cb;
  cb.want_zeta = false;
  for (auto it = links_.rbegin(); it != links_.rend(); ++it) {
    const Link& L = *it;
    const Vec3& F = work_f_[L.body];
    const Vec3& N = work_n_[L.body];
    // The joint's rows on the child, B_cᵀλ, hold the subtree: B_cᵀλ = −(F; τ about the child's
    // centre of mass, body frame).
    const BodyKinematics& c = kin[L.body];
    Vec6 g;
    g.head<3>() = -F;
    g.tail<3>() = -(c.R_WB.transpose() * (N - c.x_W.cross(F)));
    const Element& el = *model.elements[L.element];
    cb.reset(el.num_constraints());
    el.constraint(sys.input(L.element, t, kin), cb);
    const int col = el.body_i() == L.body ? 0 : 6;
    // Fixed-capacity storage: no allocation per joint and output.
    using Rows6 = Eigen::Matrix<double, Eigen::Dynamic, 6, 0, ConstraintBlock::kMaxRows, 6>;
    using Square = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0,
                                 ConstraintBlock::kMaxRows, ConstraintBlock::kMaxRows>;
    using Column = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, ConstraintBlock::kMaxRows, 1>;
    const Rows6 Bc = cb.B.block(0, col, cb.m, 6);
    const Square BBt = Bc * Bc.transpose();
    const Column lam = BBt.ldlt().solve(Column(Bc * g));
    for (int r = 0; r < cb.m; ++r) {
      const int row = sys.global_row(L.element, r);
      if (row >= 0) lambda(row) = lam(r);
    }
    if (L.parent != kGround) {
      work_f_[L.parent] += F;
      work_n_[L.parent] += N;
    }
  }
}

void JointTree::add_geometric_stiffness(const System& sys, const std::vector<BodyKinematics>& kin,
                                        double t, const VecX& vdot, const VecX& f, VecX& lambda,
                                        double scale, std::vector<Mat6>& K) const {
  reactions(sys, kin, t, vdot, f, lambda);
  sys.constraint_tangent(kin, t, lambda, MatrixSink(&K, scale));
}

}  // namespace cs
