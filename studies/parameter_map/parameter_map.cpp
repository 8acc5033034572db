#include "app/common/csv_table.hpp"
#include "studies/parameter_map/parameter_map.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <list>

#include "app/input/catalogue.hpp"
#include "core/format.hpp"
#include "core/model_variant.hpp"
#include "core/table_reader.hpp"
#include "core/table_reader_toml.hpp"
#include "studies/section_readers.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::shared_ptr<const StudySection> ParameterMap::restricted(const std::function<bool(const std::string&)>& runs) const {
  if (!runs(integrator)) return nullptr;
  auto kept = std::make_shared<ParameterMap>(*this);
  if (!kept->compare_with.empty() && !runs(kept->compare_with)) kept->compare_with.clear();
  return kept;
}

namespace {

// [report.parameter_map], read when the case is loaded (StudyInfo::read_section).
std::shared_ptr<const StudySection> read_parameter_map(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  ParameterMap map;
  const IntegratorInfo& info = read_integrator(table, "integrator", in);
  map.integrator = info.name;
  refuse_unless_it_runs_the_case(table, "integrator", in, info);
  if (info.adaptive) table.fail("integrator", "a fixed-step integrator (the map is over h)", "'" + map.integrator + "'");
  if (table.has("compare_with")) {
    const IntegratorInfo& other = read_integrator(table, "compare_with", in);
    map.compare_with = other.name;
    refuse_unless_it_runs_the_case(table, "compare_with", in, other);
    if (other.adaptive)
      table.fail("compare_with", "a fixed-step integrator (the map is over h)", "'" + map.compare_with + "'");
    if (map.compare_with == map.integrator)
      table.fail("compare_with", "an integrator other than 'integrator'", "'" + map.compare_with + "'");
    // Its failures are read as the method's limit only if it solves the same discrete equations by
    // other means. That is the case's premise (the suite cannot prove it: a variational Lie group
    // integrator and a SHAKE-type one consume different forms and may still share them), but two methods
    // of different declared order, symmetry or symplecticity provably do not.
    auto shape = [](const IntegratorInfo& i) {
      return "order " + std::to_string(i.order) + (i.traits.symmetric ? ", symmetric" : ", not symmetric") +
             (i.traits.symplectic ? ", symplectic" : ", not symplectic");
    };
    if (shape(other) != shape(info))
      table.fail("compare_with",
                  "an integrator that can solve the same discrete equations as '" + map.integrator + "' (" + shape(info) +
                      ")",
                  "'" + map.compare_with + "' (" + shape(other) + ")");
  }
  map.parameter = table.one_of("parameter", numeric_model_keys(toml_table(in.model)));
  map.values = table.positive_list("values");
  map.steps = table.positive_list("steps");
  map.t_end = table.positive_or("t_end", c.t_end);
  for (double h : map.steps)
    if (h > map.t_end) table.fail("steps", "steps no longer than t_end = " + format_g(map.t_end), format_g(h));
  const bool integer = integer_model_key(toml_table(in.model), map.parameter);
  for (double v : map.values)
    if (integer && v != std::floor(v)) table.fail("values", "integers, like [model] " + map.parameter, format_g(v));
  map.models = model_variants(table, in, map.parameter, map.values);
  return std::make_shared<ParameterMap>(std::move(map));
}

// One run of the map: an integrator on the case's variant at one value of the parameter, at one h.
struct MapPoint {
  const Case* original;
  const Case* variant;
  const IntegratorInfo* integrator;
  double value, h;
  Measurement measured;
};

class ParameterMapStudy final : public SweepStudy<MapPoint> {
  using Point = MapPoint;

 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) override {
    const ParameterMap& map = *c.section<ParameterMap>();
    std::vector<const IntegratorInfo*> integrators = {context.catalogue->find_integrator(map.integrator)};
    if (!map.compare_with.empty()) integrators.push_back(context.catalogue->find_integrator(map.compare_with));
    for (const IntegratorInfo* info : integrators) {
      for (std::size_t i = 0; i < map.values.size(); ++i) {
        // The case with the one [model] value changed: everything else (initial condition,
        // settings, sampling) is the case's.
        for (double h : map.steps) {
          Case& variant = variants_.emplace_back(c);
          variant.model = map.models[i];
          variant.h = h;
          points.push_back({&c, &variant, info, map.values[i], h, {}});
        }
      }
    }
  }

