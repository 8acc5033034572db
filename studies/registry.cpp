// The studies of the suite. Keep the list sorted by name (the report shows their figures and
// pages in the catalogue's order, which is by name once plugins are added).
// Adding a study: its folder studies/<name>/ holding all of it (its plan and write; its own case
// table, read and checked through StudyInfo::read_section; its figures, StudyInfo::figures; its
// pages in index.md, StudyInfo::pages; its tables read back into the front page's records,
// StudyInfo::read_back; the referee's rules for its tables, StudyInfo::check_claims) and one line here.

#include "studies/registry.hpp"

#include "studies/catenary/catenary.hpp"
#include "studies/energy_balance/energy_balance.hpp"
#include "studies/error_spread/error_spread.hpp"
#include "studies/long_time/long_time.hpp"
#include "studies/paper_comparison/paper_comparison.hpp"
#include "studies/parameter_map/parameter_map.hpp"
#include "studies/setting_sweep/setting_sweep.hpp"
#include "studies/slack_taut/slack_taut.hpp"
#include "studies/snap/snap.hpp"
#include "studies/stability_map/stability_map.hpp"
#include "studies/tolerance_sweep/tolerance_sweep.hpp"
#include "studies/work_precision/work_precision.hpp"

namespace tb {

std::vector<StudyInfo> study_registry() {
  return {
      catenary_study(),
      energy_balance_study(),
      error_spread_study(),
      long_time_study(),
      paper_comparison_study(),
      parameter_map_study(),
      setting_sweep_study(),
      slack_taut_study(),
      snap_study(),
      stability_map_study(),
      tolerance_sweep_study(),
      work_precision_study(),
  };
}

}  // namespace tb
