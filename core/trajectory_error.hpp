#pragma once
// Trajectory error norms of the work-precision study (after DiffEqDevTools, which records the
// final error, an L2 and an L-infinity error over the saved time points, and the time).
//
// A run's physical state x_k and the reference's x*_k on the grid t_k = k * interval,
// k = 0..K (K * interval = reference_t_end); e_k = x_k - x*_k restricted to one part P of the
// physical state (configuration: positions, R, directions; or rates: velocities, Omega, omega;
// Model::physical_parts), absolute, in the state's own units (as the final-state error):
//
//   L-infinity:  max_{k = 1..K} max_{i in P} |e_{k,i}|
//   L2:          sqrt( 1/(K |P|) sum_{k = 1..K} sum_{i in P} e_{k,i}^2 )
//
// L2 is the root mean square over the grid and over the part's components: the right-endpoint
// Riemann sum of (1/T) int_0^T |e(t)|^2 dt / |P| (DiffEqDevTools' l2). k = 0 (the initial state,
// shared by every run) is left out of both.

#include <Eigen/Dense>
#include <vector>

#include "core/model.hpp"

namespace tb {

struct TrajectoryNorms {
  double l2 = 0.0, linf = 0.0;
};
struct TrajectoryErrors {
  TrajectoryNorms configuration, rate;
};

// run and reference: K + 1 states each, of the size of `parts`. std::invalid_argument on
// mismatched sizes; NaN norms for a part with no entries.
TrajectoryErrors trajectory_errors(const std::vector<Eigen::VectorXd>& run, const std::vector<Eigen::VectorXd>& reference,
                                   const std::vector<PhysicalPart>& parts);

}  // namespace tb
