#pragma once
#include "app/input/study.hpp"
namespace tb {
// Cases with a [report.error_spread] (app/input/case.hpp, ErrorSpread): the named full runs again, once
// per value of one [model] key moved by round-off, measured exactly as the full runs are
// (run_case, app/running/runner.hpp). Why: where the motion depends sensitively on where it starts
// (Model C's cooperative case after its threefold symmetry breaks at ~300 s), a run's error
// over the horizon is not a property of the method alone: a change of g by 1e-15 moved
// rattle's max |dE| over 1000 s from 5.35e-4 J to 1.57e-4 J (x3.4) and lgvi's by 5 %. The
// recommendation (app/judging/recommendation.hpp) reads the largest such factor of a case as the
// resolution of its errors. Writes error_spread.csv: the summary's columns (app/writing/summary.hpp)
// and parameter, value, case_value.
StudyInfo error_spread_study();
}  // namespace tb
