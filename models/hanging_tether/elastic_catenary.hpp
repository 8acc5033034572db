#pragma once
// The analytic elastic catenary (Irvine, "Cable Structures", 1981, Sect. 2.2): the exact static
// shape of a uniform elastic cable of unstretched length L, weight w = mu g per unstretched
// length and axial stiffness EA between two fixed points, in the Lagrangian (unstretched arc)
// coordinate s in [0, L] measured from A. In the vertical plane through A and B, with x
// horizontal along d (from A towards B) and y up (= -e3), H the constant horizontal tension
// and V(s) = V_A + w s the vertical tension component (V_A at A, positive up along increasing
// s), equilibrium dT/ds = (0, w), Hooke's law dp/ds = 1 + T/EA (p stretched arc,
// T = sqrt(H^2 + V^2)) and the tangent (dx/dp, dy/dp) = (H, V)/T integrate to
//   x(s) = H s/EA + (H/w) [asinh(V(s)/H) - asinh(V_A/H)]
//   y(s) = (V_A s + w s^2/2)/EA + (1/w) [sqrt(H^2 + V(s)^2) - sqrt(H^2 + V_A^2)].
// H and V_A solve the two closure equations x(L) = l, y(L) = h (l horizontal span, h rise of B
// over A) by Newton's method with the analytic 2x2 Jacobian, started from the inextensible
// catenary's exact H and V_A.

#include "models/hanging_tether/mechanics.hpp"

namespace tb::hanging_tether {

class ElasticCatenary {
 public:
  // L, mu, g, EA, A and B from p (N, the discretisation and the damping play no part).
  // Throws std::invalid_argument for parameters parameter_problem() rejects, and
  // std::runtime_error if Newton does not converge.
  explicit ElasticCatenary(const Parameters& p);

  double horizontal_tension() const { return H_; }  // H (N)
  double vertical_tension_at_A() const { return VA_; }  // V_A (N), positive up along s
  int newton_iterations() const { return iterations_; }

  // The point at unstretched arc coordinate s (0 <= s <= L), and the tension there.
  Vec3 point(double s) const;
  double tension(double s) const;

  // The closure residual G(H, V_A) = (x(L) - l, y(L) - h) and its Jacobian d G/d(H, V_A).
  Eigen::Vector2d closure(double H, double VA) const;
  Eigen::Matrix2d closure_jacobian(double H, double VA) const;

 private:
  double x(double H, double VA, double s) const;
  double y(double H, double VA, double s) const;

  double L_, w_, EA_, span_, rise_;
  Vec3 A_, d_;
  double H_ = 0.0, VA_ = 0.0;
  int iterations_ = 0;
};

// max over the nodes r_0..r_N of |r_j - catenary.point(j L/N)|: the discrete shape against the
// analytic curve at the same unstretched arc coordinate.
double max_node_distance(const std::vector<Vec3>& r, const ElasticCatenary& catenary, double L);

}  // namespace tb::hanging_tether
