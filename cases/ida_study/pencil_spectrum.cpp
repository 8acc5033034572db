// STUDY TOOL (issue 12 item 2; reverted in the next commit). Build from build/ with:
//   g++ -O2 -DNDEBUG -std=c++20 -I.. -I layers/suite -I layers/models -I layers/mechanics -I layers/core -I layers/numerics \
//     -I layers/integrators -I layers/studies -isystem /usr/include/eigen3 ../cases/ida_study/pencil_spectrum.cpp -o pencil_spectrum \
//     libtetherbench_suite.a libtetherbench_studies.a libtetherbench_integrators.a libtetherbench_models.a \
//     libtetherbench_mechanics.a libtetherbench_core.a libtetherbench_numerics.a -lsundials_ida -lsundials_nvecserial \
//     -lsundials_sunlinsolband -lsundials_sunlinsoldense -lsundials_sunmatrixband -lsundials_sunmatrixdense
// Run: ./pencil_spectrum coop T_END SAMPLE H RTOL ATOL  (e.g. coop 260 0.05 1e-4 1e-7 1e-9): per sample, the largest
// |Im mu| (two of them), the smallest and largest multiplier lambda and the largest Re mu of the linearised pencil.
// Highest eigenfrequencies of Model C's linearised DAE pencil along an IDA trajectory.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cstdio>
#include <vector>
#include "core/runner.hpp"
#include "suite/catalogue.hpp"
#include "models/multirotor_payload/forms.hpp"
#include "models/multirotor_payload/model.hpp"
using namespace tb;
using namespace tb::multirotor_payload;
Eigen::MatrixXd dense(const DaeForm& f, const Eigen::VectorXd& y, const Eigen::VectorXd& yp, double cj, const BaumgarteParameters& b) {
  std::vector<Eigen::Triplet<double>> e;
  f.jacobian(0, y, yp, cj, b, e);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(y.size(), y.size());
  for (auto& t : e) M(t.row(), t.col()) += t.value();
  return M;
}
int main(int argc, char** argv) {
  Parameters p;
  p.J_Q = Eigen::Vector3d(1.367e-2, 1.367e-2, 2.586e-2).asDiagonal();
  bool coop = argc > 1 && std::string(argv[1]) == "coop";
  if (coop) { p.multirotors = 3; p.links = 5; p.link_mass = 0.01; }
  double tend = argc > 2 ? atof(argv[2]) : 40.0;
  double dt = argc > 3 ? atof(argv[3]) : 0.5;
  InitialCondition ic;
  DaeForm f(p, ic);
  BaumgarteParameters b{10.0, 10.0};
  const IntegratorInfo* ida = suite_catalogue().find_integrator("ida");
  IntegratorSettings s = IntegratorSettings::defaults(ida->settings, argc > 4 ? atof(argv[4]) : 1e-4);
  s.set("rtol", argc > 5 ? atof(argv[5]) : 1e-7); s.set("atol", argc > 6 ? atof(argv[6]) : 1e-9);
  std::printf("t,omega_max,omega_2nd,lambda_min,lambda_max\n");
  integrate(f, *ida, s, tend, dt, [&](double t, const Eigen::VectorXd& yin) {
    Eigen::VectorXd y = yin;
    Eigen::VectorXd yp = f.solve_index_one(y, b);
    Eigen::MatrixXd A = dense(f, y, yp, 0.0, b), B = dense(f, y, yp, 1.0, b) - A;
    Eigen::GeneralizedEigenSolver<Eigen::MatrixXd> ges(-A, B, false); if (ges.info() != Eigen::Success) { std::printf("%g,QZ failed\n", t); return; }
    std::vector<double> w; double remax = -1e300;
    for (int i = 0; i < ges.alphas().size(); ++i) {
      if (ges.betas()(i) == 0.0 || std::abs(ges.betas()(i)) < 1e-12 * std::abs(ges.alphas()(i))) continue;
      const auto mu = ges.alphas()(i) / ges.betas()(i);
      w.push_back(std::abs(mu.imag())); remax = std::max(remax, mu.real());
    }
    std::sort(w.rbegin(), w.rend());
    double lmin = 1e300, lmax = -1e300;
    for (int a = 0; a < p.multirotors; ++a) for (int j = 1; j <= p.links; ++j) { lmin = std::min(lmin, y(f.multiplier_index(a, j))); lmax = std::max(lmax, y(f.multiplier_index(a, j))); }
    std::printf("%g,%.1f,%.1f,%.3f,%.3f,%.3f\n", t, w[0], w.size() > 2 ? w[2] : 0.0, lmin, lmax, remax);
    std::fflush(stdout);
  });
}
