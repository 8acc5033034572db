#pragma once
// The configuration spaces of the suite's models as homogeneous spaces of one Lie group, for Lie
// group integrators (Runge-Kutta-Munthe-Kaas, commutator-free, Lie group generalized-alpha).
// An embedded state y in R^n holds
//   - rotations R in SO(3) as 9 numbers (row-major), moved by SO(3) acting on the right with the
//     body angular velocity: R' = R hat(Omega);
//   - unit directions q in S^2 as 3-vectors, moved by SO(3) acting on the left with the angular
//     velocity of the direction: q' = omega x q = hat(omega) q;
//   - positions x in R^k with their velocities v elsewhere in y, moved by translation: x' = v;
//   - everything else (the velocities and rates Omega, omega, v themselves, works) as a vector
//     space acting on itself by translation, with the equation's own y'.
// The group is G = SO(3)^r x SO(3)^d x R^p x R^m and its algebra g = R^(3r + 3d + p + m) in the
// layout [one 3-vector per rotation, one per direction, the positions, the other (free) vector
// entries in state order]. Rotations, directions and positions are the configuration, each
// with its velocity (Omega, omega, v) in the state: the second-order structure the Lie group
// generalized-alpha method needs; the free entries are the velocities and anything else. A vector
// field on the state becomes the map y -> xi(y) in g with y' = xi(y) . y (Munthe-Kaas 1999,
// "High order Runge-Kutta methods on manifolds", Appl. Numer. Math. 29, §2; Iserles,
// Munthe-Kaas, Norsett & Zanna 2000, Acta Numerica 9, §§2-3), and a method moves y by
// exp(u) . y0, which keeps R^T R = I and |q| = 1 to round-off whatever u is.

#include <Eigen/Dense>
#include <vector>

namespace tb::lie {

struct RotationFactor {
  Eigen::Index R = 0;     // first of the 9 entries of R (row-major)
  Eigen::Index rate = 0;  // first of the 3 entries of Omega, R' = R hat(Omega)
};
struct DirectionFactor {
  Eigen::Index q = 0;     // first of the 3 entries of q, |q| = 1
  Eigen::Index rate = 0;  // first of the 3 entries of omega, q' = omega x q
};
struct PositionFactor {
  Eigen::Index x = 0;     // first entry of the positions
  Eigen::Index rate = 0;  // first entry of their velocities, x' = v
  Eigen::Index size = 0;  // how many
};

class HomogeneousProduct {
 public:
  // All of R^state_size a vector space (a model without rotations or directions).
  explicit HomogeneousProduct(Eigen::Index state_size = 0) : HomogeneousProduct(state_size, {}, {}) {}
  // Throws std::invalid_argument when factors overlap each other or leave [0, state_size), or
  // when a rate lies inside a factor's configuration.
  HomogeneousProduct(Eigen::Index state_size, std::vector<RotationFactor> rotations,
                     std::vector<DirectionFactor> directions, std::vector<PositionFactor> positions = {});

  Eigen::Index state_size() const { return state_size_; }
  Eigen::Index algebra_size() const { return group_size() + position_size_ + Eigen::Index(vector_entries_.size()); }
  // 3 per rotation and direction: where the positions start in the algebra layout.
  Eigen::Index group_size() const { return 3 * Eigen::Index(rotations_.size() + directions_.size()); }
  Eigen::Index position_size() const { return position_size_; }
  // No rotation and no direction: the Lie group methods are their Runge-Kutta counterparts.
  bool is_vector_space() const { return rotations_.empty() && directions_.empty(); }
  const std::vector<RotationFactor>& rotations() const { return rotations_; }
  const std::vector<DirectionFactor>& directions() const { return directions_; }
  const std::vector<PositionFactor>& positions() const { return positions_; }
  // The free entries (neither a rotation, a direction nor a position), in state order; they
  // follow the positions in the algebra layout.
  const std::vector<Eigen::Index>& vector_entries() const { return vector_entries_; }

  // xi(y) in g for the field whose embedded velocity at y is dydt: Omega, omega and v read from
  // y (the field's rotation, direction and position rows are those rates' action), dydt on the
  // free entries.
  void algebra_field(const Eigen::VectorXd& y, const Eigen::VectorXd& dydt, Eigen::VectorXd& xi) const;

  // y = exp(u) . y0: R0 exp(hat u_R), exp(hat u_q) q0, y0 + u on the vector entries, each formed
  // as y0 + increment (the increment from exp(u) - I without forming I) so that a small u moves
  // y by an amount rounded relative to itself. y may not alias y0.
  void act(const Eigen::VectorXd& u, const Eigen::VectorXd& y0, Eigen::VectorXd& y) const;

  // k = dexp^{-1}(u) xi with the Bernoulli series truncated after ad^q (numerics/so3_dexp.hpp):
  // for y = exp(u(t)) . y0 to solve y' = xi . y, u' = k. Directions (left action):
  // dexp^{-1}_u; rotations (right action, R = R0 exp(hat u)): dexp^{-1}_{-u}; vector entries:
  // the identity. q = -1 takes the exact closed form.
  void dexp_inv(const Eigen::VectorXd& u, const Eigen::VectorXd& xi, int q, Eigen::VectorXd& k) const;

  // The embedded velocity of the curve e -> exp(e du) . y at e = 0: R hat(du_R), du_q x q, du on
  // vector entries (the derivative of act() at u = 0; tests compare the two).
  void embedded_velocity(const Eigen::VectorXd& y, const Eigen::VectorXd& du, Eigen::VectorXd& dydt) const;

  // Magnitude against which a relative tolerance measures each algebra component at y: 1 for
  // rotations and directions (u is an angle, R and q have unit size), |y_i| on vector entries.
  void algebra_magnitudes(const Eigen::VectorXd& y, Eigen::VectorXd& size) const;

  // Distance of y from the manifold: max over rotations of ||I - R^T R||_F and over directions of
  // | |q| - 1 | (0 when there are none).
  double rotation_defect(const Eigen::VectorXd& y) const;
  double direction_defect(const Eigen::VectorXd& y) const;

 private:
  Eigen::Index state_size_;
  std::vector<RotationFactor> rotations_;
  std::vector<DirectionFactor> directions_;
  std::vector<PositionFactor> positions_;
  Eigen::Index position_size_ = 0;
  std::vector<Eigen::Index> vector_entries_;
};

}  // namespace tb::lie
