// Implementation of the SO(3)/S² primitives declared in lie_group.hpp.
#include "numerics/lie_group.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <stdexcept>

namespace tb::so3 {

Mat3 hat(const Vec3& x) {
  Mat3 A;
  A << 0.0, -x(2), x(1),
       x(2), 0.0, -x(0),
       -x(1), x(0), 0.0;
  return A;
}

Vec3 vee(const Mat3& A) { return Vec3(A(2, 1), A(0, 2), A(1, 0)); }

Vec3 vee_skew(const Mat3& A) {
  return 0.5 * Vec3(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1));
}

// Closed form of (I + ĉ)(I − ĉ)⁻¹ (seed 002 eq. (52)); no matrix inverse needed.
Mat3 cayley(const Vec3& c) {
  const Mat3 C = hat(c);
  return Mat3::Identity() + (2.0 / (1.0 + c.squaredNorm())) * (C + C * C);
}

Mat3 cayley_minus_identity(const Vec3& c) {
  const Mat3 C = hat(c);
  return (2.0 / (1.0 + c.squaredNorm())) * (C + C * C);
}

Mat3 times_cayley(const Mat3& R, const Vec3& c) { return R + R * cayley_minus_identity(c); }

// (F − I)ᵀ p = (2/s)(−c × p + c × (c × p)) since ĉᵀ = −ĉ and (ĉ²)ᵀ = ĉ².
Vec3 cayley_transpose_increment(const Vec3& c, const Vec3& p) {
  const Vec3 cp = c.cross(p);
  return (2.0 / (1.0 + c.squaredNorm())) * (c.cross(cp) - cp);
}

// c = vee(F − Fᵀ)/(1 + tr F) = tan(φ/2) u; 1 + tr F = 4 cos²(φ/2) vanishes at φ = π.
Vec3 cayley_inverse(const Mat3& F) {
  const double denom = 1.0 + F.trace();
  if (!(denom > kCayleyTiny))
    throw std::domain_error("so3::cayley_inverse: 1 + tr F <= tiny (rotation angle ~ pi has no Cayley parameter)");
  return (2.0 / denom) * vee_skew(F);  // vee(F − Fᵀ) = 2 vee_skew(F)
}

// From dF = 2(I−ĉ)⁻¹ dĉ (I−ĉ)⁻¹ and Mᵀ hat(x) M = det(M) hat(M⁻¹x): Fᵀ dF = hat(2/(1+|c|²)(I − ĉ) dc).
Mat3 cayley_left_jacobian(const Vec3& c) {
  return (2.0 / (1.0 + c.squaredNorm())) * (Mat3::Identity() - hat(c));
}

// Rodrigues; B uses the half-angle form 2 sin²(θ/2)/θ² to avoid cancellation in 1 − cos θ.
namespace {
// sin t / t and (1 - cos t) / t^2 at t = |w|, the coefficients of Rodrigues' formula.
void rodrigues_coefficients(const Vec3& w, double& A, double& B) {
  const double t2 = w.squaredNorm();
  const double t = std::sqrt(t2);
  if (t < 1e-3) {  // truncation error O(θ⁶) < 1e-19
    A = 1.0 - t2 / 6.0 * (1.0 - t2 / 20.0);
    B = 0.5 - t2 / 24.0 * (1.0 - t2 / 30.0);
  } else {
    A = std::sin(t) / t;
    const double h = std::sin(0.5 * t) / t;
    B = 2.0 * h * h;
  }
}
}  // namespace

Mat3 exp(const Vec3& w) {
  double A, B;
  rodrigues_coefficients(w, A, B);
  const Mat3 W = hat(w);
  return Mat3::Identity() + A * W + B * (W * W);
}

Vec3 exp_minus_identity_times(const Vec3& w, const Vec3& v) {
  double A, B;
  rodrigues_coefficients(w, A, B);
  const Vec3 wxv = w.cross(v);
  return A * wxv + B * w.cross(wxv);
}

Mat3 exp_minus_identity(const Vec3& w) {
  double A, B;
  rodrigues_coefficients(w, A, B);
  const Mat3 W = hat(w);
  return A * W + B * (W * W);
}

// θ = atan2(sin θ, cos θ) with sin θ = |vee_skew(R)|, cos θ = (tr R − 1)/2: never calls acos.
Vec3 log(const Mat3& R) {
  const Vec3 v = vee_skew(R);  // = sin θ · u
  const double s = v.norm();
  const double c = 0.5 * (R.trace() - 1.0);
  const double theta = std::atan2(s, c);
  if (c > -0.5) {  // θ < 2π/3: the skew part determines u well
    const double f = (theta < 1e-4) ? 1.0 + theta * theta / 6.0 : theta / s;
    return f * v;
  }
  // Near π the skew part vanishes; use ½(R + Rᵀ) − cos θ I = (1 − cos θ) u uᵀ and take the best-conditioned column.
  const Mat3 Bm = 0.5 * (R + R.transpose()) - c * Mat3::Identity();
  int k = 0;
  Bm.diagonal().maxCoeff(&k);
  Vec3 u = Bm.col(k).normalized();
  if (u.dot(v) < 0.0) u = -u;  // sign from sin θ · u (either sign is valid at exactly π)
  return theta * u;
}