  RunRequest request_of(const Point& p) const override {
    const ParameterMap& map = *p.original->section<ParameterMap>();
    RunRequest request{RunKey{p.variant, p.integrator, p.variant->model->default_discretisation()},
                       p.variant->settings_for(p.integrator->name), {}};
    request.settings.h = p.h;
    request.measure.t_end = map.t_end;
    request.measure.sample_interval = std::min(p.variant->sample_interval, map.t_end);
    return request;
  }

  Job job_of(const Point& p, const RunRequest& request) const override {
    const ParameterMap& map = *p.original->section<ParameterMap>();
    // The variant differs from the case only in the mapped parameter and h, both in the label; the
    // parameter's value beside the request (the variant's identity is the case file's).
    return {p.original->name + " | " + p.integrator->name + " | " + map.parameter + " = " + format_g(p.value, 3) +
                ", h = " + format_g(p.h, 3),
            request.t_end() / request.h(), {{map.parameter, exact(p.value)}}};
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override {
    std::ofstream csv(dir / "parameter_map.csv");
    csv << "case,integrator,parameter,value,h,t_end,completes,t_reached,steps,newton_iters_per_step,energy_err_max,"
           "runtime_s,status,host\n";
    for (const auto& p : points) {
      const ParameterMap& map = *p.original->section<ParameterMap>();
      const bool ok = p.measured.outcome.ok();
      const auto& n = p.measured.counters;
      const double t_reached = ok ? map.t_end : p.measured.outcome.t;
      auto result = [&](double x) { return ok ? format_g(x, 4) : std::string(); };
      const std::string its = n.steps > 0 && n.newton_iters > 0 ? format_g(double(n.newton_iters) / n.steps, 4) : "";
      csv << p.original->name << ',' << p.integrator->name << ',' << map.parameter << ',' << format_g(p.value, 6) << ','
          << format_g(p.h, 6) << ',' << format_g(map.t_end, 6) << ',' << (ok ? "yes" : "no") << ','
          << format_g(t_reached, 6) << ',' << n.steps << ',' << its << ',' << result(p.measured.metrics.energy_err_max)
          << ',' << result(p.measured.runtime_s) << ',' << csv_quoted(p.measured.outcome.describe()) << ','
          << (ok ? p.measured.host : "") << '\n';
    }
    std::ofstream md(dir / "parameter_map.md");
    md << "# Parameter maps\n\nWhere each method completes the case, run to the map's t_end, against one model "
          "parameter and the step h ([report.parameter_map] of the case). A cell is `ok (Newton iterations per step, "
          "max |dE|)` or the failure: when and why, in full in parameter_map.csv. Where the map names a second "
          "integrator that solves the same discrete equations by other means (compare_with), each failure of the "
          "first says whether the second fails there too (the discrete equations' limit: no solution there, an "
          "unstable step, or a conditioning that both solvers' Newton iterations share, which neither measures) or completes (the first solver's limit, not the method's), "
          "and the second's own map follows. That the two share their discrete equations is the case's premise: "
          "the suite checks only that their declared order, symmetry and symplecticity agree.\n";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Point& p = points[i];
      const ParameterMap& map = *p.original->section<ParameterMap>();
      if (i == 0 || p.original != points[i - 1].original || p.integrator != points[i - 1].integrator) {
        md << "\n## " << p.original->name << ": " << p.integrator->name << " over " << format_g(map.t_end) << " s\n\n| "
           << map.parameter << " |";
        for (double h : map.steps) md << " h = " << format_g(h, 3) << " |";
        md << "\n|---|";
        for (std::size_t k = 0; k < map.steps.size(); ++k) md << "---|";
        md << '\n';
      }
      if (p.h == map.steps.front()) md << "| " << format_g(p.value, 3) << " |";
      md << ' ' << cell(p);
      const Point* other = comparison_of(p, points);
      if (other && !p.measured.outcome.ok())
        md << (other->measured.outcome.ok()
                   ? " — **" + other->integrator->name + " completes here: this solver's limit, not the method's**"
                   : " — " + other->integrator->name + " fails here too: a limit of the discrete equations both "
                         "solve (the case's premise) or of their conditioning, which neither solver measures");
      md << " |";
      if (p.h == map.steps.back()) md << '\n';
    }
    return {(dir / "parameter_map.csv").string(), (dir / "parameter_map.md").string()};
  }

