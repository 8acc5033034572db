#pragma once
#include "app/input/study.hpp"
namespace tb {
// The papers' published figures (reference/paper_figures.csv) beside the full runs of the
// same cases. Writes paper_comparison.csv and paper_comparison.md.
StudyInfo paper_comparison_study();
}  // namespace tb
