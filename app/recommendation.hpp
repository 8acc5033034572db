#pragma once
// Which integrator to use for which job, derived from a written report (app/report_data.hpp) by
// stated rules, so that the front page's advice is the report's own data read one way for every
// model (issue 33 item 1). Nothing here names a model or an integrator.
//
// Long simulations. A run is judged on the growth law of its energy error and of its momentum
// error (core/growth.hpp) over the longest horizon the report measured it (the long-time study's
// own run where there is one, else the full run), and on what theory predicts of it
// (predicted_growth: the summary's *_growth_theory):
//   holds   completed, and every law is zero, or round_off or bounded where theory predicts the
//           method keeps the quantity (a symplectic method's modified energy on a conservative
//           model, a momentum map conserved by the discrete Noether theorem): no growth measured,
//           and a reason to expect none beyond the horizon;
//   grows   a law is sqrt_t, linear, faster or power_law, or the run failed or went unstable;
//   open    completed, but a law is too_short, inconclusive, regime_change or decays, or round_off
//           or bounded where theory predicts drift (drift below detection at this step and
//           horizon): the data carry no verdict (the page says which and why).
// An integrator is advised for a model when it holds on every case of the model (those that run
// every applicable integrator), cheapest first, every one listed with its errors beside its cost
// (the trade is the reader's). Where none holds everywhere the advice is "undecided", naming the
// integrators that hold on the most cases and never grow or fail, and what the other cases show.
// Up to kMaxContrasts runs of comparable cost, or that fail, are shown as not advised, with why.
//
// Accuracy at a given cost is the work-precision study's ranking (work_precision_rankings.csv),
// quoted with its horizon and matched error, or its reason when it ranks nothing.

#include <string>
#include <tuple>
#include <vector>

#include "app/report_data.hpp"

namespace tb {

inline constexpr double kStepMarginNote = 0.5;  // h/h_max above this is a caveat worth printing
inline constexpr size_t kMaxContrasts = 3;      // runs shown as not advised, cheapest first

enum class LongRunVerdict { Holds, Open, Grows };


// One run judged for long simulations.
struct LongRunJudgement {
  const RunRecord* run = nullptr;
  LongRunVerdict verdict = LongRunVerdict::Open;
  std::string energy_law, momentum_law;  // the laws that decided (over law_t_end)
  double law_t_end = 0.0;                // s: the horizon the laws were measured over
  std::string why;  // words: "energy bounded over 1000 s", "unstable from t = 349.9 s", ...
};
LongRunJudgement judge_long_run(const ReportData& data, const RunRecord& run);

// A case of the model as the recommendation uses it.
struct CaseInput {
  std::string name;
  bool runs_everything = true;  // false: a case restricted to a few integrators ([case] integrators)
};

// One integrator's standing over a model's cases.
struct Standing {
  std::string label;
  std::vector<LongRunJudgement> per_case;  // in the model's case order; a case it does not run is absent
  int holds = 0;
  bool grows_somewhere = false;
  bool failed_somewhere = false;  // failed or went unstable on a case (no runtime there)
  double runtime_s = 0.0;  // summed over the cases where it completed
  double worst_step_margin = 0.0;       // max h/h_max over the cases (0: adaptive, or no map)
  std::string worst_step_limit;
  // Every case where h/h_max exceeds kStepMarginNote: (case, h/h_max, limit)
  std::vector<std::tuple<std::string, double, std::string>> close_to_limit;
};

struct ModelAdvice {
  std::string model;
  std::vector<std::string> cases;              // the cases the advice is drawn from
  std::vector<Standing> recommended;           // holds on every case, cheapest first
  std::vector<Standing> partial;               // none holds everywhere: those holding on the most cases
  std::vector<Standing> contrasts;             // cheaper or comparable runs that are not recommended, with why
  std::string inconclusive_why;                // set when nothing holds on every case
  std::vector<const RankingRecord*> rankings;  // accuracy at a given cost, per case
};

ModelAdvice advise(const ReportData& data, const std::string& model, const std::vector<CaseInput>& cases);

}  // namespace tb
