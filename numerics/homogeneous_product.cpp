#include "numerics/homogeneous_product.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "numerics/lie_group.hpp"
#include "numerics/so3_dexp.hpp"

namespace tb::lie {
namespace {

Mat3 rotation_at(const Eigen::VectorXd& y, Eigen::Index k) {
  Mat3 R;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) R(r, c) = y(k + 3 * r + c);
  return R;
}

void store_rotation(const Mat3& R, Eigen::Index k, Eigen::VectorXd& y) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) y(k + 3 * r + c) = R(r, c);
}

Vec3 truncated_or_exact_dexp_inv(const Vec3& u, const Vec3& xi, int q) {
  return q < 0 ? Vec3(so3::dexp_inv(u) * xi) : so3::dexp_inv_series(u, xi, q);
}

}  // namespace

HomogeneousProduct::HomogeneousProduct(Eigen::Index state_size, std::vector<RotationFactor> rotations,
                                       std::vector<DirectionFactor> directions, std::vector<PositionFactor> positions)
    : state_size_(state_size),
      rotations_(std::move(rotations)),
      directions_(std::move(directions)),
      positions_(std::move(positions)) {
  std::vector<int> owner(size_t(std::max<Eigen::Index>(state_size, 0)), 0);  // 0 vector entry, 1 configuration
  auto claim = [&](Eigen::Index first, int count, const char* what) {
    if (first < 0 || first + count > state_size)
      throw std::invalid_argument(std::string("HomogeneousProduct: a ") + what + " leaves the state of size " +
                                  std::to_string(state_size));
    for (int i = 0; i < count; ++i) {
      if (owner[size_t(first + i)] != 0)
        throw std::invalid_argument(std::string("HomogeneousProduct: a ") + what + " overlaps another factor at entry " +
                                    std::to_string(first + i));
      owner[size_t(first + i)] = 1;
    }
  };
  for (const RotationFactor& f : rotations_) claim(f.R, 9, "rotation");
  for (const DirectionFactor& f : directions_) claim(f.q, 3, "direction");
  for (const PositionFactor& f : positions_) {
    if (f.size <= 0) throw std::invalid_argument("HomogeneousProduct: a position factor of size " + std::to_string(f.size));
    claim(f.x, int(f.size), "position");
    position_size_ += f.size;
  }
  auto check_rate = [&](Eigen::Index first, Eigen::Index count = 3) {
    if (first < 0 || first + count > state_size)
      throw std::invalid_argument("HomogeneousProduct: a rate leaves the state");
    for (Eigen::Index i = 0; i < count; ++i)
      if (owner[size_t(first + i)] != 0)
        throw std::invalid_argument("HomogeneousProduct: a rate lies inside a factor's configuration");
  };
  for (const RotationFactor& f : rotations_) check_rate(f.rate);
  for (const DirectionFactor& f : directions_) check_rate(f.rate);
  for (const PositionFactor& f : positions_) check_rate(f.rate, f.size);
  for (Eigen::Index i = 0; i < state_size; ++i)
    if (owner[size_t(i)] == 0) vector_entries_.push_back(i);
}

void HomogeneousProduct::algebra_field(const Eigen::VectorXd& y, const Eigen::VectorXd& dydt,
                                       Eigen::VectorXd& xi) const {
  xi.resize(algebra_size());
  Eigen::Index a = 0;
  for (const RotationFactor& f : rotations_) xi.segment<3>(a) = y.segment<3>(f.rate), a += 3;
  for (const DirectionFactor& f : directions_) xi.segment<3>(a) = y.segment<3>(f.rate), a += 3;
  for (const PositionFactor& f : positions_) xi.segment(a, f.size) = y.segment(f.rate, f.size), a += f.size;
  for (Eigen::Index i : vector_entries_) xi(a++) = dydt(i);
}

