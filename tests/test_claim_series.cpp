// Claims about a time judged on the run's time series (app/input/claim_series.hpp,
// studies/paper_comparison/paper_verdict.cpp): the analyses on synthetic series with known answers, and the
// verdicts a350e29's report got wrong (issue 32 item 1) as regression cases.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "app/input/claim_series.hpp"
#include "studies/paper_comparison/paper_verdict.hpp"
#include "tests/temp_file.hpp"

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

tb::Series series(double t_end, double dt, const std::function<double(double)>& f, const std::string& words = "q") {
  tb::Series s;
  s.words = words;
  for (long k = 0; double(k) * dt <= t_end * (1 + 1e-12); ++k) s.t.push_back(double(k) * dt), s.v.push_back(f(double(k) * dt));
  return s;
}

tb::PaperClaim claim(const std::string& kind, double paper_value, double tolerance) {
  tb::PaperClaim c;
  c.id = "t";
  c.source = "seed 999";
  c.case_name = "X";
  c.run = "m";
  c.kind = tb::enum_from_text<tb::ClaimKind>(kind);
  c.metric = "series:balance";
  c.series = "balance";
  c.paper_value = paper_value;
  c.has_paper_value = tb::paper_claim_has_value(c.kind);
  c.tolerance = tolerance;
  if (tb::paper_claim_has_other(c.kind)) c.other_case = "X", c.other_run = "n";
  return c;
}

tb::SummaryRow row(double t_end, long steps) {
  tb::SummaryRow r;
  r.case_name = "X";
  r.integrator = "m";
  r.t_end = t_end;
  r.counters.steps = steps;
  return r;
}

}  // namespace

TEST_CASE("a time series file is read whole and quantities derive from its columns", "[claim-series]") {
  const fs::path dir = tb::testing::scratch_dir("claim_series_read");
  std::ofstream(dir / "timeseries.csv") << "t,energy,kinetic,external_work,payload_x,payload_y,a_ang_mom,b_ang_mom\n"
                                           "0,10,1,0,3,0,1,5\n"
                                           "0.5,10.5,2,0.25,0,4,1.5,4\n";
  const tb::TimeSeriesTable t = tb::read_time_series((dir / "timeseries.csv").string());
  REQUIRE(t.samples() == 2);
  CHECK(tb::derive_series(t, "balance").v[1] == Approx(0.25));                // (10.5 - 10) - 0.25
  CHECK(tb::derive_series(t, "norm:payload_x,payload_y").v[0] == Approx(3.0));
  CHECK(tb::derive_series(t, "norm:payload_x,payload_y").v[1] == Approx(4.0));
  CHECK(tb::derive_series(t, "maxdev:*_ang_mom").v[1] == Approx(1.0));        // max(|1.5 - 1|, |4 - 5|)
  CHECK(tb::derive_series(t, "sub:payload_x,payload_y").v[1] == Approx(-4.0));
  CHECK(tb::derive_series(t, "neg:kinetic").v[1] == Approx(-2.0));
  CHECK(tb::derive_series(t, "dev:energy").v[1] == Approx(0.5));
  CHECK_THROWS_WITH(tb::derive_series(t, "dev:P_z"), Contains("no column 'P_z'"));
  CHECK_THROWS_WITH(tb::derive_series(t, "maxdev:*_rate"), Contains("no column matches"));
  std::string why;
  CHECK_FALSE(tb::valid_series_spec("sub:a", why));
  CHECK_FALSE(tb::valid_series_spec("balance:x", why));
  CHECK_FALSE(tb::valid_series_spec("mean:a", why));
  CHECK(tb::valid_series_spec("norm:a,b,c", why));
  CHECK_THROWS_WITH(tb::read_time_series((dir / "missing.csv").string()), Contains("missing.csv"));
  fs::remove_all(dir);
}

