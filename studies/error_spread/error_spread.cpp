#include "studies/error_spread/error_spread.hpp"
#include "app/common/run_label_parts.hpp"

#include <filesystem>
#include <list>

#include "app/input/catalogue.hpp"
#include "app/running/job_result.hpp"
#include "app/running/runner.hpp"
#include "app/writing/summary.hpp"
#include "core/format.hpp"
#include "core/model_variant.hpp"
#include "core/table_reader.hpp"
#include "core/table_reader_toml.hpp"
#include "studies/section_readers.hpp"
#include "studies/sweep_study.hpp"

namespace tb {

std::shared_ptr<const StudySection> ErrorSpread::restricted(const std::function<bool(const std::string&)>& runs) const {
  auto kept = std::make_shared<ErrorSpread>(*this);
  kept->runs.clear();
  for (const auto& label : this->runs)
    if (runs(integrator_of_label(label))) kept->runs.push_back(label);
  if (kept->runs.empty()) return nullptr;
  return kept;
}

namespace {

// [report.error_spread], read when the case is loaded (StudyInfo::read_section).
std::shared_ptr<const StudySection> read_error_spread(TableReader& table, const SectionInputs& in) {
  const Case& c = in.c;
  const Catalogue& catalogue = in.catalogue;
  ErrorSpread spread;
  std::vector<std::string> labels;
  for (const auto& i : catalogue.integrators) {
    labels.push_back(i.name);
    for (const auto& d : c.model->discretisations())  // as run_label names them (app/running/runner.hpp)
      if (d != c.model->default_discretisation()) labels.push_back(i.name + "@" + d);
  }
  spread.runs = table.string_list_or_empty("runs", labels);
  if (spread.runs.empty()) table.fail("runs", "a non-empty array of the case's runs (integrator or integrator@discretisation)", "none");
  spread.parameter = table.one_of("parameter", numeric_model_keys(toml_table(in.model)));
  const bool integer = integer_model_key(toml_table(in.model), spread.parameter);
  if (!integer) spread.case_value = toml_table(in.model).at(spread.parameter).as_floating();
  if (integer) table.fail("parameter", "a real-valued [model] key (a round-off change of an integer is none)", spread.parameter);
  spread.values = table.positive_list("values");
  spread.models = model_variants(table, in, spread.parameter, spread.values);
  return std::make_shared<ErrorSpread>(std::move(spread));
}

// One run again: a named full run of the case, with the [model] key at one nearby value.
struct SpreadPoint {
  RunKey key;
  double value = 0.0;
  SummaryRow row;
};

class ErrorSpreadStudy final : public SweepStudy<SpreadPoint, SummaryRow, &SpreadPoint::row> {
  using Point = SpreadPoint;

 protected:
  void add_points(const Case& c, const StudyContext& context, std::vector<Point>& points) override {
    const ErrorSpread& spread = *c.section<ErrorSpread>();
    const std::vector<RunKey> keys = runs_of(c, context.catalogue->integrators);
    for (const std::string& label : spread.runs) {
      const RunKey* key = nullptr;
      for (const auto& k : keys)
        if (k.label() == label) key = &k;
      // Refused before anything runs: a run the case does not make has no full run to compare.
      if (!key)
        throw InputError(c.file + ": key 'report.error_spread.runs': expected runs of case " + c.name + ", got '" + label + "'");
      if (const auto why = why_not_applicable(c, *key->integrator, key->discretisation))
        throw InputError(c.file + ": key 'report.error_spread.runs': expected runs of case " + c.name + ", got '" + label +
                         "' (" + *why + ")");
      for (size_t v = 0; v < spread.values.size(); ++v) {
        Case& variant = variants_.emplace_back(c);
        variant.model = spread.models[v];
        Point& point = points.emplace_back();
        point.key = RunKey{&variant, key->integrator, key->discretisation};
        point.value = spread.values[v];
      }
    }
  }

  RunRequest request_of(const Point& p) const override {
    return full_run_request(p.key, RunOptions::untimed());  // no time series: the full run has it
  }

  Job job_of(const Point& p, const RunRequest& request) const override {
    const Case& c = *p.key.c;
    const ErrorSpread& spread = *c.section<ErrorSpread>();
    // The [model] value beside the request: the variant's identity is the case file's.
    return {c.name + " | " + p.key.label() + " | model." + spread.parameter + " = " + format_g(p.value, 17) + " (error spread)",
            request.t_end() / request.h(), {{"model." + spread.parameter, exact(p.value)}}};
  }

  std::vector<std::string> write_files(const std::filesystem::path& dir, const std::vector<Point>& points) const override {
    std::vector<SummaryRow> rows;
    std::vector<std::vector<std::string>> extra;
    for (const auto& p : points) {
      const ErrorSpread& spread = *p.key.c->section<ErrorSpread>();
      rows.push_back(p.row);
      extra.push_back({spread.parameter, format_g(p.value, 17), format_g(spread.case_value, 17)});
    }
    const std::string path = (dir / "error_spread.csv").string();
    write_summary_csv(path, rows, {"parameter", "value", "case_value"}, extra);
    return {path};
  }

 private:
  std::list<Case> variants_;  // the runs' cases (stable addresses)
};

}  // namespace

StudyInfo error_spread_study() {
  StudyInfo info{"error_spread",
          "named full runs again with one [model] key moved by round-off ([report.error_spread]): how far such a change moves "
          "their errors over the horizon, the resolution of the recommendation's error comparisons",
          "error_spread.csv",
          true,
          {},
          why_not_without_table<ErrorSpread>,
          [] { return std::make_unique<ErrorSpreadStudy>(); },
          read_error_spread};
  info.read_back = read_error_spread_back;
  return info;
}

}  // namespace tb
