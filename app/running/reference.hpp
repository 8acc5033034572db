#pragma once
// Reference solutions: the physical state at a case's [report] reference_t_end from the
// catalogue's reference solver (an adaptive ODE integrator that is not compared) at
// kReferenceRtol/kReferenceAtol, one per discretisation the model offers as an ODE — the same
// semi-discrete system every formulation of that discretisation integrates. Stored in
// reference/<case>/ and read by the studies that measure errors. The catalogue's cross-check
// solver computes each one again (reference/<case>/crosscheck/): the two agree only to some
// level, and an error measured below that level is not resolved by the reference.

#include <map>
#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/reference_data.hpp"
#include "app/common/reference_search.hpp"
#include "app/input/run_records.hpp"

namespace tb {

constexpr double kReferenceRtol = 1e-13;
constexpr double kReferenceAtol = 1e-15;

// The settings a reference solver runs at: rtol/atol above, and events located where the
// solver can and the form has switching functions (core/switching.hpp).
IntegratorSettings reference_settings(const IntegratorInfo& solver, const Formulation& form, double initial_step);

struct ReferenceRun {
  IntegrationOutcome outcome;
  Eigen::VectorXd physical;  // the model's physical state at t_end
};
// Throws std::runtime_error when the model has no ODE form of that discretisation or the run fails.
ReferenceRun compute_reference(const IntegratorInfo& solver, const Model& model, const std::string& discretisation,
                               double t_end, double initial_step);

// Which of the two stored solutions: the reference, or the cross-check of it.
enum class ReferenceRole { Reference, CrossCheck };

// The discretisations of a case that have a reference (those offered as an ODE).
std::vector<std::string> reference_discretisations(const Case& c);
// reference/<case>/final_state.csv for the default discretisation, final_state_<d>.csv
// otherwise; the cross-check's in reference/<case>/crosscheck/.
std::string reference_path(const std::string& reference_dir, const Case& c, const std::string& discretisation,
                           ReferenceRole role = ReferenceRole::Reference);

// What a reference was computed from: the case's model inputs, the horizon, the
// discretisation and its ODE form, and the solver with its tolerances.
std::string reference_fingerprint(const Case& c, const std::string& discretisation, const IntegratorInfo& solver);

// Computes and writes every reference and cross-check of each case, final states and
// trajectories; returns the files written.
std::vector<std::string> write_references(const std::vector<Case>& cases, const Catalogue& catalogue,
                                          const std::string& reference_dir, const std::string& command);
// The folder case c's references are read from (ReferenceSearch::folder_for); InputError naming
// the case file, the folders searched and the command that makes them when none has them.
std::string case_reference_folder(const Case& c, const ReferenceSearch& search);
// Every stored reference of a case, by discretisation, from the first folder of `search` that
// has the case. InputError naming the file, the folders searched and the command that makes it
// when one is missing or was computed from other inputs (its fingerprint differs from the
// case's: a stale reference is never compared against). The overloads taking one folder search
// only it.
std::map<std::string, Eigen::VectorXd> read_references(const Case& c, const ReferenceSearch& search,
                                                       const IntegratorInfo& solver,
                                                       ReferenceRole role = ReferenceRole::Reference);
std::map<std::string, Eigen::VectorXd> read_references(const Case& c, const std::string& reference_dir,
                                                       const IntegratorInfo& solver,
                                                       ReferenceRole role = ReferenceRole::Reference);

// ---- Reference trajectories (the trajectory norms of the work-precision study) ----
// The same solver and tolerances on the same ODE form, stopped exactly at every time of the
// case's grid t_k = k * [report] trajectory_interval up to reference_t_end (its last step before
// each grid time is shortened to land there; the step it had chosen goes on after), storing the
// physical state there. Throws std::runtime_error like compute_reference.
StateTrajectory compute_reference_trajectory(const IntegratorInfo& solver, const Model& model,
                                             const std::string& discretisation, double t_end, double interval,
                                             double initial_step);
// reference/<case>/trajectory.bin, trajectory_<d>.bin; the cross-check's in crosscheck/.
std::string reference_trajectory_path(const std::string& reference_dir, const Case& c, const std::string& discretisation,
                                      ReferenceRole role = ReferenceRole::Reference);
// reference_fingerprint and the grid's spacing.
std::string reference_trajectory_fingerprint(const Case& c, const std::string& discretisation, const IntegratorInfo& solver);
// Every stored reference trajectory of a case, by discretisation; InputError like
// read_references when one is missing or stale.
std::map<std::string, StateTrajectory> read_reference_trajectories(const Case& c, const ReferenceSearch& search,
                                                                   const IntegratorInfo& solver,
                                                                   ReferenceRole role = ReferenceRole::Reference);
std::map<std::string, StateTrajectory> read_reference_trajectories(const Case& c, const std::string& reference_dir,
                                                                   const IntegratorInfo& solver,
                                                                   ReferenceRole role = ReferenceRole::Reference);

// ---- Reference trajectories of the rankings ([report.ranking], app/input/case.hpp RankingSweep) ----
// The same solver, tolerances and ODE form over the ranking's horizon and grid:
// reference/<case>/ranking_trajectory.bin, ranking_trajectory_<d>.bin (cross-check in crosscheck/),
// fingerprinted by the model inputs, that horizon and grid, the discretisation and the solver.
std::string ranking_trajectory_path(const std::string& reference_dir, const Case& c, const std::string& discretisation,
                                    ReferenceRole role = ReferenceRole::Reference);
std::string ranking_trajectory_fingerprint(const Case& c, const std::string& discretisation, const IntegratorInfo& solver);
// Every stored ranking trajectory of a case with [report.ranking], by discretisation; InputError
// like read_references when one is missing or stale.
std::map<std::string, StateTrajectory> read_ranking_trajectories(const Case& c, const ReferenceSearch& search,
                                                                 const IntegratorInfo& solver,
                                                                 ReferenceRole role = ReferenceRole::Reference);
std::map<std::string, StateTrajectory> read_ranking_trajectories(const Case& c, const std::string& reference_dir,
                                                                 const IntegratorInfo& solver,
                                                                 ReferenceRole role = ReferenceRole::Reference);

}  // namespace tb