TEST_CASE("peaks, periods, partings and exponential rates on series with known answers", "[claim-series]") {
  // A pendulum-like swing of period 7.2 s with fast ripple: the big peaks at 1.8 and 5.4 s.
  const auto swing = series(10, 0.005, [](double t) { return std::abs(std::sin(2 * M_PI * t / 7.2)) + 0.01 * std::sin(200 * t); });
  CHECK(tb::peak_near(swing, 1.8, 1.1).interior);
  CHECK(tb::peak_near(swing, 5.5, 1.1).interior);
  CHECK_FALSE(tb::peak_near(swing, 3.6, 1.1).interior);  // a trough: the max sits at the window's edge
  // A 1.2 s oscillation on a slow trend and fast ripple.
  const auto exchange = series(10, 0.005, [](double t) { return 0.3 * t + 0.01 * std::sin(2 * M_PI * t / 1.2) + 0.001 * std::sin(150 * t); });
  const tb::Period p = tb::dominant_period(exchange, 0.0, 10.0, 1.2 / 1.44, 1.2 * 1.44);
  REQUIRE(p.found);
  CHECK(p.period == Approx(1.2).margin(0.03));
  CHECK(p.correlation > 0.8);
  CHECK(tb::dominant_period(series(10, 0.005, [](double t) { return 0.3 * t; }), 0.0, 10.0, 0.8, 1.7).correlation < 0.3);
  // Two runs that agree until 5 s, then part.
  const auto a = series(10, 0.01, [](double t) { return std::sin(t); });
  const auto b = series(10, 0.01, [](double t) { return std::sin(t) + (t > 5 ? 0.5 * (t - 5) : 0.0); });
  CHECK(tb::first_parting(a, b, 0.1) == Approx(5.2).margin(0.02));
  CHECK(tb::max_difference(a, b, 0.0, 5.0) == Approx(0.0).margin(1e-12));
  // exp(0.05 t) from round-off: its rate, over the decades between round-off and saturation.
  const auto e = series(1000, 0.1, [](double t) { return std::min(1.0, 1e-16 * std::exp(0.05 * t)); });
  CHECK(tb::exponential_rate(e, 1e-10, 1e-2) == Approx(0.05).epsilon(1e-6));
}

