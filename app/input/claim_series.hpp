#pragma once
// The evidence a time-located claim is about (issue 32 item 1): "a quick divergent behaviour
// after around 400 s" (seed 003), "the total energy increases noticeably after t = 5 s", "the
// string is mostly stretched at t = 1.8 and 5.5 s" (seed 002) are statements about a recorded
// time series, not about a summary number. They are judged here on the very file the report
// publishes beside the verdict: the run's <case>/<run>/timeseries.csv (app/running/runner.hpp), so a
// reader can check every figure the verdict prints against it.
//
// A claim names the quantity as a series spec (reference/paper_claims.csv, column metric,
// "series:<spec>"):
//   balance                |E(t) - E(0) - W(t)|: the energy-balance residual (columns energy,
//                          external_work), the quantity of the papers' energy plots
//   value:<col>            the column itself;       neg:<col>  its negative
//   dev:<col>              |col(t) - col(0)|: the error of a quantity conserved from t = 0
//   sub:<a>,<b>            a(t) - b(t)
//   norm:<c1>,<c2>,...     the Euclidean norm of the columns (e.g. the payload's horizontal
//                          distance from the symmetry axis: norm:payload_x,payload_y)
//   maxdev:<glob>          the largest |col(t) - col(0)| over the columns matching <glob> (one
//                          '*', e.g. *_ang_mom: every cable link's angular momentum)
// The analyses are pure functions of a series, tested on synthetic series with known answers
// (tests/test_claim_series.cpp).

#include <string>
#include <vector>

namespace tb {

// A timeseries.csv read whole: its header's names and one vector per column.
struct TimeSeriesTable {
  std::string path;
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;  // columns[j][k]: column j at sample k (column 0 is t)
  const std::vector<double>* column(const std::string& name) const;
  size_t samples() const { return columns.empty() ? 0 : columns[0].size(); }
};

// Throws std::runtime_error naming the file and the line when it cannot be read.
TimeSeriesTable read_time_series(const std::string& path);

// A derived quantity over time.
struct Series {
  std::string spec;
  std::string words;       // what it is, for the verdict ("|E - E(0) - W|", "|P_z - P_z(0)|", ...)
  std::vector<double> t, v;
  // The magnitude the quantity is computed from (for its round-off floor): the largest |value|
  // of its source columns at t = 0, never below 1 (the gates' convention, app/running/round_off.hpp);
  // for balance, the energy's magnitude max(|T|, |E - T|) over the run.
  double scale = 1.0;
  double at_start = 0.0;  // the largest |value| of the source columns at t = 0 (unclamped)
  bool empty() const { return t.empty(); }
};

// Checks a spec's syntax (why says what is wrong); the columns are checked when derived.
bool valid_series_spec(const std::string& spec, std::string& why);
// Throws std::runtime_error naming the missing column.
Series derive_series(const TimeSeriesTable& table, const std::string& spec);

// max |v| over samples with from <= t <= to (0 when none).
double max_abs_over(const Series& s, double from, double to);

struct Onset {
  bool found = false;
  double t = 0.0;      // the first sample past the level
  double value = 0.0;  // |v| there
};
// The first sample at or after `start` where |v| > level.
Onset first_exceeding(const Series& s, double start, double level);

// The largest |v| over [t/f^2, t f^2] and where it is; interior when that maximum lies within
// [t/f, t f] (a peak near t, not the edge of a rising or falling series).
struct Peak {
  double t = 0.0, value = 0.0;
  bool interior = false;
};
Peak peak_near(const Series& s, double t, double f);

// The dominant period of v over [from, to] within [p_low, p_high]: v minus its moving average
// over 2 p_high (the slow trend) is autocorrelated at every lag in the range, and the lag of the
// largest autocorrelation is the period; `correlation` is that autocorrelation (near 1 for a
// clean oscillation, near 0 for none).
struct Period {
  double period = 0.0;
  double correlation = 0.0;
  bool found = false;
};
Period dominant_period(const Series& s, double from, double to, double p_low, double p_high);

// The rate lambda of |v| ~ exp(lambda t) fitted by least squares of the log of the running
// maximum of |v| over the samples where it lies between lo and hi (a span where the growth is
// neither round-off nor saturated); NaN when fewer than 10 samples lie there.
double exponential_rate(const Series& s, double lo, double hi);

// The series' value at the sample nearest t.
double value_near(const Series& s, double t);

// The maximum of |a - b| over [from, to], the two series matched by nearest sample time.
double max_difference(const Series& a, const Series& b, double from, double to);
// The first time |a - b| exceeds level (NaN when never).
double first_parting(const Series& a, const Series& b, double level);

}  // namespace tb