 private:
  // The same (case, value, h) run by the map's compare_with integrator, for a point of its
  // first integrator; nullptr otherwise.
  static const Point* comparison_of(const Point& p, const std::vector<Point>& points) {
    const ParameterMap& map = *p.original->section<ParameterMap>();
    if (map.compare_with.empty() || p.integrator->name != map.integrator) return nullptr;
    for (const Point& q : points)
      if (q.original == p.original && q.integrator->name == map.compare_with && q.value == p.value && q.h == p.h)
        return &q;
    return nullptr;
  }

  static std::string cell(const Point& p) {
    const auto& o = p.measured.outcome;
    const auto& n = p.measured.counters;
    if (o.ok()) {
      std::string s = "ok (";
      if (n.newton_iters > 0) s += format_g(double(n.newton_iters) / n.steps, 3) + " it, ";
      return s + "\\|dE\\| " + format_g(p.measured.metrics.energy_err_max, 2) + ")";
    }
    std::string why = o.reason;
    for (char& ch : why)
      if (ch == '|') ch = '/';
    if (o.unstable()) return "**" + std::string(o.word()) + "** (" + why + ")" + stability_words(p);
    return std::string(o.diverged ? "**unstable**" : "**fails**") + " at t = " + format_g(o.t, 3) + " s, step " +
           std::to_string(o.step) + ": " + why + stability_words(p);
  }

  // A failure's h against the variant's fastest linearised frequency (Model::max_frequency; the
  // third referee read: lighter links stiffen the cable, omega_max ~ m^(-1/2), and the same
  // failures in the stability map sit at the method's stability limit). Beyond the method's
  // declared y* (MethodTraits::imaginary_axis_bound) even at rest, the step is outside its
  // stability interval, where the discrete equations of a variational step lose their solution
  // near the state: that, not conditioning, is then the first cause to suspect.
  static std::string stability_words(const Point& p) {
    const auto omega = p.variant->model->max_frequency(p.variant->model->default_discretisation());
    if (!omega) return "";
    const double y = p.h * *omega, y_star = p.integrator->traits.imaginary_axis_bound;
    std::string out = " [h omega_max = " + format_g(y, 3);
    if (std::isfinite(y_star) && y > y_star)
      out += ", above the method's y* = " + format_g(y_star, 3) + " already about rest: outside its stability interval";
    return out + "]";
  }

  std::list<Case> variants_;  // stable addresses: the points refer to them
};

}  // namespace

StudyInfo parameter_map_study() {
  StudyInfo info{"parameter_map",
          "one fixed-step integrator (and the one it is compared with) over the case for every (model parameter "
          "value, h) of [report.parameter_map]: completes, or fails with when and why",
          "parameter_map.csv, parameter_map.md",
          false,
          {},
          why_not_without_table<ParameterMap>,
          [] { return std::make_unique<ParameterMapStudy>(); },
          read_parameter_map};
  info.pages = {{"parameter_map.md", "where the variational integrator completes"}};
  return info;
}

}  // namespace tb