TEST_CASE("claims about a time are judged on the series, not on the run's status", "[claim-series][paper-claims]") {
  // 003-fig7-rk4-diverges (a350e29: "contradicts: ours completes 1000 s without diverging" while its
  // own series jumps at ~340 s): a completed run the instability criterion dates from 349.9 s agrees.
  const tb::Series rk4 = series(1000, 0.1, [](double t) { return 1e-10 * t + (t > 300 ? 1e-10 * std::exp(0.2 * (t - 300)) : 0.0); });
  tb::ClaimEvidence e;
  e.series = &rk4;
  const tb::PaperClaim diverges = claim("diverges", 400.0, 1.25);
  tb::SummaryRow unstable = row(1000, 1000000);
  unstable.outcome.kind = tb::RunOutcome::Kind::Unstable;
  unstable.outcome.t = 349.9, unstable.outcome.step = 349900;
  unstable.outcome.reason = "|E - E0 - W| grows exponentially";
  tb::ClaimVerdict v = tb::judge_claim(diverges, unstable, nullptr, std::nullopt, e);
  CHECK(v.verdict == "agrees");
  CHECK_THAT(v.ours, Contains("from 349.9"));
  CHECK_THAT(v.size, Contains("step 349900"));
  // A run the criterion leaves ok (a drift at most) does not diverge, whatever its series does.
  const tb::Series drift = series(1000, 0.1, [](double t) { return 1e-8 * t; });
  e.series = &drift;
  CHECK(tb::judge_claim(diverges, row(1000, 1000000), nullptr, std::nullopt, e).verdict == "contradicts");
  // A state that became non-finite at 376 s diverges there; at 900 s, not near the paper's 400 s.
  const tb::Series cut = series(376, 0.1, [](double t) { return 1e-8 * t; });
  e.series = &cut;
  tb::SummaryRow failed = row(1000, 1000000);
  failed.outcome = tb::RunOutcome::failed_at("non-finite state", 376.0, 376000, true);
  CHECK(tb::judge_claim(diverges, failed, nullptr, std::nullopt, e).verdict == "agrees");
  failed.outcome = tb::RunOutcome::failed_at("non-finite state", 900.0, 900000, true);
  e.series = &drift;
  CHECK(tb::judge_claim(diverges, failed, nullptr, std::nullopt, e).verdict == "disagrees");

  // 002-sect4-rk-energy-rises (a350e29: "too short for a law"): max per 2.5 s window 6.4e-5,
  // 2.1e-4, 1.3e-2, 4.9e-2 J rises 233-fold after 5 s: agrees at x10.
  const tb::Series rk2 = series(10, 0.005, [](double t) { return t < 2.5 ? 6.4e-5 : t < 5 ? 2.1e-4 : t < 7.5 ? 1.3e-2 : 4.9e-2; });
  e.series = &rk2;
  v = tb::judge_claim(claim("rises_after", 5.0, 10.0), row(10, 20000), nullptr, std::nullopt, e);
  CHECK(v.verdict == "agrees");
  CHECK(v.ratio == "233");
  const tb::Series some = series(10, 0.005, [](double t) { return t < 5 ? 1e-4 : 3e-4; });  // a rise, not a noticeable one
  e.series = &some;
  CHECK(tb::judge_claim(claim("rises_after", 5.0, 10.0), row(10, 20000), nullptr, std::nullopt, e).verdict == "inconclusive");
  const tb::Series flat = series(10, 0.005, [](double t) { return 1e-4 * (1.0 + 0.1 * std::sin(t)); });
  e.series = &flat;
  CHECK(tb::judge_claim(claim("rises_after", 5.0, 10.0), row(10, 20000), nullptr, std::nullopt, e).verdict == "contradicts");
  const tb::Series falls = series(10, 0.005, [](double t) { return t < 5 ? 1e-3 : 1e-4; });
  e.series = &falls;
  CHECK(tb::judge_claim(claim("rises_after", 5.0, 10.0), row(10, 20000), nullptr, std::nullopt, e).verdict == "contradicts");

  // Two runs parting at 5.2 s against the paper's "after 5 s" (x1.25); one that never parts contradicts.
  const auto a = series(10, 0.01, [](double t) { return std::sin(t); });
  const auto b = series(10, 0.01, [](double t) { return std::sin(t) + (t > 5 ? 0.5 * (t - 5) : 0.0); });
  e.series = &a;
  e.other_series = &b;
  CHECK(tb::judge_claim(claim("parts_after", 5.0, 1.25), row(10, 20000), nullptr, std::nullopt, e).verdict == "agrees");
  e.other_series = &a;
  CHECK(tb::judge_claim(claim("parts_after", 5.0, 1.25), row(10, 20000), nullptr, std::nullopt, e).verdict == "contradicts");

  // A series claim without its series is inconclusive, and says why.
  tb::ClaimEvidence none;
  none.missing = "X/m/timeseries.csv: cannot be read";
  v = tb::judge_claim(diverges, row(1000, 1000000), nullptr, std::nullopt, none);
  CHECK(v.verdict == "inconclusive");
  CHECK_THAT(v.size, Contains("cannot be read"));
}

TEST_CASE("a bound on a series that every method exceeds prints how it grew", "[claim-series][paper-claims]") {
  // The cooperative payload leaving the symmetry axis: exponential from round-off.
  const tb::Series off_axis = series(1000, 0.1, [](double t) { return std::min(0.74, 1e-15 * std::exp(0.1 * t)); });
  tb::ClaimEvidence e;
  e.series = &off_axis;
  tb::PaperClaim c = claim("upper_bound", 0.01, 1.0);
  c.metric = "series:norm:payload_x,payload_y", c.series = "norm:payload_x,payload_y";
  const tb::ClaimVerdict v = tb::judge_claim(c, row(1000, 1000000), nullptr, std::nullopt, e);
  CHECK(v.verdict == "exceeds");
  CHECK_THAT(v.size, Contains("lambda = 0.1 /s") && Contains("first past the bound at 299"));
}
