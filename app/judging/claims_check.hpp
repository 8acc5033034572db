#pragma once
// The claims check (issue 24 item 7): reads a report's own tables and lists every verdict its
// data contradict, as a referee would. It restates the rules independently of the code that
// printed the verdicts (sharing that code would let a bug pass both):
//   growth     a law (bounded, sqrt_t, linear, faster, decays, power_law) needs a 95% interval
//              of half-width <= 0.25, "bounded" its upper end below 1/2; a law that contradicts
//              the run's theory column (bounded predicted, linear/faster/power_law found) must
//              read "investigate";
//   status     an "ok" run's energy gain stays within 0.1 x its maximum kinetic energy and its
//              constraint and orthogonality errors within 1e-2 (the one instability criterion);
//   orders     a measured order needs >= 3 fitted points and an interval, and one more than 0.5
//              from the declared order, or whose interval excludes it, needs a flag; a fit over
//              errors above 0.1 of the quantity's scale (relative_error_max; an older report
//              without it: errors >= 1 in the state's units) is a fit over O(1) errors and fails;
//   horizons   a case whose runs have different horizons shows each run's t_end and the
//              errors over the shared window;
//   rankings   a ranking names runs of one discretisation only, states its horizon and the
//              model's slowest period, and a horizon under 3 slowest periods prints "short-time
//              accuracy only" instead of a ranking; a ranking's matched error stands 10x above the
//              references' agreement over its horizon (reference_agreement), else "inconclusive";
//   papers     no verdict of the retired "same order of magnitude" kind (a factor-10 band); one
//              comparison one row; a claim placed in time ("after t = 5 s", "after around
//              400 s", "starts to tumble") judged on the run's time series (the evidence
//              column), never on a status; a completed run's status never stands in for its
//              number; a bound every sensitivity run exceeds is "exceeds", a value every run
//              misses on one side "disagrees"; no cause of chaos where the sensitivity runs agree
//              to 4 digits; no "inconclusive" drift verdict on an envelope that rises
//              monotonically 10-fold; no oscillation claim judged as a drift; a printed mean
//              above the same paper's bound on the maximum is "inconclusive"; seed 003's ODE45
//              ran at a step of at most 1e-3 s; no verdict but "inconclusive" on a run that is not
//              ok, except on a claim that it diverges; no row whose words say "ours contradicts",
//              "disagrees" or "exceeds" under another verdict;
//   onsets     a completed run's instability dated at its onset, not at the run's end;
//   alike      two runs of one integrator with identical errors read the same growth law.
//   advice     an integrator index.md advises for long simulations completed each of the model's
//              cases with no growing energy or momentum law (the longest horizon measured), and a
//              step above 0.5 h_max is printed as a caveat;
//   n/a        a metric a run's not_integrated column names (its formulation cannot violate it)
//              has no number in that row.
// Where each rule lives: the report-wide ones (status, horizons, onsets, alike, advice, n/a and
// the growth rule on summary.csv) here; a study's rules for its own tables with the study
// (StudyInfo::check_claims: orders and rankings in studies/work_precision/claims.cpp, growth on
// long_time.csv in studies/long_time/claims.cpp, papers in studies/paper_comparison/claims.cpp),
// sharing the cell reading and growth rule of app/judging/claim_rules.hpp. The advice rule reads
// the studies' numbers as their records (StudyInfo::read_back).
// `tetherbench check-claims DIR` prints them; the test suite runs it on a small report and on
// regression rows taken from the reports of main 3ea2631 and a350e29 (tests/test_claims_check.cpp).

#include <string>
#include <vector>

#include "app/judging/claim_rules.hpp"  // ClaimViolation

namespace tb {

struct Catalogue;

// Every rule above on the report at report_dir, the studies' own from the catalogue's studies.
std::vector<ClaimViolation> check_claims(const std::string& report_dir, const Catalogue& catalogue);

}  // namespace tb
