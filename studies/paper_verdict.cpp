#include "studies/paper_verdict.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "app/round_off.hpp"

namespace tb {

namespace {

std::string fmt(double x) { return format_g(x, 3); }

// A factor as people read it: 3 significant digits, whole numbers from 100 to 1e6 ("4000", not "4e+03").
std::string factor(double r) {
  return r >= 100.0 && r < 1e6 ? std::to_string(std::llround(r)) : fmt(r);
}

// "3.28x larger" / "4000x smaller": the direction and the factor, never a bare ratio.
std::string how_much(double ratio) {
  if (ratio >= 1.0) return factor(ratio) + "x larger";
  return factor(1.0 / ratio) + "x smaller";
}

bool is_one_of(GrowthLaw law, std::initializer_list<GrowthLaw> list) {
  return std::find(list.begin(), list.end(), law) != list.end();
}

// The growth law fitted to a metric's error, as the metric table says (app/metric_table.hpp).
const GrowthFit* growth_of(const std::string& metric, const ConservationMetrics& m) {
  switch (metric_traits(metric).growth) {
    case GrowthOf::Energy: return &m.energy_growth;
    case GrowthOf::Momentum: return &m.momentum_growth;
    case GrowthOf::None: return nullptr;
  }
  return nullptr;
}

std::string describe_law(const GrowthFit& g) {
  return "growth law " + (g.law == GrowthLaw::None ? std::string("(none)") : to_string(g.law) + ": " + describe_growth(g));
}

std::string paper_cell(const PaperClaim& c) {
  if (c.kind == ClaimKind::Value) return format_g(c.paper_value, 5);
  if (c.kind == ClaimKind::UpperBound) return "< " + format_g(c.paper_value, 5);
  if (c.kind == ClaimKind::Diverges) return "diverges after ~" + format_g(c.paper_value, 4) + " s";
  if (c.kind == ClaimKind::NoDrift) return "no drift";
  if (c.kind == ClaimKind::Drifts) return "drifts";
  if (c.kind == ClaimKind::Conserved) return "conserved";
  if (c.kind == ClaimKind::NotConserved) return "not conserved";
  return "smaller than " + c.other_run + " on " + c.other_case;
}

void with_cause(ClaimVerdict& v, const PaperClaim& c) {
  if (v.verdict == "agrees" || c.cause.empty()) return;
  v.cause = v.cause.empty() ? c.cause : v.cause + "; " + c.cause;
  v.cause_status = v.cause_status.empty() ? c.cause_status : v.cause_status + "; " + c.cause_status;
}

void spread_cause(ClaimVerdict& v, const MeasuredSpread& s) {
  v.cause = "a round-off-level change moves ours between " + fmt(s.low) + " and " + fmt(s.high) + " (x" +
            format_g(s.factor(), 3) + ", " + std::to_string(s.runs) + " runs: " + s.what + ")";
  v.cause_status = "measured: this study's sensitivity runs";
}

// A run that did not complete: never a number; a divergence is evidence for claims of growth and
// against claims of conservation, anything else carries no verdict.
ClaimVerdict judge_incomplete(const PaperClaim& c, const SummaryRow& row, const SummaryRow* other) {
  ClaimVerdict v;
  const std::string status = row.outcome.describe();
  // Past the instability criterion (completed, energy gained) counts as diverging here: both are
  // the method losing the solution, not a result.
  const bool diverged = (row.outcome.failed() && row.outcome.diverged) || row.outcome.unstable();
  v.verdict = "inconclusive";
  v.size = "no result: " + status;
  if (!diverged) return v;
  if (c.kind == ClaimKind::Diverges) {
    const double t = row.outcome.t, lo = c.paper_value / c.tolerance, hi = c.paper_value * c.tolerance;
    v.verdict = (t >= lo && t <= hi) ? "agrees" : "disagrees";
    v.size = "ours " + status + (v.verdict == "agrees" ? ", within x" + fmt(c.tolerance) + " of the paper's time"
                                                       : ", outside x" + fmt(c.tolerance) + " of the paper's time");
  } else if (c.kind == ClaimKind::Drifts || c.kind == ClaimKind::NotConserved) {
    v.verdict = "agrees";
    v.size = "ours diverges (" + status + "): more than a drift";
  } else if (c.kind == ClaimKind::NoDrift || c.kind == ClaimKind::Conserved || c.kind == ClaimKind::UpperBound) {
    v.verdict = "contradicts";
    v.size = "ours diverges (" + status + ")";
  } else if (c.kind == ClaimKind::SmallerThan && other && other->outcome.ok()) {
    v.verdict = "contradicts";
    v.size = "ours diverges (" + status + ") where " + other->integrator + " on " + other->case_name + " completes " +
             format_g(other->t_end, 6) + " s";
  }
  return v;
}

ClaimVerdict judge_growth(const PaperClaim& c, const SummaryRow& row, double value) {
  ClaimVerdict v;
  v.ours = fmt(value);
  const GrowthFit* g = growth_of(c.metric, row.metrics);
  if (!g) {
    v.verdict = "inconclusive";
    v.size = "no growth law is fitted to " + c.metric + " (max " + fmt(value) + ")";
    return v;
  }
  const double floor = round_off_floor(c.metric, row);
  const double above = g->err_max / floor;
  v.ratio = fmt(above) + " x floor";
  v.size = describe_law(*g) + "; max " + fmt(g->err_max) + " = " + factor(above) + "x the round-off floor " + fmt(floor);
  // What the law says about drift: none, some, or not enough data (cases/README.md).
  std::string says = "unknown";
  // Exactly zero with a zero initial value tests nothing: the motion keeps the quantity at 0 by
  // symmetry (or the model has none), whatever the integrator does.
  const double magnitude = g == &row.metrics.energy_growth ? row.metrics.energy_magnitude : row.metrics.momentum_magnitude;
  if (g->law == GrowthLaw::Zero && !(magnitude > 0.0)) {
    v.verdict = "inconclusive";
    v.size += "; exactly 0 from an initial value of 0: nothing the run could fail to conserve";
    return v;
  }
  switch (g->law) {  // every law is handled: the compiler checks (-Wswitch)
    case GrowthLaw::Zero:
    case GrowthLaw::RoundOff:
    case GrowthLaw::Bounded:
    case GrowthLaw::Decays: says = "none"; break;
    case GrowthLaw::Linear:
    case GrowthLaw::Faster: says = "drift"; break;
    case GrowthLaw::SqrtT: says = above > kFarAboveRoundOff ? "drift" : "none"; break;  // round-off adding up is no drift
    case GrowthLaw::PowerLaw: says = g->exponent > 0.0 ? "drift" : "none"; break;
    case GrowthLaw::TooShort:
    case GrowthLaw::Inconclusive:
    case GrowthLaw::RegimeChange:
    case GrowthLaw::None: says = "unknown"; break;
  }
  // A fitted law whose 95% interval holds both 0 (bounded) and 1 (linear drift) cannot tell them
  // apart, whatever its point estimate; an error within reach of round-off needs no law. Not so
  // an accelerating envelope (faster with a wide interval, core/growth.cpp): its interval is wide
  // because the local exponent rose past 1 over the window, which is drift.
  const bool accelerating = g->law == GrowthLaw::Faster && g->ci95_low <= 1.0 + kGrowthLawSlack;
  const bool fitted = !accelerating && is_one_of(g->law, {GrowthLaw::Bounded, GrowthLaw::Decays, GrowthLaw::SqrtT, GrowthLaw::Linear, GrowthLaw::Faster, GrowthLaw::PowerLaw});
  if (fitted && above > kFarAboveRoundOff && g->ci95_low <= 0.0 && g->ci95_high >= 1.0) {
    says = "unknown";
    v.size += "; its 95% interval holds both 0 (bounded) and 1 (linear drift)";
  }
  if (says == "unknown") v.verdict = "inconclusive";
  else if ((says == "none") == (c.kind == ClaimKind::NoDrift)) v.verdict = "agrees";
  else v.verdict = "contradicts";
  return v;
}

}  // namespace

ClaimVerdict judge_claim(const PaperClaim& c, const SummaryRow& row, const SummaryRow* other,
                         const std::optional<MeasuredSpread>& spread) {
  ClaimVerdict v;
  if (!row.outcome.ok()) {
    v = judge_incomplete(c, row, other);
  } else if (c.kind == ClaimKind::Diverges) {
    v.verdict = "contradicts";
    v.size = "ours completes " + format_g(row.t_end, 6) + " s without diverging";
  } else if (c.kind == ClaimKind::NoDrift || c.kind == ClaimKind::Drifts) {
    v = judge_growth(c, row, metric_value(row.metrics, c.metric));
  } else {
    const double x = metric_value(row.metrics, c.metric);
    v.ours = fmt(x);
    const double s = spread ? spread->factor() : 1.0, f = c.tolerance;
    if (c.kind == ClaimKind::Value) {
      const double r = x / c.paper_value;
      v.ratio = fmt(r);
      if (r >= 1.0 / f && r <= f) {
        v.verdict = "agrees";
        v.size = "ours/paper = " + fmt(r) + ", within x" + fmt(f);
      } else if (spread && r >= 1.0 / (f * s) && r <= f * s) {
        v.verdict = "inconclusive";
        v.size = "ours " + how_much(r) + " than the paper's: outside x" + fmt(f) + ", within x" + fmt(f) +
                 " widened by the measured spread x" + format_g(s, 3);
        spread_cause(v, *spread);
      } else {
        v.verdict = "disagrees";
        v.size = "ours " + how_much(r) + " than the paper's (tolerance x" + fmt(f) +
                 (spread ? ", widened by the measured spread x" + format_g(s, 3) + " over " + std::to_string(spread->runs) +
                               " runs: " + fmt(spread->low) + " to " + fmt(spread->high)
                         : std::string()) +
                 ")";
      }
    } else if (c.kind == ClaimKind::UpperBound) {
      const double bound = c.paper_value * f, r = x / c.paper_value;
      v.ratio = fmt(r);
      const std::string by = r <= 2.0 ? format_g(100.0 * (r - 1.0), 2) + "%" : factor(r) + "x";
      if (x <= bound && !(spread && spread->high > bound)) {
        v.verdict = "agrees";
        v.size = "ours is " + fmt(r) + " of the bound";
      } else if (x <= bound) {
        v.verdict = "inconclusive";
        v.size = "ours is " + fmt(r) + " of the bound, but the measured spread reaches " + fmt(spread->high / c.paper_value) +
                 " of it";
        spread_cause(v, *spread);
      } else if (spread && x <= bound * s) {
        v.verdict = "inconclusive";
        v.size = "exceeds the bound by " + by + ", within the measured spread x" + format_g(s, 3);
        spread_cause(v, *spread);
      } else {
        v.verdict = "exceeds";
        v.size = "exceeds the bound by " + by + (f > 1.0 ? " (tolerance x" + fmt(f) + ")" : "");
        if (spread) v.size += "; every sensitivity run too (least " + fmt(spread->low) + ")";
      }
    } else if (c.kind == ClaimKind::Conserved || c.kind == ClaimKind::NotConserved) {
      const double floor = round_off_floor(c.metric, row), r = x / floor;
      v.ratio = fmt(r) + " x floor";
      const bool conserved = r <= f;
      v.verdict = conserved == (c.kind == ClaimKind::Conserved) ? "agrees" : "contradicts";
      v.size = "ours " + fmt(x) + " = " + factor(r) + "x the round-off floor " + fmt(floor) + " (" +
               (c.kind == ClaimKind::Conserved ? "conserved" : "not conserved") + " means " + (c.kind == ClaimKind::Conserved ? "<= " : "> ") +
               factor(f) + "x it)";
      if (const GrowthFit* g = growth_of(c.metric, row.metrics)) v.size += "; " + describe_law(*g);
    } else {  // smaller_than
      if (!other) {
        v.verdict = "inconclusive";
        v.size = "the run it is compared with (" + c.other_run + " on " + c.other_case + ") is not in this report";
      } else if (!other->outcome.ok()) {
        const bool diverged = other->outcome.failed() && other->outcome.diverged;
        v.verdict = diverged ? "agrees" : "inconclusive";
        v.size = "ours completes where " + c.other_run + " on " + c.other_case + " does not: " + other->outcome.describe();
      } else {
        const double y = metric_value(other->metrics, c.metric), r = x / y;
        v.ratio = fmt(r);
        v.verdict = r <= 1.0 / f ? "agrees" : r >= f ? "contradicts" : "inconclusive";
        v.size = "ours " + how_much(r) + " than " + c.other_run + "'s " + fmt(y) + " on " + c.other_case +
                 (v.verdict == "inconclusive" ? " (within x" + fmt(f) + ": no clear difference)" : "");
      }
    }
  }
  v.paper = paper_cell(c);
  with_cause(v, c);
  return v;
}

}  // namespace tb
