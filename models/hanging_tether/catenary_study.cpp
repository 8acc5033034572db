#include "models/hanging_tether/catenary_study.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "numerics/convergence.hpp"
#include "core/format.hpp"
#include "models/hanging_tether/elastic_catenary.hpp"
#include "models/hanging_tether/static_equilibrium.hpp"
#include "mechanics/elastic_element.hpp"

namespace tb::hanging_tether {

const std::vector<int>& default_catenary_elements() {
  static const std::vector<int> elements = {4, 8, 16, 32, 64, 128, 256};
  return elements;
}

CatenaryStudy catenary_convergence(const Parameters& base, const std::vector<int>& elements,
                                   const std::string& case_name) {
  CatenaryStudy study;
  study.case_name = case_name;
  study.discretisation = base.discretisation;
  const ElasticCatenary catenary(base);
  study.analytic_horizontal_tension = catenary.horizontal_tension();
  std::vector<double> hs, errors;
  for (const int N : elements) {
    if (N < 2 || (!study.points.empty() && N <= study.points.back().N))
      throw std::invalid_argument("catenary study: element counts must be >= 2 and increasing");
    Parameters p = base;
    p.N = N;
    const Mechanics mech(p);
    const StaticSolution s = solve_static_equilibrium(mech);
    CatenaryPoint point;
    point.N = N;
    point.max_error = max_node_distance(s.r, catenary, p.length);
    point.newton_iterations = s.iterations;
    // Horizontal tension: the element force's component along the horizontal span direction.
    const Vec3 chord = p.B - p.A;
    const Vec3 d = (chord - chord.z() * Vec3::UnitZ()).normalized();
    point.horizontal_tension = linear_element_force(p.kappa(), p.u(), s.r[1] - s.r[0]).dot(d);
    point.rate = study.points.empty()
                     ? std::numeric_limits<double>::quiet_NaN()
                     : std::log(study.points.back().max_error / point.max_error) / std::log(double(N) / study.points.back().N);
    study.points.push_back(point);
    hs.push_back(1.0 / N);
    errors.push_back(point.max_error);
  }
  study.fitted_rate = hs.size() >= 2 ? fitted_order(hs, errors) : std::numeric_limits<double>::quiet_NaN();
  return study;
}

void write_catenary_csv(const std::string& path, const std::vector<CatenaryStudy>& studies) {
  const std::filesystem::path file(path);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "case,discretisation,elements,max_error_m,rate,fitted_rate,newton_iterations,horizontal_tension_N,"
         "analytic_horizontal_tension_N\n";
  for (const auto& s : studies)
    for (const auto& p : s.points)
      out << s.case_name << ',' << to_string(s.discretisation) << ',' << p.N << ',' << format_g(p.max_error, 6) << ','
          << (std::isnan(p.rate) ? std::string("") : format_g(p.rate, 4)) << ',' << format_g(s.fitted_rate, 4) << ','
          << p.newton_iterations << ',' << format_g(p.horizontal_tension, 10) << ','
          << format_g(s.analytic_horizontal_tension, 10) << '\n';
}

}  // namespace tb::hanging_tether
