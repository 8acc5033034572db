#pragma once
#include "app/running/runner.hpp"
#include "app/input/study.hpp"
namespace tb {
// Long-time growth laws (core/growth.hpp) of the energy and momentum errors of every run of
// every conservative case (no external work in the energy balance): law, exponent with its 95%
// interval, horizon, steps and the run's Brouwer round-off floor. Parameter `steps`: "case"
// (default): long runs of [report] long_time_steps where the case sets it, else the report's
// full runs (run alone: the case's full horizon, without time series); "full": the full runs of
// every case; a number: every case x run over that many steps of the case's h. Writes
// long_time.csv, long_time_envelope.csv (the fitted envelopes, for the log-log figures) and
// long_time.md.
StudyInfo long_time_study();
// Reads its growth laws (long_time.csv) into ReportData::laws (StudyInfo::read_back; read_back.cpp).
void read_long_time_back(const std::string& dir, ReportData& data);
// The referee's rules for its own tables (StudyInfo::check_claims; claims.cpp).
void check_long_time_claims(const std::string& dir, std::vector<ClaimViolation>& out);
// Its figures in a report (StudyInfo::figures; studies/long_time/figures.cpp).
void long_time_figures(const FigureRequest& request, std::vector<Figure>& figures);

// One long run's result, as its job returns it (bytes between processes and in the resume
// store): the run's row (with its growth fits) and whether its probe saw external work (then
// the row is the probe's and the long run was skipped).
struct LongRunResult {
  SummaryRow row;
  bool probed_work = false;
};
template <class V>
void describe(V& v, LongRunResult& r) {  // app/common/record.hpp
  v("row", r.row);
  v("probed_work", r.probed_work);
}
}  // namespace tb
