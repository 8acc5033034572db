#include "studies/snap/applied_impacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

#include "app/common/csv_table.hpp"
#include "app/common/markdown_table.hpp"
#include "core/format.hpp"

namespace tb::snap {

std::vector<double> located_offsets(const std::vector<std::pair<double, bool>>& expected, double t_end,
                                    const std::vector<double>& located) {
  std::vector<double> offsets;
  std::vector<bool> used(located.size(), false);
  for (size_t e = 0; e < expected.size(); ++e) {
    if (!expected[e].second) continue;
    const double t = expected[e].first;
    // Half the gap to the nearest expected switches at other times (a rebound's opening shares its
    // hit's time), as the runs table matches the observer's switches (snap.cpp judge()).
    double before = t, after = t_end - t;
    for (size_t k = e; k-- > 0;)
      if (expected[k].first < t) {
        before = t - expected[k].first;
        break;
      }
    for (size_t k = e + 1; k < expected.size(); ++k)
      if (expected[k].first > t) {
        after = expected[k].first - t;
        break;
      }
    const double window = 0.5 * std::min(before, after);
    size_t best = located.size();
    for (size_t k = 0; k < located.size(); ++k) {
      if (used[k] || std::abs(located[k] - t) > window) continue;
      if (best == located.size() || std::abs(located[k] - t) < std::abs(located[best] - t)) best = k;
    }
    if (best == located.size()) {
      offsets.push_back(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    used[best] = true;
    offsets.push_back(located[best] - t);
  }
  return offsets;
}

void write_applied_impacts(std::ostringstream& md, std::ostream& csv, const std::string& case_name,
                           const std::vector<std::pair<double, bool>>& expected, double t_end, bool with_times,
                           const std::vector<const SnapPoint*>& of_case) {
  // The expected link closings: each link's snap counts once, links snapping together each.
  const long snaps = std::count_if(expected.begin(), expected.end(), [](const auto& s) { return s.second; });
  std::vector<std::vector<std::string>> rows;
  for (const SnapPoint* p : of_case) {
    const SnapRun& r = p->measured;
    if (p->role != SnapRole::Compared || (r.impacts_applied == 0 && r.absorbed_rebounds == 0)) continue;
    const std::vector<double> offsets =
        with_times && !r.located_impact_times.empty() ? located_offsets(expected, t_end, r.located_impact_times) : std::vector<double>{};
    std::string shown, written;
    for (size_t k = 0; k < offsets.size(); ++k) {
      const bool late = std::isfinite(offsets[k]) && offsets[k] > 0.0;
      shown += (k ? "; " : "") + std::string(late ? "+" : "") + (std::isfinite(offsets[k]) ? format_g(offsets[k], 3) : "none");
      written += (k ? ";" : "") + (std::isfinite(offsets[k]) ? format_g(offsets[k], 8) : std::string());
    }
    const std::string located = r.located_impact_times.empty() ? "—" : std::to_string(r.located_impact_times.size());
    rows.push_back({p->key.label(), p->setting(), r.outcome.ok() ? std::string("ok") : r.outcome.describe(),
                    std::to_string(snaps) + " / " + std::to_string(r.links_closed), std::to_string(r.impacts_applied),
                    std::to_string(r.steps_with_several_impacts),
                    std::to_string(r.most_impacts_in_a_step), std::to_string(r.most_links_in_an_impact),
                    std::to_string(r.absorbed_rebounds), located, shown.empty() ? "—" : shown});
    csv << case_name << ',' << csv_quoted(p->key.label()) << ',' << (p->adaptive() ? "" : format_g(p->h, 8)) << ','
        << (p->adaptive() ? format_g(p->rtol) : "") << ',' << r.outcome.word() << ',' << snaps << ',' << r.links_closed << ',' << r.impacts_applied << ','
        << r.steps_with_several_impacts << ',' << r.most_impacts_in_a_step << ',' << r.most_links_in_an_impact << ','
        << r.absorbed_rebounds << ',' << r.located_impact_times.size() << ",\"" << written << "\"\n";
  }
  if (rows.empty()) return;
  md << "\n### The impacts the time-stepping schemes applied inside their steps\n\n"
        "What each scheme recorded of its own impact problems (the observer above sees only the sampled states): the "
        "links it closed by an impulse, against the snaps "
     << (with_times ? "of the closed form" : "of the reference (each link's, links snapping together counted each)")
     << " within the horizon (a failed run's up to its failure; "
     << (with_times ? "a count above the expected is closings that are not snaps of the closed form, chatter"
                    : "a count above the expected is closings the reference's observer does not read as snaps: chatter, "
                      "or closings briefer than its samples")
     << "); the impact problems it solved (links closing together take one); the steps that solved more than one and the most one step solved; the most links in one impact problem (links "
        "closing together); the rebounds (e > 0) held at their length with a tension by the rest of their step instead of "
        "flying back (absorbed: the flight and its next closing shorter than what was left of the step, taken as one "
        "plastic hold); and, for a scheme that solves each collision's time inside its step (the variational collision "
        "integrator), how many it located"
     << (with_times ? " and, for each expected snap, the nearest located time less the closed form's (+ late, − early; "
                      "\"none\" where no located collision lies within half the gap to the neighbouring switches)"
                    : " (the record does not say which link closed, so on a cable its times are not matched)")
     << ". The event-driven methods are not listed: their forms apply each impact at a located event, whose time the "
        "runs table reads. A scheme that applies its impulses at the step's end (Moreau–Jean, nonsmooth RATTLE, nonsmooth "
        "generalized-α) solves one impact problem a step at most, all links closing in it together.\n\n";
  std::vector<std::string> header = {"method", "step / tolerance", "status", "link closings: expected / applied",
                                     "impact problems", "steps with more than one", "most in one step", "most links in one impact",
                                     "absorbed rebounds", "located collisions"};
  header.push_back(with_times ? "located time − closed form, per snap (s)" : "located times matched");
  markdown::table(md, header, rows);
}

}  // namespace tb::snap
