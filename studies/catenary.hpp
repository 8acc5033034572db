#pragma once
#include "app/study.hpp"
namespace tb {
// Hanging-tether cases: the static shape for each N against Irvine's elastic catenary (seed
// 003 Remark 1), with the error and the observed rate. Parameter `elements` (comma-separated
// increasing N >= 2). Writes catenary.csv.
StudyInfo catenary_study();
}  // namespace tb
