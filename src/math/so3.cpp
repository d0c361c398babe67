#include "clearsim/math/so3.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

namespace cs::so3 {

Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

namespace {
// Coefficients a = sin φ/φ, b = (1 − cos φ)/φ², c = (φ − sin φ)/φ³ with series below φ² < 1e-6,
// where the direct formulas lose digits to cancellation.
struct Coeffs {
  double a, b, c;
};
Coeffs coeffs(double phi2) {
  if (phi2 < 1e-6) {
    return {1.0 - phi2 / 6.0 + phi2 * phi2 / 120.0, 0.5 - phi2 / 24.0 + phi2 * phi2 / 720.0,
            1.0 / 6.0 - phi2 / 120.0 + phi2 * phi2 / 5040.0};
  }
  const double phi = std::sqrt(phi2);
  const double s = std::sin(phi);
  return {s / phi, (1.0 - std::cos(phi)) / phi2, (phi - s) / (phi2 * phi)};
}
}  // namespace

Mat3 exp(const Vec3& psi) {
  const Coeffs k = coeffs(psi.squaredNorm());
  const Mat3 S = skew(psi);
  return Mat3::Identity() + k.a * S + k.b * S * S;
}

Vec3 log(const Mat3& R) {
  const double cos_phi = std::clamp(0.5 * (R.trace() - 1.0), -1.0, 1.0);
  const Vec3 w(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));  // = 2 sin φ · axis
  if (cos_phi > 0.0) {
    // Away from π: φ = atan2(sin, cos) is well conditioned; series for small φ.
    const double sin_phi = 0.5 * w.norm();
    const double phi = std::atan2(sin_phi, cos_phi);
    const double factor = (phi < 1e-6) ? 0.5 * (1.0 + phi * phi / 6.0) : 0.5 * phi / sin_phi;
    return factor * w;
  }
  // Near π the antisymmetric part vanishes; read the axis from the symmetric part R + Rᵀ.
  const double phi = std::atan2(0.5 * w.norm(), cos_phi);  // acos is ill-conditioned near π
  const Mat3 B = 0.5 * (R + R.transpose()) - cos_phi * Mat3::Identity();  // = (1 − cos φ) n nᵀ
  int k = 0;
  B.diagonal().maxCoeff(&k);
  Vec3 n = B.col(k) / std::sqrt(std::max(B(k, k), 1e-300));
  n.normalize();
  if (n.dot(w) < 0.0) n = -n;  // sign from the (small) antisymmetric part
  return phi * n;
}

Mat3 tangent(const Vec3& psi) {
  const Coeffs k = coeffs(psi.squaredNorm());
  const Mat3 S = skew(psi);
  return Mat3::Identity() - k.b * S + k.c * S * S;
}

Mat3 tangent_inverse(const Vec3& psi) {
  const double phi2 = psi.squaredNorm();
  const Mat3 S = skew(psi);
  double d;  // (1 − (φ/2) cot(φ/2))/φ²
  if (phi2 < 1e-6) {
    d = 1.0 / 12.0 + phi2 / 720.0;
  } else {
    const double phi = std::sqrt(phi2);
    d = (1.0 - 0.5 * phi / std::tan(0.5 * phi)) / phi2;
  }
  return Mat3::Identity() + 0.5 * S + d * S * S;
}

Mat3 orthonormalize(const Mat3& R) {
  Eigen::JacobiSVD<Mat3> svd(R, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 Q = svd.matrixU() * svd.matrixV().transpose();
  if (Q.determinant() < 0.0) {
    Mat3 U = svd.matrixU();
    U.col(2) *= -1.0;
    Q = U * svd.matrixV().transpose();
  }
  return Q;
}

Mat3 frame_with_z_axis(const Vec3& axis) {
  const Vec3 z = axis.normalized();
  // Pick the world axis least aligned with z to build x, so the frame is well conditioned.
  Vec3 helper = Vec3::UnitX();
  if (std::abs(z.x()) > 0.9) helper = Vec3::UnitY();
  const Vec3 x = (helper - helper.dot(z) * z).normalized();
  const Vec3 y = z.cross(x);
  Mat3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = z;
  return R;
}

}  // namespace cs::so3
