#pragma once
// The event-driven methods' own records of their jumps against the reference's (issue 48; core/jump_log.hpp).
// The observer reads switches from samples (studies/snap/observation.hpp) and cannot see a link that closes and
// is free again within one sample interval: a graze, closed by an impulse and left free by the same jump because
// held it would push. On a slack cable such touches come in runs, and whether a run made the reference's
// touches is a discrete difference the samples do not show. Each run's record is compared with the reference's
// entry by entry (the link and what it did, in order): how far they are the same sequence, where they first
// part, and their largest time difference before it; and its fast snaps alone (closing at 1e-3 of the reference's
// fastest rate or more), since the count of slow ones moves with the hybrid form's closing rules (its closing offset
// and hold depth, core/hybrid_constrained_ode.hpp: a snap's echoes resolved down to the hold depth; the snap study
// runs the reference again under other rules to show how far).
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "studies/snap/snap_point.hpp"

namespace tb::snap {

// A run's record against the reference's.
struct LogComparison {
  size_t common = 0;               // entries equal in link and kind from the start
  bool same = false;               // the two records are the same sequence
  double time_error_max = kNoNumber;  // the largest |t_run - t_ref| over the common entries (s)
  double departure_t = kNoNumber;  // where the records first part: the reference's entry's time (its last + where the run's is longer)
  // Where the run, having parted, inserts `inserted` entries (positive) or omits -inserted of the reference's (negative)
  // and then makes the reference's sequence to the end: how many, their links, and the largest time difference
  // over the entries after them. rejoins false: no such count (the records part for good).
  bool rejoins = false;
  long inserted = 0;
  std::vector<int> links;
  double rest_time_error_max = kNoNumber;
};
LogComparison compare_logs(const std::vector<OwnSwitch>& reference, const std::vector<OwnSwitch>& run);

// A run's own record of its closings: an event-driven method's jump log (SnapRun::own_switches), or a time-stepping
// scheme's record of the impulses it applied in its steps (SnapRun::impact_record: each link an impulse closed, an entry
// "snapped" at the impulse's time with its closing rate). keeps_record: whether the run has one.
bool keeps_record(const SnapRun& run);
std::vector<OwnSwitch> record_of(const SnapRun& run);

// The fast snaps (closing at kSlowSnap of the reference's fastest snap's rate or more: the count of slower ones moves with
// the hybrid form's closing rules, and a time-stepping scheme re-closes a taut link whose impulse lapsed for a step at a
// rate near 0) of a run's own record against the reference's, link by link: how many each link made in each record, the
// links whose counts differ, and, where none does, the largest time difference between each link's k-th fast snaps.
// Link by link, not in one sequence: links that close in one step of a time-stepping scheme, or at coinciding events
// (the cooperative case's cables), have no order between them that either family resolves.
inline constexpr double kSlowSnap = 1e-3;
struct FastSnapsByLink {
  std::vector<long> reference_counts, run_counts;  // per link (the larger record's links)
  std::vector<int> links_differing;
  long reference_total = 0, run_total = 0;
  double time_error_max = kNoNumber;  // where no link differs (s)
  bool same() const { return links_differing.empty(); }
};
// `cut`: the fraction of the reference's fastest rate below which a snap is slow (kSlowSnap on the page's verdicts;
// other cuts for the page's check of how the verdicts move with it).
FastSnapsByLink fast_snaps_by_link(const SnapRun& run, const SnapRun& reference, double cut = kSlowSnap);
// "the same 12, link by link, within 3e-7 s", or "11 against 12; link 4 (0 against 1) differ(s)": a table cell.
std::string fast_snaps_words(const FastSnapsByLink& f);
// Whether a run's own record makes the reference's fast snaps, link by link: the cascade verdict for both families.
bool same_fast_snaps(const SnapRun& run, const SnapRun& reference, double cut = kSlowSnap);

// The touches (closed and left free by the same jump) of a record: how many, their jumps' loss (J), the first
// and last time (s) and the links they touched (in order of first touch).
struct TouchSummary {
  long count = 0;
  double loss = 0.0, first = kNoNumber, last = kNoNumber;
  std::vector<int> links;
};
TouchSummary touches_of(const std::vector<OwnSwitch>& record);

// The section of snap.md (after the runs' table) and the case's rows of snap_event_logs.csv (header
// kEventLogCsvHeader, written by the caller). Runs whose form keeps no record are not listed.
void write_event_logs(std::ostringstream& md, std::ostream& csv, const std::string& case_name, double t_end, double sample_interval,
                      const SnapPoint& reference, const std::vector<const SnapPoint*>& others);
inline constexpr const char* kEventLogCsvHeader =
    "case,integrator,role,h,rtol,entries,snapped_held,touched_left_free,opened,held_at_length,held_in_flight,"
    "held_in_flight_depth_max,held_in_flight_time_max_s,held_in_flight_loss_J,touches_loss_J,"
    "observer_switches,common_with_reference,same_as_reference,first_departure_s,time_error_max_s,inserted_then_same,"
    "time_error_max_after_s,fast_snaps_same,fast_snaps_time_error_max_s\n";

}  // namespace tb::snap
