#pragma once
#include <array>
#include <string_view>

#include "app/input/study.hpp"
#include "models/hanging_tether/catenary_study.hpp"
namespace tb {
// Hanging-tether cases: the static shape for each N against Irvine's elastic catenary (seed
// 003 Remark 1), with the error and the observed rate. Parameter `elements` (comma-separated
// increasing N >= 2). Writes catenary.csv.
StudyInfo catenary_study();

namespace hanging_tether {
// A catenary job's result (app/running/job_result.hpp), described once (app/common/record.hpp).
constexpr std::array<std::string_view, 2> enum_texts(Discretisation) { return {"lumped", "full"}; }
template <class V>
void describe(V& v, CatenaryPoint& p) {
  v("N", p.N);
  v("max_error", p.max_error);
  v("rate", p.rate);
  v("newton_iterations", p.newton_iterations);
  v("horizontal_tension", p.horizontal_tension);
}
template <class V>
void describe(V& v, CatenaryStudy& s) {
  v("case", s.case_name);
  v("discretisation", s.discretisation);
  v("analytic_horizontal_tension", s.analytic_horizontal_tension);
  v("fitted_rate", s.fitted_rate);
  v("points", s.points);
}
}  // namespace hanging_tether
}  // namespace tb
