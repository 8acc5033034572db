#include "app/running/reference.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "app/input/catalogue.hpp"
#include "app/common/data_paths.hpp"
#include "app/common/fingerprint.hpp"
#include "app/common/reference_search.hpp"
#include "core/format.hpp"
#include "app/input/reference_data.hpp"
#include "app/running/runner.hpp"

namespace tb {

namespace fs = std::filesystem;

namespace {
bool same_folder(const std::string& a, const std::string& b) {
  std::error_code ec;
  return !a.empty() && !b.empty() && fs::equivalent(a, b, ec);
}
// " (case C's references are taken from DIR; searched A, then the bundled B)": where a
// missing or stale file of the case was looked for, and why that folder.
std::string taken_from(const ReferenceSearch& search, const std::string& dir) {
  if (search.folders().size() < 2) return "";
  return " (taken from " + dir + ", the first folder holding the case's folder; " + search.searched() + ")";
}
}  // namespace

ReferenceSearch ReferenceSearch::only(const std::string& dir) {
  ReferenceSearch s;
  s.user = {dir};
  return s;
}

std::vector<std::string> ReferenceSearch::folders() const {
  std::vector<std::string> out = user;
  if (!bundled.empty()) out.push_back(bundled);
  return out;
}

std::string ReferenceSearch::folder_for(const Case& c) const {
  std::error_code ec;
  for (const auto& dir : folders())
    if (fs::is_directory(fs::path(dir) / c.name, ec)) return dir;
  return "";
}

std::string ReferenceSearch::searched() const {
  std::string out;
  for (size_t i = 0; i < user.size(); ++i) out += (i ? ", " : "") + user[i];
  if (!bundled.empty()) out += (out.empty() ? "" : ", then ") + std::string("the bundled ") + bundled;
  return "searched " + out;
}

std::string ReferenceSearch::remake_hint(const Case& c) const {
  // Into the folder the case's references came from when it is the user's; into the bundled
  // folder only for a bundled case of a source checkout (a contributor's, committed); else into
  // the user's first folder, or a new one the report is then pointed at. Never into an
  // installation.
  const std::string used = folder_for(c);
  std::error_code ec;
  const bool bundled_case =
      bundled_in_checkout && same_folder(fs::path(c.file).parent_path().string(), (fs::path(bundled).parent_path() / "cases").string());
  std::string out;
  bool point_report = false;
  if (!used.empty() && !same_folder(used, bundled)) out = used;
  else if (bundled_case) out = bundled;
  else
    for (const auto& dir : user)
      if (out.empty() && !same_folder(dir, bundled)) out = dir;
  if (out.empty()) out = "my_reference", point_report = true;
  const auto plugin = model_plugins.find(c.model_name);
  const std::string load = plugin == model_plugins.end() ? "" : " --plugin " + plugin->second;
  return " (make it with `tetherbench" + load + " reference " + c.file + " --out " + out + "`" +
         (point_report ? ", then give the report --reference-dir " + out : "") + ")";
}

IntegratorSettings reference_settings(const IntegratorInfo& solver, const Formulation& form, double initial_step) {
  IntegratorSettings s = IntegratorSettings::defaults(solver.settings, initial_step);
  s.set_tolerances({kReferenceRtol, kReferenceAtol});
  // A model with kinks (switching functions: a tension-only cable): the reference stops at each
  // (an error estimate that steps across one passes with an O(h^3) error).
  if (s.declares(kLocateEventsKey) && form.switching_count() > 0) s.set(kLocateEventsKey, 1.0);
  return s;
}

ReferenceRun compute_reference(const IntegratorInfo& solver, const Model& model, const std::string& discretisation,
                               double t_end, double initial_step) {
  std::string why_not;
  auto form = model.make_formulation(FormulationKind::EmbeddedOde, discretisation, why_not);
  if (!form) throw std::runtime_error("no reference solution: " + why_not);
  const IntegratorSettings s = reference_settings(solver, *form, initial_step);
  ReferenceRun run;
  run.outcome = integrate(*form, solver, s, t_end, t_end, {});
  if (!run.outcome.ok()) throw std::runtime_error("reference run failed: " + run.outcome.outcome.describe());
  run.physical = form->physical_state(run.outcome.final_state);
  return run;
}

StateTrajectory compute_reference_trajectory(const IntegratorInfo& solver, const Model& model,
                                             const std::string& discretisation, double t_end, double interval,
                                             double initial_step) {
  std::string why_not;
  auto form = model.make_formulation(FormulationKind::EmbeddedOde, discretisation, why_not);
  if (!form) throw std::runtime_error("no reference trajectory: " + why_not);
  const IntegratorSettings s = reference_settings(solver, *form, initial_step);
  const long samples = std::lround(t_end / interval);
  if (samples < 1 || std::abs(double(samples) * interval - t_end) > 1e-9 * t_end)
    throw std::logic_error("trajectory interval " + format_g(interval) + " does not divide " + format_g(t_end));
  auto stepper = solver.make(*form, s, 0.0);
  StateTrajectory out;
  out.interval = interval;
  out.states.push_back(form->physical_state(stepper->state()));
  for (long k = 1; k <= samples; ++k) {
    // The grid time itself (the last one is t_end exactly), reached by stepping with t_stop on it.
    const double t_k = k == samples ? t_end : double(k) * interval;
    while (stepper->time() < t_k) {
      StepFailure failure;
      if (!stepper->step(t_k, failure))
        throw std::runtime_error("reference trajectory run failed at t = " + format_g(stepper->time()) + " s: " +
                                 failure.reason);
    }
    out.states.push_back(form->physical_state(stepper->state()));
  }
  return out;
}

std::vector<std::string> reference_discretisations(const Case& c) {
  std::vector<std::string> out;
  for (const auto& d : c.model->discretisations()) {
    std::string why_not;
    if (c.model->offers(FormulationKind::EmbeddedOde, d, why_not)) out.push_back(d);
  }
  return out;
}

std::string reference_path(const std::string& dir, const Case& c, const std::string& discretisation, ReferenceRole role) {
  const std::string file = discretisation == c.model->default_discretisation() ? "final_state.csv"
                                                                               : "final_state_" + discretisation + ".csv";
  const fs::path folder = fs::path(dir) / c.name;
  return (role == ReferenceRole::Reference ? folder / file : folder / "crosscheck" / file).string();
}

std::string reference_fingerprint(const Case& c, const std::string& discretisation, const IntegratorInfo& solver) {
  return fingerprint_of(c.model_inputs + ";reference_t_end=" + format_g(c.report.reference_t_end, 17) +
                        ";discretisation=" + discretisation + ";formulation=" + to_string(FormulationKind::EmbeddedOde) +
                        ";solver=" + solver.name + ";rtol=" + format_g(kReferenceRtol, 17) +
                        ";atol=" + format_g(kReferenceAtol, 17));
}

std::string reference_trajectory_path(const std::string& dir, const Case& c, const std::string& discretisation,
                                      ReferenceRole role) {
  const std::string file = discretisation == c.model->default_discretisation() ? "trajectory.bin"
                                                                               : "trajectory_" + discretisation + ".bin";
  const fs::path folder = fs::path(dir) / c.name;
  return (role == ReferenceRole::Reference ? folder / file : folder / "crosscheck" / file).string();
}

std::string reference_trajectory_fingerprint(const Case& c, const std::string& discretisation, const IntegratorInfo& solver) {
  return fingerprint_of(reference_fingerprint(c, discretisation, solver) +
                        ";trajectory_interval=" + format_g(c.report.trajectory_interval, 17));
}

std::vector<std::string> write_references(const std::vector<Case>& cases, const Catalogue& catalogue,
                                          const std::string& reference_dir, const std::string& command) {
  std::vector<std::string> written;
  const std::pair<ReferenceRole, const IntegratorInfo*> solvers[] = {{ReferenceRole::Reference, &catalogue.reference()},
                                                                     {ReferenceRole::CrossCheck, &catalogue.crosscheck()}};
  for (const auto& c : cases)
    for (const auto& d : reference_discretisations(c))
      for (const auto& [role, solver] : solvers) {
        const ReferenceRun run = compute_reference(*solver, *c.model, d, c.report.reference_t_end, c.h);
        const std::string what = (role == ReferenceRole::Reference ? "Reference solution" : "Cross-check of the reference") +
                                 std::string(" of case ") + c.name + (d.empty() ? "" : " (" + d + " discretisation)");
        const std::string provenance = what + ": physical state at t = " + format_g(c.report.reference_t_end) +
                                       " s from " + solver->name + " at rtol " + format_g(kReferenceRtol) + ", atol " +
                                       format_g(kReferenceAtol) + ", " + std::to_string(run.outcome.counters.steps) +
                                       " steps; made " + utc_now() + " by `" + command + "`";
        const std::string path = reference_path(reference_dir, c, d, role);
        write_reference_state(path, run.physical, provenance, reference_fingerprint(c, d, *solver));
        written.push_back(path);
        const StateTrajectory trajectory = compute_reference_trajectory(
            *solver, *c.model, d, c.report.reference_t_end, c.report.trajectory_interval, c.h);
        const std::string trajectory_path = reference_trajectory_path(reference_dir, c, d, role);
        write_reference_trajectory(trajectory_path, trajectory,
                                   what + ": physical state every " + format_g(c.report.trajectory_interval) +
                                       " s from t = 0 to " + format_g(c.report.reference_t_end) + " s from " +
                                       solver->name + " at rtol " + format_g(kReferenceRtol) + ", atol " +
                                       format_g(kReferenceAtol) + " (each grid time stepped onto); made " + utc_now() +
                                       " by `" + command + "`",
                                   reference_trajectory_fingerprint(c, d, *solver));
        written.push_back(trajectory_path);
        if (!c.report.ranking) continue;
        const RankingSweep& r = *c.report.ranking;
        const StateTrajectory ranking = compute_reference_trajectory(*solver, *c.model, d, r.t_end, r.interval, c.h);
        const std::string ranking_path = ranking_trajectory_path(reference_dir, c, d, role);
        write_reference_trajectory(ranking_path, ranking,
                                   what + " for the rankings ([report.ranking]): physical state every " +
                                       format_g(r.interval) + " s from t = 0 to " + format_g(r.t_end) + " s from " +
                                       solver->name + " at rtol " + format_g(kReferenceRtol) + ", atol " +
                                       format_g(kReferenceAtol) + " (each grid time stepped onto); made " + utc_now() +
                                       " by `" + command + "`",
                                   ranking_trajectory_fingerprint(c, d, *solver));
        written.push_back(ranking_path);
      }
  return written;
}

std::string case_reference_folder(const Case& c, const ReferenceSearch& search) {
  const std::string dir = search.folder_for(c);
  if (dir.empty())
    throw InputError(c.file + ": missing reference solutions of case " + c.name + ": no folder " + c.name + "/ in any reference folder (" +
                     search.searched() + ")" + search.remake_hint(c));
  return dir;
}

std::string ranking_trajectory_path(const std::string& dir, const Case& c, const std::string& discretisation,
                                    ReferenceRole role) {
  const std::string file = discretisation == c.model->default_discretisation()
                               ? "ranking_trajectory.bin"
                               : "ranking_trajectory_" + discretisation + ".bin";
  const fs::path folder = fs::path(dir) / c.name;
  return (role == ReferenceRole::Reference ? folder / file : folder / "crosscheck" / file).string();
}

std::string ranking_trajectory_fingerprint(const Case& c, const std::string& discretisation, const IntegratorInfo& solver) {
  const double t_end = c.report.ranking ? c.report.ranking->t_end : 0.0;
  const double interval = c.report.ranking ? c.report.ranking->interval : 0.0;
  return fingerprint_of(c.model_inputs + ";ranking_t_end=" + format_g(t_end, 17) + ";discretisation=" + discretisation +
                        ";formulation=" + to_string(FormulationKind::EmbeddedOde) + ";solver=" + solver.name +
                        ";rtol=" + format_g(kReferenceRtol, 17) + ";atol=" + format_g(kReferenceAtol, 17) +
                        ";trajectory_interval=" + format_g(interval, 17));
}

std::map<std::string, StateTrajectory> read_ranking_trajectories(const Case& c, const ReferenceSearch& search,
                                                                 const IntegratorInfo& solver, ReferenceRole role) {
  std::map<std::string, StateTrajectory> out;
  if (!c.report.ranking) return out;
  const std::string reference_dir = case_reference_folder(c, search);
  const RankingSweep& r = *c.report.ranking;
  for (const auto& d : reference_discretisations(c)) {
    const std::string path = ranking_trajectory_path(reference_dir, c, d, role);
    const std::string remake = taken_from(search, reference_dir) + search.remake_hint(c);
    if (!fs::exists(path)) throw InputError(path + ": missing ranking reference trajectory for case " + c.name + remake);
    const std::string stored = read_reference_fingerprint(path), expected = ranking_trajectory_fingerprint(c, d, solver);
    if (stored != expected)
      throw InputError(path + ": stale ranking reference trajectory for case " + c.name + ": its fingerprint " +
                       (stored.empty() ? std::string("is missing") : stored) + ", the case's inputs give " + expected +
                       " (the model, initial condition, [report.ranking] t_end or interval, discretisation or solver "
                       "changed)" + remake);
    StateTrajectory t = read_reference_trajectory(path);
    const long samples = std::lround(r.t_end / r.interval) + 1;
    if (long(t.states.size()) != samples || t.interval != r.interval)
      throw InputError(path + ": expected " + std::to_string(samples) + " samples every " + format_g(r.interval) +
                       " s, got " + std::to_string(t.states.size()) + " every " + format_g(t.interval) + " s" + remake);
    out[d] = std::move(t);
  }
  return out;
}

std::map<std::string, Eigen::VectorXd> read_references(const Case& c, const ReferenceSearch& search,
                                                       const IntegratorInfo& solver, ReferenceRole role) {
  std::map<std::string, Eigen::VectorXd> out;
  const std::string reference_dir = case_reference_folder(c, search);
  for (const auto& d : reference_discretisations(c)) {
    const std::string path = reference_path(reference_dir, c, d, role);
    const std::string remake = taken_from(search, reference_dir) + search.remake_hint(c);
    if (!fs::exists(path)) throw InputError(path + ": missing reference solution for case " + c.name + remake);
    const std::string stored = read_reference_fingerprint(path), expected = reference_fingerprint(c, d, solver);
    if (stored != expected)
      throw InputError(path + ": stale reference solution for case " + c.name + ": its fingerprint " +
                       (stored.empty() ? std::string("is missing") : stored) + ", the case's inputs give " + expected +
                       " (the model, initial condition, reference_t_end, discretisation or solver changed)" + remake);
    out[d] = read_reference_state(path);
  }
  return out;
}

std::map<std::string, StateTrajectory> read_reference_trajectories(const Case& c, const ReferenceSearch& search,
                                                                   const IntegratorInfo& solver, ReferenceRole role) {
  std::map<std::string, StateTrajectory> out;
  const std::string reference_dir = case_reference_folder(c, search);
  for (const auto& d : reference_discretisations(c)) {
    const std::string path = reference_trajectory_path(reference_dir, c, d, role);
    const std::string remake = taken_from(search, reference_dir) + search.remake_hint(c);
    if (!fs::exists(path)) throw InputError(path + ": missing reference trajectory for case " + c.name + remake);
    const std::string stored = read_reference_fingerprint(path), expected = reference_trajectory_fingerprint(c, d, solver);
    if (stored != expected)
      throw InputError(path + ": stale reference trajectory for case " + c.name + ": its fingerprint " +
                       (stored.empty() ? std::string("is missing") : stored) + ", the case's inputs give " + expected +
                       " (the model, initial condition, reference_t_end, trajectory_interval, discretisation or solver "
                       "changed)" + remake);
    StateTrajectory t = read_reference_trajectory(path);
    const long samples = std::lround(c.report.reference_t_end / c.report.trajectory_interval) + 1;
    if (long(t.states.size()) != samples || t.interval != c.report.trajectory_interval)
      throw InputError(path + ": expected " + std::to_string(samples) + " samples every " +
                       format_g(c.report.trajectory_interval) + " s, got " + std::to_string(t.states.size()) +
                       " every " + format_g(t.interval) + " s" + remake);
    out[d] = std::move(t);
  }
  return out;
}

std::map<std::string, Eigen::VectorXd> read_references(const Case& c, const std::string& reference_dir,
                                                       const IntegratorInfo& solver, ReferenceRole role) {
  return read_references(c, ReferenceSearch::only(reference_dir), solver, role);
}
std::map<std::string, StateTrajectory> read_reference_trajectories(const Case& c, const std::string& reference_dir,
                                                                   const IntegratorInfo& solver, ReferenceRole role) {
  return read_reference_trajectories(c, ReferenceSearch::only(reference_dir), solver, role);
}
std::map<std::string, StateTrajectory> read_ranking_trajectories(const Case& c, const std::string& reference_dir,
                                                                 const IntegratorInfo& solver, ReferenceRole role) {
  return read_ranking_trajectories(c, ReferenceSearch::only(reference_dir), solver, role);
}

ReferenceSearch reference_search(const std::vector<std::string>& dirs, const DataPaths& data, const Catalogue& catalogue) {
  ReferenceSearch search;
  for (const auto& dir : dirs) {
    if (std::find(search.user.begin(), search.user.end(), dir) != search.user.end())
      throw InputError("--reference-dir " + dir + ": given twice; expected each folder once");
    if (dir.empty() || !std::filesystem::is_directory(dir))
      throw InputError("--reference-dir " + dir + ": expected an existing folder of reference solutions "
                       "(written by `tetherbench reference --out DIR`)");
    search.user.push_back(dir);
  }
  search.bundled = data.reference;
  search.bundled_in_checkout = data.reference_in_checkout;
  for (const auto& p : catalogue.plugins)
    for (const auto& entry : p.entries)
      if (entry.rfind("model ", 0) == 0) search.model_plugins[entry.substr(6)] = p.file;
  return search;
}

}  // namespace tb
