#include "core/trajectory_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace tb {

namespace {
TrajectoryNorms norms_of(const std::vector<Eigen::VectorXd>& run, const std::vector<Eigen::VectorXd>& reference,
                         const std::vector<PhysicalPart>& parts, PhysicalPart part) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto members = std::count(parts.begin(), parts.end(), part);
  if (members == 0 || run.size() < 2) return {nan, nan};
  double sum = 0.0, max = 0.0;
  for (size_t k = 1; k < run.size(); ++k)
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i] != part) continue;
      const double e = run[k](Eigen::Index(i)) - reference[k](Eigen::Index(i));
      sum += e * e;
      max = std::max(max, std::abs(e));
      if (!std::isfinite(e)) max = e;  // NaN/Inf is not hidden by std::max
    }
  return {std::sqrt(sum / (double(run.size() - 1) * double(members))), max};
}
}  // namespace

TrajectoryErrors trajectory_errors(const std::vector<Eigen::VectorXd>& run, const std::vector<Eigen::VectorXd>& reference,
                                   const std::vector<PhysicalPart>& parts) {
  if (run.size() != reference.size())
    throw std::invalid_argument("trajectory errors: " + std::to_string(run.size()) + " samples against " +
                                std::to_string(reference.size()) + " of the reference");
  for (size_t k = 0; k < run.size(); ++k)
    if (size_t(run[k].size()) != parts.size() || size_t(reference[k].size()) != parts.size())
      throw std::invalid_argument("trajectory errors: sample " + std::to_string(k) + " has " +
                                  std::to_string(run[k].size()) + " numbers, the reference " +
                                  std::to_string(reference[k].size()) + ", the model's physical state " +
                                  std::to_string(parts.size()));
  return {norms_of(run, reference, parts, PhysicalPart::Configuration), norms_of(run, reference, parts, PhysicalPart::Rate)};
}

}  // namespace tb
