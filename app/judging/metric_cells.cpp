#include "app/judging/metric_cells.hpp"

#include <cmath>
#include <stdexcept>

#include "app/judging/gates.hpp"  // failure_kind
#include "core/format.hpp"

namespace tb {

std::vector<const MetricSpec*> headline_metrics() { return metrics_with_role(TableRole::Headline); }

std::string metric_header(const MetricSpec& metric) {
  return metric.unit == "1" ? std::string(metric.label) : std::string(metric.label) + " (" + std::string(metric.unit) + ")";
}

std::string not_applicable_cell(const ViolableInvariants& violable, const MetricSpec& metric) {
  return violable.covers(metric) ? std::string() : "n/a (" + violable.why_not(metric) + ")";
}

namespace {
// A run that reached t_end has metrics (an unstable one beside its status); a failed or
// interrupted one has none.
std::string value_cell(const SummaryRow& row, const MetricSpec& metric, double x) {
  if (!row.violable.covers(metric)) return not_applicable_cell(row.violable, metric);
  if (!row.outcome.completed() || !std::isfinite(x)) return "—";
  return format_g(x, 3);
}
}  // namespace

std::string metric_cell(const SummaryRow& row, const MetricSpec& metric) {
  return value_cell(row, metric, metric.value(row.metrics));
}

std::string shared_metric_cell(const SummaryRow& row, const MetricSpec& metric) {
  return value_cell(row, metric, metric.value(row.shared_metrics));
}

bool all_not_applicable(const std::vector<const SummaryRow*>& rows, const MetricSpec& metric) {
  for (const SummaryRow* r : rows)
    if (r->violable.covers(metric)) return false;
  return !rows.empty();
}

const GrowthFit& growth_fit(const ConservationMetrics& m, GrowthOf of) {
  switch (of) {
    case GrowthOf::Energy: return m.energy_growth;
    case GrowthOf::Momentum: return m.momentum_growth;
    case GrowthOf::None: break;
  }
  throw std::logic_error("growth_fit: GrowthOf::None has no fit");
}

const MetricSpec& growth_owner(GrowthOf of) {
  for (const auto& m : metric_registry())
    if (m.growth == of && m.growth_owner) return m;
  throw std::logic_error("growth_owner: no metric of the registry owns that growth law");
}

std::string growth_cell(const SummaryRow& row, GrowthOf of) {
  const MetricSpec& owner = growth_owner(of);
  if (!row.violable.covers(owner)) return not_applicable_cell(row.violable, owner);
  if (!row.outcome.completed()) return "—";
  const GrowthFit& g = growth_fit(row.metrics, of);
  // "^": the envelope accelerates, an observation beside the law (core/growth.hpp), never a law.
  return to_string(g.law) + (g.accelerating ? "^" : "") + (g.investigate() ? "!" : "");
}

std::string growth_law_words(const std::string& law) {
  if (law == "zero") return "exactly 0";
  if (law == "round_off") return "at round-off";
  if (law == "bounded") return "bounded";
  if (law == "sqrt_t") return "grows like sqrt(t)";
  if (law == "linear") return "grows linearly";
  if (law == "faster") return "grows faster than linearly";
  if (law == "power_law") return "grows as a power of t";
  if (law == "too_short") return "too short for a law";
  if (law == "regime_change") return "changes regime";
  if (law == "decays") return "decays";
  if (law.empty()) return "no law";
  return law;  // inconclusive
}

std::string growth_code_meaning(const std::string& code) {
  // One sentence per law (core/growth.hpp classifies); each run's exponent, interval and span
  // are summary.csv's.
  if (code == "zero") return "identically 0: nothing in the run changed the quantity";
  if (code == "round_off")
    return "at round-off: below " + format_g(kGrowthSignalOverFloor) +
           " x the run's Brouwer floor (8 eps x magnitude x sqrt(steps)); a size, not a cause: a method's own error that "
           "small reads the same in one run, and the long-time study's twin at 2h tells them apart (long_time.csv, "
           "at_2h_ratio >= " + format_g(kGrowthTruncationRatio) + ": the method's)";
  if (code == "too_short")
    return "too short for a law: a law needs " + format_g(kGrowthStartPeriods) +
           " periods of the slowest mode for the start-up, then " + format_g(kGrowthMinOctaves) +
           " octaves in time (each run's span is in summary.csv, *_growth_verdict)";
  if (code == "regime_change") return "the error jumps within one octave (a regime change); the law after it is in summary.csv";
  // The rule (core/growth.hpp, one for every law): a law is named only when its 95% interval
  // carries it, s = kGrowthLawSlack the negligible band about each law's exponent.
  const std::string s = format_g(kGrowthLawSlack);
  if (code == "inconclusive")
    return "the exponent's 95% interval carries no law: wider than +-" + format_g(kGrowthMaxHalfWidth) +
           " and not wholly below -" + s + " or above 1 + " + s + ", or touching a law's band (its exponent +-" + s +
           ") without holding that exponent (each run's interval and why: summary.csv)";
  if (code == "decays") return "the error decays: the exponent's 95% interval lies below -" + s;
  if (code == "bounded") return "bounded: the exponent's 95% interval holds 0 (or lies within +-" + s + " of it), clear of 1/2 and 1";
  if (code == "sqrt_t")
    return "grows like sqrt(t), a random walk: the interval holds 1/2 (or lies within +-" + s + " of it), clear of 0 and 1, and the "
           "walk has a random source: rounding (within " + format_g(kGrowthRoundOffWalk) + " x the Brouwer floor) or the "
           "steps across a model's kinks; without one, inconclusive";
  if (code == "linear")
    return "grows linearly in t, a secular drift: the interval holds 1 (or lies within +-" + s + " of it), clear of 0 and 1/2; "
           "or, where the interval lies within [-" + s + ", 1 + " + s + "] and carries no other law, an offset crossing over to a "
           "drift, a + b t (a non-symmetric method's bounded oscillation plus its secular drift), fits the envelope "
           "within " + format_g(100.0 * kOffsetDriftMisfit) + " % at every point and " + format_g(kOffsetDriftBetter) +
           "x better (rms) than c t^p, its local exponent rises by " + format_g(kOffsetDriftRise) +
           " over the window, and b's 95% interval lies above 0 (the words then read \"after an offset\" with a, b and t* = a/b)";
  if (code == "faster") return "grows faster than linearly: the exponent's whole 95% interval lies above 1 + " + s;
  if (code == "power_law") return "grows like t^p with p none of 0, 1/2 and 1: the interval lies between their bands";
  if (code == "exponential")
    return "a prediction, never a fitted law (*_growth_theory): a method unstable on the whole imaginary axis grows an "
           "undamped mode's energy like e^(lambda t), which reads linear while lambda t << 1";
  if (code == "^")
    return "the envelope accelerates (its local exponent rises over the window, the last octave's above 1 + " + s +
           "): an observation beside the law, not a law (each run's exponents: summary.csv)";
  if (code == "!") return "the law contradicts the one theory predicts for the method (*_growth_theory): investigate";
  if (code.empty()) return "no law fitted";
  throw std::logic_error("growth_code_meaning: no words for the code '" + code + "'");
}

std::string failure_words(FailureKind kind) {
  switch (kind) {
    case FailureKind::Diverged: return "diverged";
    case FailureKind::Crashed: return "crashed";
    case FailureKind::Contract: return "broke the integrator contract";
    case FailureKind::Timeout: return "hung";
    case FailureKind::Exception: return "threw";
    default: return "failed";
  }
}

std::string status_cell(const SummaryRow& row) {
  const RunOutcome& o = row.outcome;
  const std::string at = "t = " + format_g(o.t, 3) + " s";
  switch (o.kind) {
    case RunOutcome::Kind::Ok: {
      // A drift in P leads with the whole energy error it carries (N2, and the referee read of r46:
      // the summary's cell said "ok, drifts in P" beside 137 J); "ok" judged the motion's own part.
      std::string out = "ok";
      if (!o.momentum_drift.empty()) {
        const ConservationMetrics& m = row.metrics;
        out = "drifts in P (max ΔE " + format_g(m.energy_err_max, 3) + " J, the centre of mass's " +
              format_g(m.energy_err_com_max, 3) + " J)";
        if (o.note.empty()) out += ", the motion's own energy ok";
      }
      if (!o.manifold_drift.empty())
        out += std::string(o.manifold_rotations ? ", drifts off SO(3)" : ", drifts off the constraint") + " from t = " +
               format_g(o.manifold_t, 3) + " s";
      if (!o.note.empty())
        out += (o.note.find(", a loss: ") != std::string::npos   ? ", dissipates from "
                : o.note.find(", a gain: ") != std::string::npos ? ", gains energy from "
                                                                  : ", drift from ") +  // an older report's note has no sign
               at;
      if (!o.episode.empty()) out += ", a rise that slowed";
      return out;
    }
    case RunOutcome::Kind::Unstable: return (o.energy_jump ? "energy jump at " : "unstable from ") + at;
    case RunOutcome::Kind::Failed: return failure_words(failure_kind(o)) + " at " + at;
    case RunOutcome::Kind::Interrupted: return "interrupted at " + at;
    case RunOutcome::Kind::NotApplicable: return "n/a";
  }
  return "n/a";
}

}  // namespace tb
