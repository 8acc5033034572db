#include "integrators/alpha_parameters.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

namespace tb {

SettingSpec rho_inf_setting(const std::string& about_one) {
  return SettingSpec{"rho_inf",
                     "spectral radius at infinity (Chung-Hulbert): 1 no numerical dissipation" + about_one +
                         ", 0 the highest modes annihilated in one step",
                     kDefaultRhoInf, 0.0, true, 1.0, false};
}

GeneralizedAlphaParameters GeneralizedAlphaParameters::from_rho_inf(double rho) {
  GeneralizedAlphaParameters p;
  p.alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
  p.alpha_f = rho / (rho + 1.0);
  p.gamma = 0.5 - p.alpha_m + p.alpha_f;
  p.beta = 0.25 * (p.gamma + 0.5) * (p.gamma + 0.5);
  return p;
}

GeneralizedAlphaParameters GeneralizedAlphaParameters::hht(double alpha) {
  GeneralizedAlphaParameters p;
  p.alpha_m = 0.0;
  p.alpha_f = -alpha;
  p.gamma = 0.5 - alpha;
  p.beta = 0.25 * (1.0 - alpha) * (1.0 - alpha);
  return p;
}

double GeneralizedAlphaParameters::spectral_radius(double Omega) const {
  // (2)-(4) on x'' = -w^2 x with h = 1: A1 (x, v, a)_{n+1} = A0 (x, v, a)_n.
  const double W2 = Omega * Omega;
  Eigen::Matrix3d A1, A0;
  A1 << 1.0, 0.0, -beta, 0.0, 1.0, -gamma, (1.0 - alpha_f) * W2, 0.0, 1.0 - alpha_m;
  A0 << 1.0, 1.0, 0.5 - beta, 0.0, 1.0, 1.0 - gamma, -alpha_f * W2, 0.0, -alpha_m;
  const Eigen::Matrix3d A = A1.partialPivLu().solve(A0);
  return Eigen::EigenSolver<Eigen::Matrix3d>(A).eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace tb
