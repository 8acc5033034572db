#include "studies/snap/event_logs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/common/markdown_table.hpp"
#include "core/format.hpp"
#include "studies/snap/against_reference.hpp"

namespace tb::snap {

LogComparison compare_logs(const std::vector<OwnSwitch>& reference, const std::vector<OwnSwitch>& run) {
  LogComparison out;
  const size_t n = std::min(reference.size(), run.size());
  while (out.common < n && reference[out.common].element == run[out.common].element && reference[out.common].kind == run[out.common].kind) {
    const double dt = std::abs(run[out.common].t - reference[out.common].t);
    out.time_error_max = std::isfinite(out.time_error_max) ? std::max(out.time_error_max, dt) : dt;
    ++out.common;
  }
  out.same = out.common == reference.size() && out.common == run.size();
  if (out.same) return out;
  out.departure_t = out.common < reference.size() ? reference[out.common].t : reference.empty() ? 0.0 : reference.back().t;
  // The run's entries from j on against the reference's from i on, to both ends: the same links and kinds.
  const auto rest_same = [&](size_t i, size_t j) {
    if (reference.size() - i != run.size() - j) return false;
    for (; i < reference.size(); ++i, ++j)
      if (reference[i].element != run[j].element || reference[i].kind != run[j].kind) return false;
    return true;
  };
  const auto rest_error = [&](size_t i, size_t j) {
    double worst = kNoNumber;
    for (; i < reference.size(); ++i, ++j) worst = std::isfinite(worst) ? std::max(worst, std::abs(run[j].t - reference[i].t)) : std::abs(run[j].t - reference[i].t);
    return worst;
  };
  const auto links_of = [](const std::vector<OwnSwitch>& record, size_t from, size_t to) {
    std::vector<int> links;
    for (size_t k = from; k < to; ++k)
      if (std::find(links.begin(), links.end(), record[k].element) == links.end()) links.push_back(record[k].element);
    std::sort(links.begin(), links.end());
    return links;
  };
  // The fewest inserted or omitted entries after which the rest is the same (the run's extra entries first).
  const size_t c = out.common;
  for (size_t k = 1; c + k <= std::max(run.size(), reference.size()); ++k) {
    if (c + k <= run.size() && rest_same(c, c + k)) {
      out.rejoins = true, out.inserted = long(k), out.links = links_of(run, c, c + k), out.rest_time_error_max = rest_error(c, c + k);
      break;
    }
    if (c + k <= reference.size() && rest_same(c + k, c)) {
      out.rejoins = true, out.inserted = -long(k), out.links = links_of(reference, c, c + k), out.rest_time_error_max = rest_error(c + k, c);
      break;
    }
  }
  return out;
}

TouchSummary touches_of(const std::vector<OwnSwitch>& record) {
  TouchSummary out;
  double last_jump = kNoNumber;
  for (const OwnSwitch& s : record) {
    if (s.what() != LoggedSwitch::Kind::Touched) continue;
    ++out.count;
    if (!std::isfinite(out.first)) out.first = s.t;
    out.last = s.t;
    if (std::find(out.links.begin(), out.links.end(), s.element) == out.links.end()) out.links.push_back(s.element);
    // A jump's loss sits on its first entry; a touch alone in its jump is its first.
    if (s.t != last_jump) out.loss += s.loss;
    last_jump = s.t;
  }
  return out;
}

namespace {


struct KindCounts {
  long snapped = 0, touched = 0, opened = 0, held = 0, held_in_flight = 0;
  double snap_rate_min = kNoNumber, touch_rate_max = kNoNumber;  // over the closings (1/s)
  // Over the holds in flight: the fastest inward rate stopped (1/s), the deepest and longest flight (relative to the
  // length; s), and the energy the stops took together (J).
  double flight_rate_max = 0.0, flight_depth_max = 0.0, flight_time_max = 0.0, flight_loss = 0.0;
};
KindCounts count_kinds(const std::vector<OwnSwitch>& record) {
  KindCounts k;
  for (const OwnSwitch& s : record) switch (s.what()) {
      case LoggedSwitch::Kind::Snapped:
        ++k.snapped;
        k.snap_rate_min = std::isfinite(k.snap_rate_min) ? std::min(k.snap_rate_min, s.closing_rate) : s.closing_rate;
        break;
      case LoggedSwitch::Kind::Touched:
        ++k.touched;
        k.touch_rate_max = std::isfinite(k.touch_rate_max) ? std::max(k.touch_rate_max, s.closing_rate) : s.closing_rate;
        break;
      case LoggedSwitch::Kind::Opened: ++k.opened; break;
      case LoggedSwitch::Kind::HeldAtLength: ++k.held; break;
      case LoggedSwitch::Kind::HeldInFlight:
        ++k.held_in_flight;
        k.flight_rate_max = std::max(k.flight_rate_max, std::abs(s.closing_rate));
        k.flight_depth_max = std::max(k.flight_depth_max, s.flight_depth);
        k.flight_time_max = std::max(k.flight_time_max, s.flight_time);
        k.flight_loss += s.flight_loss;
        break;
    }
  return k;
}

double fastest_snap(const std::vector<OwnSwitch>& record) {
  double fastest = 0.0;
  for (const OwnSwitch& s : record)
    if (s.what() == LoggedSwitch::Kind::Snapped) fastest = std::max(fastest, s.closing_rate);
  return fastest;
}

// A record's snaps (held or left free) at closing rates of at least `rate` (1/s), in order: the sequence without the
// slow snaps and the openings between them.
std::vector<OwnSwitch> fast_snaps(const std::vector<OwnSwitch>& record, double rate) {
  std::vector<OwnSwitch> out;
  for (const OwnSwitch& s : record)
    if ((s.what() == LoggedSwitch::Kind::Snapped || s.what() == LoggedSwitch::Kind::Touched) && s.closing_rate >= rate) out.push_back(s);
  return out;
}

std::string links_words(const std::vector<int>& links) {
  std::string out;
  for (size_t i = 0; i < links.size(); ++i) out += (i ? (i + 1 == links.size() ? " and " : ", ") : "") + std::to_string(links[i]);
  return out.empty() ? "—" : out;
}

}  // namespace

std::string fast_snaps_words(const FastSnapsByLink& f) {
  if (f.same()) return "the same " + std::to_string(f.reference_total) + ", link by link, within " + number_or_dash(f.time_error_max) + " s";
  std::string out = std::to_string(f.run_total) + " against " + std::to_string(f.reference_total) + "; link";
  out += f.links_differing.size() > 1 ? "s " : " ";
  for (size_t i = 0; i < f.links_differing.size() && i < 5; ++i) {
    const int e = f.links_differing[i];
    out += (i ? ", " : "") + std::to_string(e) + " (" + std::to_string(f.run_counts[size_t(e)]) + " against " + std::to_string(f.reference_counts[size_t(e)]) + ")";
  }
  if (f.links_differing.size() > 5) out += ", and " + std::to_string(f.links_differing.size() - 5) + " more";
  return out + (f.links_differing.size() > 1 ? " differ" : " differs");
}

namespace {

std::string role_word(SnapRole role) {
  return role == SnapRole::Reference ? "reference" : role == SnapRole::ReferenceCheck ? "reference check" : "compared";
}

}  // namespace

bool keeps_record(const SnapRun& run) { return run.own_log || run.impact_record; }

std::vector<OwnSwitch> record_of(const SnapRun& run) {
  if (run.own_log || !run.impact_record) return run.own_switches;
  std::vector<OwnSwitch> out;
  for (const ImpactTime& impact : run.impact_times)
    for (size_t k = 0; k < impact.elements.size(); ++k) {
      OwnSwitch s;
      s.t = impact.t, s.element = impact.elements[k], s.kind = int(LoggedSwitch::Kind::Snapped);
      s.closing_rate = k < impact.closing_rates.size() ? impact.closing_rates[k] : 0.0;
      out.push_back(s);
    }
  return out;
}

FastSnapsByLink fast_snaps_by_link(const SnapRun& run, const SnapRun& reference, double cut) {
  FastSnapsByLink out;
  const double rate = cut * fastest_snap(reference.own_switches);
  const std::vector<OwnSwitch> ref = fast_snaps(reference.own_switches, rate), made = fast_snaps(record_of(run), rate);
  int links = 0;
  for (const auto* record : {&ref, &made})
    for (const OwnSwitch& s : *record) links = std::max(links, s.element + 1);
  out.reference_counts.assign(size_t(links), 0), out.run_counts.assign(size_t(links), 0);
  for (const OwnSwitch& s : ref) ++out.reference_counts[size_t(s.element)];
  for (const OwnSwitch& s : made) ++out.run_counts[size_t(s.element)];
  out.reference_total = long(ref.size()), out.run_total = long(made.size());
  for (int e = 0; e < links; ++e)
    if (out.reference_counts[size_t(e)] != out.run_counts[size_t(e)]) out.links_differing.push_back(e);
  if (!out.same()) return out;
  // Each link's k-th fast snap in the run against its k-th in the reference.
  for (int e = 0; e < links; ++e) {
    std::vector<double> a, b;
    for (const OwnSwitch& s : ref)
      if (s.element == e) a.push_back(s.t);
    for (const OwnSwitch& s : made)
      if (s.element == e) b.push_back(s.t);
    for (size_t k = 0; k < a.size(); ++k) {
      const double dt = std::abs(a[k] - b[k]);
      out.time_error_max = std::isfinite(out.time_error_max) ? std::max(out.time_error_max, dt) : dt;
    }
  }
  return out;
}

bool same_fast_snaps(const SnapRun& run, const SnapRun& reference, double cut) { return fast_snaps_by_link(run, reference, cut).same(); }

void write_event_logs(std::ostringstream& md, std::ostream& csv, const std::string& case_name, double t_end, double sample_interval,
                      const SnapPoint& reference, const std::vector<const SnapPoint*>& others) {
  const SnapRun& ref = reference.measured;
  if (!ref.own_log) return;
  const KindCounts rk = count_kinds(ref.own_switches);
  const TouchSummary rt = touches_of(ref.own_switches);
  md << "\n### Every jump, from the event-driven methods' own records\n\n"
        "The observer reads switches from the samples every "
     << format_g(sample_interval)
     << " s and counts a link slack only once its gap has passed the at-length band (" << format_g(reference.key.c->model->switching()->gap_tolerance)
     << " m): a link that closes and is free again within one interval, or whose flight stays inside that band, is not "
        "in its list; nor is a held link whose tension the observer's own solve (the held set from that band, without "
        "the stabilisation's terms) does not take through 0. The event-driven methods' "
        "forms record every jump they make (core/jump_log.hpp): each link whose mode changed, and how — snapped (an "
        "impulse, then held), touched (an impulse, and left free by the same jump: a graze, which held would push; or a "
        "rebound), opened (held, then free), held at its length (free, not closing, held by the modes' acceleration test), "
        "held in flight (at its length and moving inwards after the jump's impulses, a rebound or a held link kicked "
        "inwards by another's snap, whose flight back would be shorter than 1e-6 of the form's time scale or shallower "
        "than the case's held_flight_depth: held with its inward rate stopped plastically, the loss booked; the method "
        "paragraph says why).\n\n"
        "The reference's record over the horizon: "
     << ref.own_switches.size() << " entries, " << rk.snapped << " snapped, " << rk.touched << " touched, " << rk.opened << " opened, "
     << rk.held << " held at length, " << rk.held_in_flight << " held in flight; the observer's list has " << ref.switches.size()
     << " switches.";
  if (rk.held_in_flight > 0)
    md << " Its holds in flight stopped inward rates up to " << format_g(rk.flight_rate_max, 3)
       << " /s (the gap's rate over the link's length), of flights that would have reached at most " << format_g(rk.flight_depth_max, 3)
       << " of the length inside it and lasted at most " << format_g(rk.flight_time_max, 3) << " s, and took "
       << format_g(rk.flight_loss, 3) << " J together: each hold moves its link by at most its flight's depth and its loss "
          "earlier by at most its flight's time (the method paragraph).";
  // Its slowest snaps: a closing at a vanishing rate is a grazing decision (whether the gap reaches the length at
  // all moves with the state at second order), the first thing an integration error changes.
  const double fastest = fastest_snap(ref.own_switches);
  {
    long slow = 0;
    double first = kNoNumber, last = kNoNumber, slowest = kNoNumber;
    std::vector<int> links;
    for (const OwnSwitch& s : ref.own_switches)
      if (s.what() == LoggedSwitch::Kind::Snapped && s.closing_rate < kSlowSnap * fastest) {
        ++slow;
        if (!std::isfinite(first)) first = s.t;
        last = s.t;
        slowest = std::isfinite(slowest) ? std::min(slowest, s.closing_rate) : s.closing_rate;
        if (std::find(links.begin(), links.end(), s.element) == links.end()) links.push_back(s.element);
      }
    std::sort(links.begin(), links.end());
    // The gap in the rates at the cut: the slowest snap above it and the fastest below.
    double slowest_fast = kNoNumber, fastest_slow = kNoNumber;
    for (const OwnSwitch& s : ref.own_switches) {
      if (s.what() != LoggedSwitch::Kind::Snapped) continue;
      if (s.closing_rate >= kSlowSnap * fastest) slowest_fast = std::isfinite(slowest_fast) ? std::min(slowest_fast, s.closing_rate) : s.closing_rate;
      else fastest_slow = std::isfinite(fastest_slow) ? std::max(fastest_slow, s.closing_rate) : s.closing_rate;
    }
    // The loss booked by the jumps whose snaps are all slow ones (a jump's loss sits on its first entry), and by all.
    double slow_loss = 0.0, all_loss = 0.0;
    for (size_t k = 0; k < ref.own_switches.size();) {
      size_t end = k;
      bool any_snap = false, all_slow = true;
      while (end < ref.own_switches.size() && ref.own_switches[end].t == ref.own_switches[k].t) {
        const OwnSwitch& s = ref.own_switches[end++];
        if (s.what() != LoggedSwitch::Kind::Snapped) continue;
        any_snap = true;
        all_slow = all_slow && s.closing_rate < kSlowSnap * fastest;
      }
      all_loss += ref.own_switches[k].loss;
      if (any_snap && all_slow) slow_loss += ref.own_switches[k].loss;
      k = end;
    }
    if (slow > 0)
      md << " " << slow << " of its snaps close at under " << format_g(kSlowSnap) << " of its fastest snap's rate (" << number_or_dash(fastest)
         << " /s, the gap's rate over the link's length), down to " << number_or_dash(slowest) << " /s: between " << format_g(first, 6) << " and "
         << format_g(last, 6) << " s, on link" << (links.size() > 1 ? "s " : " ") << links_words(links)
         << " (numbered from 0 at the payload; the fastest of them closes at " << number_or_dash(fastest_slow) << " /s, the slowest snap above the cut at " << number_or_dash(slowest_fast) << " /s); the jumps of slow snaps alone book " << number_or_dash(slow_loss) << " J of the "
         << number_or_dash(all_loss, 6) << " J all jumps book. A closing at a vanishing rate is a grazing decision: whether it happens at all "
            "depends on the gap's extremum, which moves with the state at first order, and its time on the square root of "
            "that change, so such closings are the first thing an integration error changes. Most of them here are a "
            "snap's echoes: a snap kicks a held link a few links away inwards through the slack rods' inertia, that link's "
            "return kicks the first, each flight shallower than the last, until one would reach less than the hold depth "
            "inside the length (the case's held_flight_depth; a closing is located where the gap is the closing offset beyond it), "
            "and the hybrid form holds that link, its inward rate stopped plastically and the loss booked (\"held in flight\"). "
            "How many echoes the reference resolves is set by those two rules, the closing offset and the hold depth; the "
            "rules table (the reference's section above) gives the reference's entries and its distance in configuration "
            "and energy with each rule changed, one at a time. An earlier form integrated the echoes down to the offset's own depth, "
            "where their closing rates settled at the rate the free acceleration adds over the offset, sqrt(2 g'' offset "
            "l): links 7 and 9 exchanged 143 slow snaps at an offset of 1e-9 (rk45 at rtol 1e-12, measured by hand), a cycle "
            "the offset drove, each closing holding its link a further offset out. The fast snaps' column below compares the runs without the slow ones.";
  }
  if (rt.count > 0)
    md << " Its touches fall between " << format_g(rt.first, 6) << " and " << format_g(rt.last, 6) << " s, on link" << (rt.links.size() > 1 ? "s " : " ")
       << links_words(rt.links) << " (numbered from 0 at the payload), at closing rates up to " << number_or_dash(rk.touch_rate_max)
       << " /s (the gap's rate over the link's length; its slowest held snap closes at " << number_or_dash(rk.snap_rate_min)
       << " /s), and their jumps book " << number_or_dash(rt.loss) << " J together.";
  md << "\n\nEach run's record against the reference's, entry by entry (the link and its kind, in order): how many entries "
        "from the start are the same, the largest time difference over those, and where the records first part (the "
        "reference's entry there); where it parts, what it does instead (\"after it\"); and its fast snaps alone against the "
        "reference's. A run whose fast snaps part from the reference's made another switch sequence, whatever the "
        "observer's list says; one whose records differ in slow snaps only differs where the count moves with the form's "
        "closing rules.\n\n";
  std::vector<std::vector<std::string>> rows;
  // Where the observer's cascade verdict (every switch of the reference's list matched, none added) and the run's own
  // fast snaps (the reference's, in order) disagree; and the runs both call on whose full records differ in slow snaps only.
  std::vector<std::string> observer_off_record_same, observer_on_record_parts, slow_only;
  // In the first of those: the observer's unmatched readings, at how many the run's own event function says it switched
  // too by that sample, and the range of |its value| where it says not.
  struct {
    long readings = 0, run_switched = 0;
    double not_switched_lo = std::numeric_limits<double>::infinity(), not_switched_hi = 0.0;
  } extra;
  auto row_of = [&](const SnapPoint& p) {
    const SnapRun& r = p.measured;
    if (!r.own_log || !r.outcome.ok()) return;
    const KindCounts k = count_kinds(r.own_switches);
    const TouchSummary t = touches_of(r.own_switches);
    const bool is_reference = &p == &reference;
    const LogComparison c = is_reference ? LogComparison{ref.own_switches.size(), true, 0.0, kNoNumber} : compare_logs(ref.own_switches, r.own_switches);
    const FastSnapsByLink f = fast_snaps_by_link(r, ref);
    const std::string fast_words = is_reference ? std::to_string(f.reference_total) : fast_snaps_words(f);
    const SwitchMatch m = match_switches(ref.switches, r.switches, t_end);
    const bool observer_on = m.matched == m.expected && m.made == m.expected;
    if (!is_reference && observer_on && f.same() && !c.same) slow_only.push_back(p.key.label() + " at " + p.setting());
    if (!is_reference && !observer_on && f.same()) {
      observer_off_record_same.push_back(p.key.label() + " at " + p.setting());
      // The observer's switches matched to none of the reference's: did the run itself switch there by that sample?
      std::vector<bool> matched(r.switches.size(), false);
      for (const auto& pair : m.pairs) matched[pair.second] = true;
      for (size_t k = 0; k < r.switches.size(); ++k) {
        if (matched[k]) continue;
        const Switch& sw = r.switches[k];
        ++extra.readings;
        const bool run_switched = sw.to_taut ? sw.run_function > 0.0 : sw.run_function < 0.0;
        if (!std::isfinite(sw.run_function)) continue;
        if (run_switched) ++extra.run_switched;
        else extra.not_switched_lo = std::min(extra.not_switched_lo, std::abs(sw.run_function)),
             extra.not_switched_hi = std::max(extra.not_switched_hi, std::abs(sw.run_function));
      }
    }
    if (!is_reference && observer_on && !f.same()) observer_on_record_parts.push_back(p.key.label() + " at " + p.setting());
    std::string parts = "—", after = "—";
    if (!c.same) {
      parts = "at " + format_g(c.departure_t, 7) + " s";
      if (c.common < ref.own_switches.size()) {
        const OwnSwitch& e = ref.own_switches[c.common];
        parts += " (the reference's link " + std::to_string(e.element) + " " + kind_name(e.what());
        if (c.common < r.own_switches.size()) {
          const OwnSwitch& m = r.own_switches[c.common];
          parts += "; the run's link " + std::to_string(m.element) + " " + kind_name(m.what()) + " at " + format_g(m.t, 7) + " s";
        }
        parts += ")";
      } else {
        parts += " (the run's record goes on)";
      }
      after = c.rejoins ? std::string(c.inserted > 0 ? "makes " : "omits ") + std::to_string(std::labs(c.inserted)) + " entries (link" +
                              (c.links.size() > 1 ? "s " : " ") + links_words(c.links) + "), then the same to the end, within " +
                              number_or_dash(c.rest_time_error_max) + " s"
                        : "parts for good";
    }
    rows.push_back({p.key.label() + (is_reference ? " (reference)" : p.role == SnapRole::ReferenceCheck ? " (check)" : ""), p.setting(),
                    std::to_string(r.own_switches.size()), std::to_string(k.snapped), std::to_string(k.touched), std::to_string(k.opened),
                    std::to_string(k.held), std::to_string(k.held_in_flight), number_or_dash(t.loss),
                    std::to_string(r.switches.size()) + (is_reference ? "" : observer_on ? " (on)" : " (off)"),
                    is_reference ? "—" : std::to_string(c.common) + (c.same ? " (all)" : ""), is_reference ? "—" : number_or_dash(c.time_error_max), parts,
                    after, fast_words});
    csv << case_name << ',' << p.key.label() << ',' << role_word(p.role) << ',' << (p.adaptive() ? "" : format_g(p.h, 8)) << ','
        << (p.adaptive() ? format_g(p.rtol) : "") << ',' << r.own_switches.size() << ',' << k.snapped << ',' << k.touched << ',' << k.opened
        << ',' << k.held << ',' << k.held_in_flight << ',' << format_g(k.flight_depth_max, 6) << ',' << format_g(k.flight_time_max, 6) << ','
        << format_g(k.flight_loss, 8) << ',' << format_g(t.loss, 8) << ',' << r.switches.size() << ',' << c.common << ',' << (c.same ? "yes" : "no") << ','
        << (std::isfinite(c.departure_t) ? format_g(c.departure_t, 12) : "") << ','
        << (std::isfinite(c.time_error_max) ? format_g(c.time_error_max, 6) : "") << ',' << (c.rejoins ? std::to_string(c.inserted) : "") << ','
        << (c.rejoins && std::isfinite(c.rest_time_error_max) ? format_g(c.rest_time_error_max, 6) : "") << ','
        << (is_reference ? "" : f.same() ? "yes" : "no") << ',' << (is_reference || !f.same() ? "" : format_g(f.time_error_max, 6)) << '\n';
  };
  row_of(reference);
  for (const SnapPoint* p : others) row_of(*p);
  markdown::table(md,
                  {"run", "setting", "entries", "snapped", "touched", "opened", "held at length", "held in flight", "touches' loss (J)",
                   "observer's switches (on or off its cascade)",
                   "same as the reference's from the start", "their largest time difference (s)", "first part", "after it",
                   "fast snaps (at least " + format_g(kSlowSnap) + " of the reference's fastest rate) against the reference's, link by link"},
                  rows);
  const auto list = [](const std::vector<std::string>& runs) {
    std::string out;
    for (size_t i = 0; i < runs.size(); ++i) out += (i ? "; " : "") + runs[i];
    return out;
  };
  // The observer and the event-driven forms read the same opening function, a held link's tension without the
  // stabilisation's terms (a referee read, 6 Dec): for those runs this compares the samples' reading with the located
  // record, not two decision rules.
  md << "\nWhere the observer's cascade verdict (the runs table's) and the run's own fast snaps disagree (for the "
        "event-driven runs the observer and their forms both read a held link's opening on its tension without the "
        "stabilisation's terms, the observer on the held set its samples' geometry gives, the forms on their mode flags): ";
  if (observer_off_record_same.empty() && observer_on_record_parts.empty()) md << "nowhere.";
  if (!observer_off_record_same.empty()) {
    md << "the observer reads " << list(observer_off_record_same)
       << " off its cascade, while by their own records these runs made the reference's fast snaps in its order. The "
          "observer's readings matched to none of the reference's switches in these runs: "
       << extra.readings << "; at " << extra.run_switched << " of them the run's own event function at the same sample says the run "
          "switched there too";
    if (extra.readings > extra.run_switched && std::isfinite(extra.not_switched_lo))
      md << ", at the other " << (extra.readings - extra.run_switched) << " it says the run did not (|its value| "
         << number_or_dash(extra.not_switched_lo) << " to " << number_or_dash(extra.not_switched_hi)
         << " of its scale, on its own side): there the observer's function, not the run, switched. The observer's tension "
            "takes the held set from the geometry (links within 1e-6 of their length), the run's from its mode flags; "
            "neither has the stabilisation's terms, so the held set is the difference left";
    md << ".";
  }
  if (!observer_on_record_parts.empty())
    md << (observer_off_record_same.empty() ? "" : " Conversely, ") << "the observer reads " << list(observer_on_record_parts)
       << " on its cascade, while their own fast snaps part from the reference's: sequences the samples cannot tell apart.";
  if (!slow_only.empty())
    md << " The observer and the fast snaps agree that " << list(slow_only)
       << " followed the reference's cascade, while their full records differ from it in slow snaps and the openings "
          "between them (the \"after it\" column), whose count moves with the form's closing rules, its offset and hold depth (above).";
  if (!observer_off_record_same.empty() || !observer_on_record_parts.empty())
    md << " The runs table (above) judges an event-driven run's cascade by these fast snaps, link by link, and with it the "
          "fits and the advice; a time-stepping scheme's by the same rule on its record of the impulses it applied (the "
          "applied-impacts table).";
  md << "\n";
}

}  // namespace tb::snap
