#pragma once
#include "app/input/study.hpp"
namespace tb {
// Cases with a [report.setting_sweep]: one integrator over the case once per value of one of
// its settings, every other setting the case's (e.g. ida's Baumgarte rate p: drift against
// cost). Measured like a summary row. Writes setting_sweep.csv.
StudyInfo setting_sweep_study();
}  // namespace tb