void HomogeneousProduct::act(const Eigen::VectorXd& u, const Eigen::VectorXd& y0, Eigen::VectorXd& y) const {
  y = y0;
  Eigen::Index a = 0;
  for (const RotationFactor& f : rotations_) {
    const Mat3 R0 = rotation_at(y0, f.R);
    store_rotation(R0 + R0 * so3::exp_minus_identity(u.segment<3>(a)), f.R, y);  // R0 exp(hat u)
    a += 3;
  }
  for (const DirectionFactor& f : directions_) {
    const Vec3 q0 = y0.segment<3>(f.q);
    y.segment<3>(f.q) = q0 + so3::exp_minus_identity_times(u.segment<3>(a), q0);  // exp(hat u) q0
    a += 3;
  }
  for (const PositionFactor& f : positions_) y.segment(f.x, f.size) += u.segment(a, f.size), a += f.size;
  for (Eigen::Index i : vector_entries_) y(i) += u(a++);
}

void HomogeneousProduct::dexp_inv(const Eigen::VectorXd& u, const Eigen::VectorXd& xi, int q,
                                  Eigen::VectorXd& k) const {
  k.resize(algebra_size());
  Eigen::Index a = 0;
  // R = R0 exp(hat u): R' = R hat(dexp_{-u} u') (the right-trivialised derivative of exp is
  // dexp_{-u}), so u' = dexp^{-1}_{-u} Omega.
  for (size_t r = 0; r < rotations_.size(); ++r, a += 3)
    k.segment<3>(a) = truncated_or_exact_dexp_inv(-u.segment<3>(a), xi.segment<3>(a), q);
  // q = exp(hat u) q0: q' = hat(dexp_u u') q, so u' = dexp^{-1}_u omega.
  for (size_t d = 0; d < directions_.size(); ++d, a += 3)
    k.segment<3>(a) = truncated_or_exact_dexp_inv(u.segment<3>(a), xi.segment<3>(a), q);
  const Eigen::Index m = position_size_ + Eigen::Index(vector_entries_.size());  // translations: the identity
  k.segment(a, m) = xi.segment(a, m);
}

void HomogeneousProduct::embedded_velocity(const Eigen::VectorXd& y, const Eigen::VectorXd& du,
                                           Eigen::VectorXd& dydt) const {
  dydt.setZero(state_size_);
  Eigen::Index a = 0;
  for (const RotationFactor& f : rotations_) {
    store_rotation(rotation_at(y, f.R) * so3::hat(du.segment<3>(a)), f.R, dydt);
    a += 3;
  }
  for (const DirectionFactor& f : directions_) {
    dydt.segment<3>(f.q) = Vec3(du.segment<3>(a)).cross(Vec3(y.segment<3>(f.q)));
    a += 3;
  }
  for (const PositionFactor& f : positions_) dydt.segment(f.x, f.size) = du.segment(a, f.size), a += f.size;
  for (Eigen::Index i : vector_entries_) dydt(i) = du(a++);
}

void HomogeneousProduct::algebra_magnitudes(const Eigen::VectorXd& y, Eigen::VectorXd& size) const {
  size.resize(algebra_size());
  size.head(group_size()).setOnes();
  Eigen::Index a = group_size();
  for (const PositionFactor& f : positions_) size.segment(a, f.size) = y.segment(f.x, f.size).cwiseAbs(), a += f.size;
  for (Eigen::Index i : vector_entries_) size(a++) = std::abs(y(i));
}

double HomogeneousProduct::rotation_defect(const Eigen::VectorXd& y) const {
  double worst = 0.0;
  for (const RotationFactor& f : rotations_) worst = std::max(worst, so3::orthogonality_error(rotation_at(y, f.R)));
  return worst;
}

double HomogeneousProduct::direction_defect(const Eigen::VectorXd& y) const {
  double worst = 0.0;
  for (const DirectionFactor& f : directions_) worst = std::max(worst, std::abs(y.segment<3>(f.q).norm() - 1.0));
  return worst;
}

}  // namespace tb::lie
