#pragma once
#include "app/input/study.hpp"
namespace tb {
// The papers' published figures (reference/paper_figures.csv) beside the full runs of the
// same cases. Writes paper_comparison.csv and paper_comparison.md.
StudyInfo paper_comparison_study();
// Reads its claims and verdicts (paper_comparison.csv) into ReportData::paper (StudyInfo::read_back; read_back.cpp).
void read_paper_comparison_back(const std::string& dir, ReportData& data);
// The referee's rules for its own tables (StudyInfo::check_claims; claims.cpp).
void check_paper_comparison_claims(const std::string& dir, std::vector<ClaimViolation>& out);
}  // namespace tb
