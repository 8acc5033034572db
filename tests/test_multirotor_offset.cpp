// Model C with the cable attached off the multirotor's centre of mass (Parameters::
// attachment_offset, mechanics.hpp): every form's new derivatives against finite differences,
// the forms against each other, the invariants E, P, pi3 of the coupled system, and that the
// rotation now couples (the body's angular momentum about its centre of mass is exchanged with
// the cable while the total pi3 is kept).

#include <catch2/catch.hpp>

#include <cmath>

#include "models/multirotor_payload/forms.hpp"
#include "models/multirotor_payload/model.hpp"
#include "multirotor_test_support.hpp"
#include "test_support.hpp"

using namespace tb;
using namespace tb::multirotor_payload;
using tb::testing::paper_single;
using tb::testing::small_cooperative;
using tb::testing::spinning;

namespace {

// A generic offset (off every body axis) for the derivative tests; the case's is on the axis.
const Vec3 kOffset(0.03, -0.02, 0.08);

Parameters with_offset(Parameters p, const Vec3& rho = kOffset) {
  p.attachment_offset = rho;
  return p;
}

// A generic state: directions and link rates off the straight line, omega_i . q_i = 0, R tilted.
State perturbed_state(const Mechanics& mech, unsigned seed) {
  std::srand(seed);
  InitialCondition ic;
  ic.Omega0 = Vec3(0.3, -0.2, 1.0);
  ic.R0 = so3::exp(Vec3(0.2, 0.1, -0.3));
  State s = mech.initial_state(ic);
  s.Vp = Vec3::Random();
  for (auto& cable : s.q)
    for (auto& q : cable) q = (q + 0.3 * Vec3(Vec3::Random())).normalized();
  for (size_t a = 0; a < s.q.size(); ++a)
    for (size_t i = 0; i < s.q[a].size(); ++i) s.omega[a][i] = s2::project_tangent(s.q[a][i], 2.0 * Vec3(Vec3::Random()));
  return s;
}

}  // namespace

TEST_CASE("offset: the ODE's flow keeps E, P and pi3 (their rates vanish along rhs)", "[model-c][offset][ode]") {
  // d/dt of each invariant along the vector field, by central differences of Mechanics' own
  // expressions: the equations of motion (ode_form.cpp) and the energies/momenta (mechanics.cpp)
  // are derived separately, so this checks one against the other.
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    OdeForm ode(p, InitialCondition{});
    const Mechanics& mech = ode.mechanics();
    Eigen::VectorXd y, f;
    mech.pack(perturbed_state(mech, 7), y);
    ode.rhs(0.0, y, f);
    const double e = 1e-6;
    const Observation plus = mech.observe(mech.unpack(y + e * f)), minus = mech.observe(mech.unpack(y - e * f)),
                      here = mech.observe(mech.unpack(y));
    const double dE = (plus.energy - minus.energy) / (2 * e), dH = (plus.momentum - minus.momentum) / (2 * e);
    const Vec3 dP = (plus.linear_momentum - minus.linear_momentum) / (2 * e);
    INFO("m = " << p.multirotors << ": dE/dt " << dE << " (T = " << here.kinetic << "), dP/dt " << dP.norm()
                << ", dpi3/dt " << dH);
    CHECK(std::abs(dE) < 1e-7 * (1.0 + here.kinetic));
    CHECK(dP.norm() < 1e-7 * (1.0 + here.linear_momentum.norm()));
    CHECK(std::abs(dH) < 1e-7 * (1.0 + std::abs(here.momentum)));
  }
}

TEST_CASE("offset: the continuous Legendre transform and its O(mn) inverse round-trip", "[model-c][offset][vi]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    LieGroupForm form(p, InitialCondition{});
    const State s = perturbed_state(form.mechanics(), 11);
    const State back = form.to_physical(form.from_physical(s));
    CHECK((back.Vp - s.Vp).norm() < 1e-13);
    for (int a = 0; a < p.multirotors; ++a) {
      CHECK((back.Omega[a] - s.Omega[a]).norm() < 1e-12);
      for (int i = 0; i < p.links; ++i) CHECK((back.omega[a][i] - s.omega[a][i]).norm() < 1e-11);
    }
  }
}

TEST_CASE("offset: the VI's Newton matrix is the derivative of its residual (finite differences)",
          "[model-c][offset][vi][derivatives]") {
  for (const Parameters& p : {with_offset(paper_single()), with_offset(small_cooperative())}) {
    LieGroupForm form(p, InitialCondition{});
    const Eigen::VectorXd y = form.from_physical(perturbed_state(form.mechanics(), 17));
    auto step = form.make_step();
    const double h = 1e-3;
    step->begin(y, h);
    Eigen::VectorXd x;
    step->initial_guess(x);
    std::srand(19);
    x += 1e-4 * Eigen::VectorXd::Random(x.size());
    const int N = int(x.size());
    Eigen::MatrixXd fd(N, N), inverse(N, N);
    for (int i = 0; i < N; ++i) {
      const double e = 1e-6;
      Eigen::VectorXd xp = x, xm = x, Gp, Gm;
      xp(i) += e;
      xm(i) -= e;
      step->residual(xp, Gp);
      step->residual(xm, Gm);
      fd.col(i) = (Gp - Gm) / (2.0 * e);
      Eigen::VectorXd col;
      REQUIRE(step->newton_correction(x, -Eigen::VectorXd::Unit(N, i), col));
      inverse.col(i) = col;
    }
    const Eigen::MatrixXd analytic = inverse.inverse();
    const double err = (fd - analytic).cwiseAbs().maxCoeff() / analytic.cwiseAbs().maxCoeff();
    INFO("m = " << p.multirotors << ": max |FD - analytic| / max |analytic| = " << err);
    CHECK(err <= 1e-8);
  }
}
