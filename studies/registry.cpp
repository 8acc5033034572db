// The studies of the suite. Keep the list sorted by name.
// Adding a study: its files under studies/ (its plan and write, and its own case table through
// StudyInfo::read_section) and one line here.

#include "studies/registry.hpp"

#include "studies/catenary.hpp"
#include "studies/error_spread.hpp"
#include "studies/long_time.hpp"
#include "studies/paper_comparison.hpp"
#include "studies/parameter_map.hpp"
#include "studies/setting_sweep.hpp"
#include "studies/stability_map.hpp"
#include "studies/tolerance_sweep.hpp"
#include "studies/work_precision.hpp"

namespace tb {

std::vector<StudyInfo> study_registry() {
  return {
      catenary_study(),
      error_spread_study(),
      long_time_study(),
      paper_comparison_study(),
      parameter_map_study(),
      setting_sweep_study(),
      stability_map_study(),
      tolerance_sweep_study(),
      work_precision_study(),
  };
}

}  // namespace tb
