// Where two solutions part (core/trajectory_separation.hpp): on synthetic trajectories with a
// known rate, and on the bundled reference of Model A's ranking and its cross-check, whose
// disagreement (scaled_l2 0.242 over 7.2 s) the report explains with it (issue 44 point 20).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "app/input/reference_data.hpp"
#include "core/trajectory_separation.hpp"

namespace {

std::vector<Eigen::VectorXd> states(const std::vector<double>& x) {
  std::vector<Eigen::VectorXd> out;
  for (double v : x) out.push_back(Eigen::VectorXd::Constant(2, v));
  return out;
}

}  // namespace

TEST_CASE("separation: a difference that grows at a known rate", "[separation]") {
  // 1e-11 until t = 2, then e^{10 (t - 2)}, capped at 1: rate 10 /s, a tenth of the end at 2 + ln(1e10)/10.
  std::vector<double> a, b;
  const double dt = 0.1;
  for (int k = 0; k <= 60; ++k) {
    const double t = k * dt;
    a.push_back(1.0);
    b.push_back(1.0 + std::min(1.0, t <= 2.0 ? 1e-11 : 1e-11 * std::exp(10.0 * (t - 2.0))));
  }
  const tb::Separation s = tb::separation(states(a), states(b), dt);
  REQUIRE(s.found);
  CHECK(s.early == Approx(1e-11).epsilon(1e-3));
  CHECK(s.max_rate == Approx(10.0).epsilon(1e-3));
  CHECK(s.agree_until == Approx(2.4).margin(1e-9));  // within 100x until e^{10 (t-2)} passes 100: t = 2.46
  CHECK(s.apart_at == Approx(4.4).margin(1e-9));     // 1e-11 e^{10 (t-2)} >= 0.1 from t = 2 + ln(1e10)/10 = 4.30: the next grid time
  // Solvers that only add their tolerance each step (a linear walk) never show such a rate.
  std::vector<double> walk;
  for (int k = 0; k <= 60; ++k) walk.push_back(1.0 + 1e-11 * (k + 1));
  const tb::Separation w = tb::separation(states(a), states(walk), dt);
  CHECK(w.max_rate < 7.0);
  CHECK(w.max_rate * (w.apart_at - w.agree_until) < std::log(1e3));
}

TEST_CASE("separation: Model A's reference and its cross-check part by amplification", "[separation]") {
  const std::string dir = std::string(TETHERBENCH_REFERENCE_DIR) + "/A_string_pendulum_paper/";
  const tb::StateTrajectory ref = tb::read_reference_trajectory(dir + "ranking_trajectory.bin");
  const tb::StateTrajectory cross = tb::read_reference_trajectory(dir + "crosscheck/ranking_trajectory.bin");
  const tb::Separation s = tb::separation(cross.states, ref.states, ref.interval);
  REQUIRE(s.found);
  // Two rtol-1e-13 solvers agree to ~1e-11 for 2 s of the string's motion ...
  CHECK(s.early < 1e-10);
  CHECK(s.agree_until > 2.0);
  // ... then part at e-folding rates above 10 /s to O(1) by ~4.3 s: a growth of 1e10 in ~2 s,
  // which no tolerance-level error of either solver makes without the motion amplifying it.
  CHECK(s.max_rate > 10.0);
  CHECK(s.apart > 1.0);
  CHECK(s.apart_at < 5.0);
  CHECK(s.apart / s.early > 1e10);
  CHECK(s.max_rate * (s.apart_at - s.agree_until) > std::log(1e3));
  INFO(tb::separation_words(s));
  CHECK(tb::separation_words(s).find("then part at e-folding rates up to") != std::string::npos);
}
