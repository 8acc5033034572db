#include "studies/snap/applied_impacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

#include "app/common/csv_table.hpp"
#include "app/common/markdown_table.hpp"
#include "core/format.hpp"
#include "studies/snap/event_logs.hpp"

namespace tb::snap {

std::vector<double> located_offsets(const std::vector<std::pair<double, bool>>& expected, double t_end,
                                    const std::vector<double>& located) {
  std::vector<double> offsets;
  std::vector<bool> used(located.size(), false);
  for (size_t e = 0; e < expected.size(); ++e) {
    if (!expected[e].second) continue;
    const double t = expected[e].first;
    const double window = matching_window(expected, e, t_end);  // as the runs table matches the observer's switches
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
                           const std::vector<const SnapPoint*>& of_case, const SnapRun* reference) {
  // The expected link closings: each link's snap counts once, links snapping together each.
  const long snaps = std::count_if(expected.begin(), expected.end(), [](const auto& s) { return s.second; });
  auto matched = [](const std::vector<double>& offsets) {
    return long(std::count_if(offsets.begin(), offsets.end(), [](double x) { return std::isfinite(x); }));
  };
  std::vector<std::vector<std::string>> rows;
  for (const SnapPoint* p : of_case) {
    const SnapRun& r = p->measured;
    if (p->role != SnapRole::Compared || (r.impacts_applied == 0 && r.absorbed_rebounds == 0)) continue;
    const std::vector<double> located = located_impact_times(r);
    const bool locates = !located.empty();
    const std::vector<double> offsets = with_times && locates ? located_offsets(expected, t_end, located) : std::vector<double>{};
    // Every closing matched to a snap by time (a step-end scheme's comes up to a step after it); the rest are not snaps.
    const long on_snaps = with_times ? matched(located_offsets(expected, t_end, applied_impact_times(r))) : -1;
    std::string shown, written;
    for (size_t k = 0; k < offsets.size(); ++k) {
      const bool late = std::isfinite(offsets[k]) && offsets[k] > 0.0;
      shown += (k ? "; " : "") + std::string(late ? "+" : "") + (std::isfinite(offsets[k]) ? format_g(offsets[k], 3) : "none");
      written += (k ? ";" : "") + (std::isfinite(offsets[k]) ? format_g(offsets[k], 8) : std::string());
    }
    const std::string absorbed = locates ? std::to_string(r.absorbed_rebounds) : "—";
    // The run's record of its closings against the reference's fast snaps, link by link (a completed run's).
    const bool by_link = reference && r.impact_record && r.outcome.ok();
    const std::string fast = by_link ? fast_snaps_words(fast_snaps_by_link(r, *reference)) : "—";
    rows.push_back({p->key.label(), p->setting(), r.outcome.ok() ? std::string("ok") : r.outcome.describe(), std::to_string(snaps),
                    std::to_string(r.links_closed) + " / " + std::to_string(r.impacts_applied),
                    on_snaps >= 0 ? std::to_string(on_snaps) + " / " + std::to_string(r.impacts_applied - on_snaps) : "—",
                    std::to_string(r.steps_with_several_impacts), std::to_string(r.most_impacts_in_a_step),
                    std::to_string(r.most_links_in_an_impact), absorbed, shown.empty() ? "—" : shown});
    if (reference) rows.back().push_back(fast);
    csv << case_name << ',' << csv_quoted(p->key.label()) << ',' << (p->adaptive() ? "" : format_g(p->h, 8)) << ','
        << (p->adaptive() ? format_g(p->rtol) : "") << ',' << r.outcome.word() << ',' << snaps << ',' << r.links_closed << ','
        << r.impacts_applied << ',' << (on_snaps >= 0 ? std::to_string(on_snaps) : "") << ',' << r.steps_with_several_impacts << ','
        << r.most_impacts_in_a_step << ',' << r.most_links_in_an_impact << ',' << (locates ? std::to_string(r.absorbed_rebounds) : "")
        << ',' << located.size() << ",\"" << written << "\"," << (by_link ? csv_quoted(fast) : std::string()) << "\n";
  }
  if (rows.empty()) return;
  md << "\n### The closings the time-stepping schemes applied inside their steps\n\n"
        "What each scheme recorded of its own impacts (the observer above reads only the sampled states). A closing is "
        "a positive impulse on a link that carried none at the step's start (no impulse, no position multiplier): "
        "Moreau–Jean's at the step's midpoint configuration, recorded at that midpoint's time t_k + h/2, nonsmooth "
        "RATTLE's and nonsmooth generalized-α's at the step's end, recorded there, one impact problem a step at most; the variational collision "
        "integrator's at the collision time it solves inside the step (to its position tolerance), as many a step as "
        "collide. A link beyond its length that takes no impulse (its velocity already turned inward) is no closing. "
        "Columns: the snaps "
     << (with_times ? "of the closed form" : "of the reference (each link's, links snapping together counted each)")
     << " within the horizon (closings only: the runs table's expected switches count the openings too); the links "
        "closed and the impact problems that closed them (links within 1e-10 of their length at one collision point, or "
        "closing in one step, take one problem together)"
     << (with_times ? "; of those impact problems, how many fall within a snap's matching window (half the gap to its "
                      "neighbouring switches, as the runs table matches) and how many do not (closings that are not snaps)"
                    : "; the closings are not matched to the reference's snaps by time")
     << "; the steps that took more than one and the most one step took (1 by construction for the step-end schemes); "
        "the most links in one impact problem (1 by construction on one link: it informs on the cables); the rebounds "
        "(e > 0) the variational collision integrator absorbed: a rebound whose flight back to the length would end "
        "before its step does is held at its length with a tension for the rest of the step, taking the rest of its "
        "radial energy without booking it as an impact's loss, a departure from Newton's law (— for a scheme that "
        "cannot absorb one)"
     << (with_times ? "; and the variational collision integrator's located times less the closed form's, per snap (+ late, "
                      "− early; \"none\" where no located collision lies within the snap's window)"
                    : "")
     << (reference ? "; and the run's closings against the reference's fast snaps, link by link: each closing the scheme "
                     "recorded names its link and its closing rate G_i v− over the link's scale (before the impulse: the step's "
                     "start velocity at the configuration the impulse problem is posed at), as the event-driven forms' records "
                     "do; those at "
                  + format_g(kSlowSnap) + " of the reference's fastest snap's rate or more, counted per link against the "
                  "reference's (\"the same N\" with the largest time difference between each link's k-th fast snaps, or the links "
                  "whose counts differ). This is the runs table's cascade verdict for these schemes, the rule an event-driven run's "
                  "own record is judged by (\"Every jump\"): a time-stepping scheme re-closes a taut link whose impulse lapsed for a "
                  "step at a rate near 0, which the rate threshold leaves out, and links closing in one step have no order, so the "
                  "counts are per link"
                : std::string())
     << ". The event-driven methods are not listed: their forms apply each impact at a located event, whose time the "
        "runs table reads.\n\n";
  std::vector<std::string> header = {"method", "step / tolerance", "status", "snaps expected", "closings: links / impact problems",
                                     with_times ? "impact problems: on a snap / not" : "matched to snaps",
                                     "steps with more than one", "most in one step", "most links in one impact",
                                     "absorbed rebounds"};
  header.push_back(with_times ? "located time − closed form, per snap (s)" : "located times matched");
  if (reference) header.push_back("fast closings against the reference's fast snaps, link by link");
  markdown::table(md, header, rows);
}

}  // namespace tb::snap
