// Eigen aliases used throughout clearsim.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace cs {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

// Index of the fixed ground body in element body lists.
inline constexpr int kGround = -1;

}  // namespace cs
