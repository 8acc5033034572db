// Records described once (app/common/record.hpp): for every described type, a value with every field
// set (by a visitor over the same description, so a field added later is covered without
// editing this file) survives bytes exactly, every proper prefix of its bytes is refused, its
// canonical text names every field, and a flat record's CSV cells read back to the same record.

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "app/running/job_result.hpp"
#include "app/common/record.hpp"
#include "studies/catenary/catenary.hpp"
#include "studies/long_time/long_time.hpp"
#include "studies/stability_map/stability_map.hpp"
#include "studies/work_precision/work_precision.hpp"

namespace {

// Sets every field to a value of its own: numbers that need all 17 digits, text with the
// bytes the byte format must survive (':', newlines, quotes, commas), two-element lists.
struct Filler {
  int n = 0;
  bool finite = false;  // CSV cells hold finite numbers only
  template <class F>
  void operator()(std::string_view, F& f, tb::Csv = {}) {
    fill(f);
  }
  template <class F>
  void fill(F& f) {
    ++n;
    if constexpr (tb::Record<F>) {
      describe(*this, f);
    } else if constexpr (tb::NamedEnum<F>) {
      f = F(n % tb::enum_count<F>());
    } else if constexpr (std::is_same_v<F, bool>) {
      f = n % 2 == 1;
    } else if constexpr (std::is_integral_v<F>) {
      f = F(1000 + n);
    } else if constexpr (std::is_floating_point_v<F>) {
      f = n % 7 == 0 && !finite ? std::numeric_limits<double>::quiet_NaN() : (n + 1.0 / 3.0) * std::pow(10.0, n % 5 - 2);
    } else if constexpr (std::is_same_v<F, std::string>) {
      f = "field " + std::to_string(n) + ": \"a,b\"\n12:";
    } else if constexpr (std::is_same_v<F, Eigen::VectorXd>) {
      f = Eigen::VectorXd::LinSpaced(3, -1.0 / n, 1.0 / 3.0);
    } else if constexpr (tb::record_detail::is_vector<F>::value) {
      f.resize(2);
      for (auto& x : f) fill(x);
    } else if constexpr (tb::record_detail::is_array<F>::value) {
      for (auto& x : f) fill(x);
    } else {
      static_assert(sizeof(F) == 0, "Filler: a field type this test does not fill");
    }
  }
};

template <class T>
std::string bytes_of(const T& x) {
  tb::ResultWriter w;
  write(w, x);
  return w.bytes();
}

template <class T>
void check_round_trip() {
  T value;
  Filler{}.fill(value);
  const std::string bytes = bytes_of(value);
  T back;
  tb::ResultReader r(bytes);
  read(r, back);
  r.expect_end();
  CHECK(bytes_of(back) == bytes);
  // The canonical text is exact too (17 digits), and differs from a default record's.
  CHECK(tb::record_text(back) == tb::record_text(value));
  CHECK(tb::record_text(value) != tb::record_text(T{}));
  // A torn or foreign result is refused, never read as a record.
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    const std::string torn = bytes.substr(0, cut);
    T x;
    tb::ResultReader rt(torn);
    CHECK_THROWS_AS(read(rt, x), std::runtime_error);
  }
}

template <class T>
void check_csv_round_trip() {
  T value;
  Filler{0, true}.fill(value);
  T back;
  tb::from_csv_cells(back, tb::csv_cells(value));
  CHECK(tb::record_text(back) == tb::record_text(value));
  CHECK(tb::csv_columns<T>().size() == tb::csv_cells(value).size());
}

}  // namespace

TEMPLATE_TEST_CASE("a described record survives bytes exactly and a torn copy is refused", "[records][resume]",
                   tb::RunOutcome, tb::StepCounters, tb::EnvelopePoint, tb::GrowthPrediction, tb::GrowthFit,
                   tb::ConservationMetrics, tb::Measurement, tb::SummaryRow, tb::LongRunResult, tb::WorkPrecisionResult,
                   tb::StabilityProbe, tb::StabilitySearch, tb::hanging_tether::CatenaryPoint,
                   tb::hanging_tether::CatenaryStudy) {
  check_round_trip<TestType>();
}

TEMPLATE_TEST_CASE("a flat described record reads back from its CSV cells", "[records]", tb::RunOutcome, tb::StepCounters,
                   tb::EnvelopePoint, tb::hanging_tether::CatenaryPoint) {
  check_csv_round_trip<TestType>();
}

TEST_CASE("a record's canonical text names its fields, enumerations by their text", "[records]") {
  tb::RunOutcome o;
  o.kind = tb::RunOutcome::Kind::Interrupted;
  o.reason = "stopped";
  o.h = 0.1;
  CHECK(tb::record_text(o) ==
        "kind=interrupted;reason=stopped;diverged=0;t=0;step=0;h=0.10000000000000001;adaptive=0;rtol=0;note=;accrued=;"
        "momentum_drift=;episode=;episode_t=0;manifold_drift=;manifold_t=0;manifold_rotations=0;energy_jump=0");
  CHECK(tb::csv_header<tb::StepCounters>() == "steps,rhs_evals,newton_iters,error_test_failures");
}

TEST_CASE("an enumeration's text or number outside its list is refused", "[records]") {
  using Kind = tb::RunOutcome::Kind;
  CHECK(tb::enum_from_text<Kind>("unstable") == Kind::Unstable);
  CHECK_THROWS_WITH(tb::enum_from_text<Kind>("Unstable"),
                    "expected ok, failed, not_applicable, interrupted or unstable, got 'Unstable'");
  CHECK_THROWS_AS(tb::enum_from_index<Kind>(5), std::runtime_error);
  CHECK_THROWS_AS(tb::enum_from_index<Kind>(-1), std::runtime_error);
  tb::RunOutcome o;
  auto cells = tb::csv_cells(o);
  cells[0] = "done";
  CHECK_THROWS_WITH(tb::from_csv_cells(o, cells), "column 'kind': expected ok, failed, not_applicable, interrupted or unstable, got 'done'");
}
