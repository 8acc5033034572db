#pragma once
// Work-precision rankings (issue 24 item 4): which integrator reaches a given error for the
// least work, stated only where the comparison is like for like.
//
//   - Only curves of one discretisation, each measured against that discretisation's own
//     reference, are ranked together (different discretisations solve different equations).
//   - The matched error is the tightest error every curve of the group reaches (the largest of
//     the curves' smallest errors): no curve is ranked on an extrapolation.
//   - Each curve's work at the matched error is interpolated along the curve, log-log between
//     the two points (in order of work) that bracket it: the least work at which the curve
//     reaches it, not the work of whichever point happens to lie below it.
//   - Two neighbours in the order tie when their works differ by no more than the timing
//     spread measured in the same run (max / min - 1 over the passes of the bracketing points;
//     exact counts have none): "a = b", never "a < b".
//   - A curve whose cheapest point is already below the matched error is not bracketed by its
//     sweep: the work of that point is only an upper bound on the work the curve needs (a coarser
//     step might reach the matched error for less; issue 44, referee point N1). Such an entry is
//     placed by its bound and joined to the entry before it by "?": its true work may lie below
//     any entry before it. An entry after a bound is still ordered against it: "<" beyond the
//     spread, "≤" within it (the bound's true work is at most the other's, not alike it).

#include <map>
#include <string>
#include <vector>

namespace tb {

struct CurvePoint {
  double error = 0.0;   // in the measure ranked
  double work = 0.0;    // runtime (s) or a count
  double spread = 0.0;  // relative spread of the work's measurement (0 for counts)
};

struct RankedEntry {
  std::string name;
  double work = 0.0, spread = 0.0;  // interpolated at the matched error
  bool ties_previous = false;       // within the spread of the entry before it
  bool bound = false;               // work only bounds it from above: its cheapest point beats the matched error
  double cheapest_error = 0.0;      // the error of its cheapest point (below the matched error when bound)
};

struct Ranking {
  double matched_error = 0.0;     // 0: nothing to rank
  std::vector<RankedEntry> order;  // least work first
  std::string text() const;        // "a < b = c ? d" ('=' a tie within the spread, '?' d's work a bound, '≤' after one)
  bool orders_all() const;         // no entry after the first is a bound: the first is the least work
};

// The least work at which the curve reaches `target`, interpolated log-log along the curve
// ordered by work; the spread of the bracketing points. Returns false if it never does.
bool work_at_error(std::vector<CurvePoint> curve, double target, double& work, double& spread);

// The ranking of the curves (name -> points) at their matched error (above).
Ranking rank_at_matched_error(const std::map<std::string, std::vector<CurvePoint>>& curves);

}  // namespace tb
