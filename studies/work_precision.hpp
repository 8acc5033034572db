#pragma once
#include "core/study.hpp"
namespace tb {
// Work-precision sweep of every run of every case (fixed-step methods over [report] steps,
// adaptive ones over [report] tolerances with atol = 1e-2 rtol) against the stored reference
// solution of the run's discretisation, and the measured orders of the fixed-step methods.
// Writes work_precision.csv and orders.csv.
StudyInfo work_precision_study();
}  // namespace tb
