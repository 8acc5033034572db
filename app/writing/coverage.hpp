#pragma once
// Which integrator runs which case, and why the others do not (issue 35): the coverage matrix.
// One list of entries, read either from the catalogue before anything runs (the form each case's
// model offers and each integrator's judgement of it: app/running/runner.hpp why_not_applicable, the
// same test the runner applies) or from a written report's summary.csv (what each run then did:
// ok, diverged, failed, n/a). It is rendered
//   - by case, with every reason: the report's coverage.md and index.md, and cases/README.md's
//     generated block;
//   - by model, one cell per integrator and model: README.md's generated block;
//   - as coverage.csv, one row per (case, discretisation, integrator).
// `tetherbench coverage [CASE_FILE...] [--readme FILE]` prints or rewrites the blocks, and
// tests/test_coverage.cpp fails when a README's block disagrees with the registries.

#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/judging/report_data.hpp"
#include "core/integrator.hpp"

namespace tb {

struct CoverageEntry {
  std::string case_name, model, integrator, discretisation;
  bool default_discretisation = true;  // the case's first discretisation (its runs' labels carry no "@")
  // "runs" (from the catalogue), or a report's status word ("ok", "diverged", "failed", "crashed",
  // ...); "n/a" (reason says who declined what and why); "not listed" (the case's [case]
  // integrators leave it out).
  std::string state;
  std::string reason;
  bool not_applicable() const { return state == "n/a"; }
  bool listed() const { return state != "not listed"; }
};

// Every (case, discretisation, integrator) of the cases, judged without running anything.
std::vector<CoverageEntry> coverage_of_cases(const std::vector<Case>& cases, const std::vector<IntegratorInfo>& integrators);
// The rows of a written report (its summary.csv), with what each run did.
std::vector<CoverageEntry> coverage_of_runs(const ReportData& data, const std::vector<Case>& cases);

// The matrix by case (rows: cases, and "case @ discretisation" for the others a case runs;
// columns: integrators) with a lettered list of the reasons under it.
std::string coverage_by_case_markdown(const std::vector<CoverageEntry>& entries);
// The matrix by model (rows: integrators; columns: models), over each case's own discretisation:
// a model's cell is "✓" when the integrator runs every case of it, "✓ k of n" when some, "n/a"
// when none, with the reasons lettered under it.
std::string coverage_by_model_markdown(const std::vector<CoverageEntry>& entries);
// One line per entry: case,discretisation,integrator,state,reason.
std::string coverage_csv(const std::vector<CoverageEntry>& entries);
// Counts over the default discretisations' listed entries: (n/a cells, all cells).
std::pair<int, int> count_not_applicable(const std::vector<CoverageEntry>& entries);

inline constexpr const char* kCoverageByCaseBegin =
    "<!-- BEGIN generated coverage by case: `tetherbench coverage --by case --readme cases/README.md`; do not edit -->";
inline constexpr const char* kCoverageByCaseEnd = "<!-- END generated coverage by case -->";
inline constexpr const char* kCoverageByModelBegin =
    "<!-- BEGIN generated coverage by model: `tetherbench coverage --by model --readme README.md`; do not edit -->";
inline constexpr const char* kCoverageByModelEnd = "<!-- END generated coverage by model -->";

// A block (markers included) for a README.
std::string coverage_block(const std::vector<CoverageEntry>& entries, bool by_model);

}  // namespace tb