double orthogonality_error(const Mat3& R) { return (Mat3::Identity() - R.transpose() * R).norm(); }

Mat3 nonstandard_inertia(const Mat3& J) { return 0.5 * J.trace() * Mat3::Identity() - J; }

Mat3 inertia_from_nonstandard(const Mat3& Jd) { return Jd.trace() * Mat3::Identity() - Jd; }

bool is_rotation(const Mat3& R, double tol) { return orthogonality_error(R) <= tol && R.determinant() > 0.0; }

Mat3 rotational_momentum_jacobian(const Mat3& F, const Mat3& Jd, const Vec3& c, double h) {
  // Column i is (1/h) vee(F hat(e_i) Jd + Jd hat(e_i) F^T) = (1/h) F vee(hat(e_i) N + N^T hat(e_i))
  // with N = Jd F (factor F (.) F^T out; vee(F S F^T) = F vee(S) for a rotation F), and
  // hat(v) N + N^T hat(v) = hat((tr(N) I - N) v) for any 3x3 N. So the whole block is
  // F (tr(N) I - N) / h: two 3x3 products instead of six.
  const Mat3 N = Jd * F;
  const Mat3 D = F * (N.trace() * Mat3::Identity() - N) / h;
  return D * cayley_left_jacobian(c);
}

Vec3 cayley_momentum(const Mat3& J, const Vec3& c, double h) {
  const Vec3 Jc = J * c;
  return (2.0 / (h * (1.0 + c.squaredNorm()))) * (Jc + c.cross(Jc));
}

Vec3 cross_product_magnitude(const Vec3& a, const Vec3& b) {
  return Vec3(a(1) * b(2) + a(2) * b(1), a(2) * b(0) + a(0) * b(2), a(0) * b(1) + a(1) * b(0));
}

Vec3 cayley_momentum_magnitude(const Mat3& J, const Vec3& c, double h) {
  const Vec3 a = c.cwiseAbs(), Jc = J.cwiseAbs() * a;  // |J| |c| bounds the terms of J c
  return (2.0 / (std::abs(h) * (1.0 + c.squaredNorm()))) * (Jc + cross_product_magnitude(a, Jc));
}

namespace {
// s (J + hat(c) J - hat(J c)) - 2 (J c + c x J c) c^T, s = 1 + |c|^2: cayley_momentum's Jacobian
// times h s^2 / 2, which needs no division.
Mat3 scaled_cayley_momentum_jacobian(const Mat3& J, const Vec3& c, double s) {
  const Vec3 Jc = J * c, two_r = 2.0 * (Jc + c.cross(Jc));
  Mat3 jacobian;
  for (int j = 0; j < 3; ++j) jacobian.col(j) = s * (J.col(j) + c.cross(J.col(j))) - c(j) * two_r;
  const Vec3 sJc = s * Jc;
  jacobian(0, 1) += sJc(2), jacobian(0, 2) -= sJc(1), jacobian(1, 2) += sJc(0);
  jacobian(1, 0) -= sJc(2), jacobian(2, 0) += sJc(1), jacobian(2, 1) -= sJc(0);
  return jacobian;
}
}  // namespace

Mat3 cayley_momentum_jacobian(const Mat3& J, const Vec3& c, double h) {
  const double s = 1.0 + c.squaredNorm();
  return scaled_cayley_momentum_jacobian(J, c, s) * (2.0 / (h * s * s));
}

bool cayley_momentum_correction(const Mat3& J, const Vec3& c, double h, const Vec3& g, Vec3& dc) {
  const double s = 1.0 + c.squaredNorm();
  const Mat3 A = scaled_cayley_momentum_jacobian(J, c, s);
  const Vec3 c12 = A.col(1).cross(A.col(2)), c20 = A.col(2).cross(A.col(0)), c01 = A.col(0).cross(A.col(1));
  const double det = A.col(0).dot(c12);
  if (!(std::abs(det) > 0.0)) return false;
  const Vec3 b = (-0.5 * h * s * s / det) * g;  // A (2/(h s^2)) dc = -g  <=>  A dc = -(h s^2 / 2) g
  dc = Vec3(b.dot(c12), b.dot(c20), b.dot(c01));
  return dc.allFinite();
}

}  // namespace tb::so3

namespace tb::s2 {

double unit_length_error(const Vec3& q) { return std::abs(q.norm() - 1.0); }

Vec3 project_tangent(const Vec3& q, const Vec3& v) { return v - q * q.dot(v); }

Vec3 rotate(const Vec3& q, const Vec3& w) { return so3::exp(w) * q; }

Mat3 tangent_projector(const Vec3& q) { return Mat3::Identity() - q * q.transpose(); }

Vec3 rotation_onto_increment(const Vec3& q, const Vec3& e) {
  const double qe = q.dot(e);
  const double length = std::sqrt(1.0 + (2.0 * qe + e.squaredNorm()));  // |q + e| for |q| = 1
  const Vec3 c = q.cross(e) / (length + 1.0 + qe);
  const double c2 = c.squaredNorm();
  return (2.0 * c.cross(q) - 2.0 * c2 * q) / (1.0 + c2);
}

}  // namespace tb::s2
