#pragma once
#include "app/input/study.hpp"
namespace tb {
// Cases with a [report.parameter_map]: one fixed-step integrator over the case for every
// (value of one [model] parameter, step h), each run to the map's t_end or its first failure.
// Writes parameter_map.csv (one row per point: completes or fails, when, and why) and
// parameter_map.md (a table per case: parameter values down, steps across), so the limits of
// a method (e.g. the LGVI on light cable links) are results with their reasons.
StudyInfo parameter_map_study();
}  // namespace tb
