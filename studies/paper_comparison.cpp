#include "studies/paper_comparison.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <tuple>

#include "app/catalogue.hpp"
#include "core/format.hpp"
#include "app/gates.hpp"
#include "app/job_result.hpp"
#include "core/model_variant.hpp"
#include "app/reference_data.hpp"
#include "app/runner.hpp"
#include "core/table_reader.hpp"
#include "studies/paper_verdict.hpp"

namespace tb {

namespace {

// A Markdown table cell: '|' would end the cell.
std::string md_cell(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

// A CSV field, always quoted (RFC 4180: '"' doubled), so commas and quotes in the words are safe.
std::string csv_field(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

// The integrator and discretisation of a run label ("<integrator>[@<discretisation>]").
std::pair<std::string, std::string> split_run(const std::string& run) {
  const size_t at = run.find('@');
  return at == std::string::npos ? std::pair{run, std::string()} : std::pair{run.substr(0, at), run.substr(at + 1)};
}

class PaperComparison final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    path_ = (std::filesystem::path(context.reference_dir) / "paper_claims.csv").string();
    claims_ = read_paper_claims(path_);
    // Names that do not exist are errors of the file (exit status 2), whether or not the case runs here.
    auto bad = [&](const PaperClaim& c, const std::string& column, const std::string& expected, const std::string& got) {
      return InputError(path_ + ": claim '" + c.id + "', column '" + column + "': expected " + expected + ", got '" + got + "'");
    };
    const auto& metrics = metric_names();
    for (const auto& c : claims_) {
      for (const auto& run : {c.run, c.other_run})
        if (!run.empty() && !context.catalogue->find_integrator(split_run(run).first))
          throw bad(c, run == c.run ? "run" : "other_run", "an integrator of the catalogue (tetherbench list)", run);
      if (c.metric != "outcome" && std::find(metrics.begin(), metrics.end(), c.metric) == metrics.end())
        throw bad(c, "metric", "a metric name (summary.csv columns)", c.metric);
    }
    // A run a case of this report does not have (a mistyped discretisation) would never be judged.
    for (const auto& claim : claims_)
      for (const auto& [case_name, run, column] : {std::tuple{claim.case_name, claim.run, "run"},
                                                   std::tuple{claim.other_case, claim.other_run, "other_run"}}) {
        const Case* c = find_case(context, case_name);
        if (!c) continue;
        bool found = false;
        for (const auto& key : runs_of(*c, context.catalogue->integrators)) found = found || key.label() == run;
        if (!found) throw bad(claim, column, "a run of " + case_name + " (tetherbench list)", run);
      }
    // The extra runs the claims ask for: each sensitivity value, each longer horizon; once each.
    std::vector<StudyJob> jobs;
    for (const auto& claim : claims_) {
      const Case* c = find_case(context, claim.case_name);
      if (!c) continue;
      const auto [name, discretisation] = split_run(claim.run);
      const IntegratorInfo* info = context.catalogue->find_integrator(name);
      const std::string d = discretisation.empty() ? c->model->default_discretisation() : discretisation;
      for (double value : claim.sensitivity_values) {
        const std::string label = c->name + " | " + claim.run + " | " + claim.sensitivity_setting + " = " +
                                  format_g(value, 16) + " (paper claims)";
        if (!extra_.count(label)) {
          ExtraRun& e = extra_[label];
          e.key = RunKey{c, info, d};
          e.setting = claim.sensitivity_setting;
          e.value = value;
          e.t_end = c->t_end_for(info->name);
          e.case_value = sensitivity_variant(context, claim, e);
          jobs.push_back(extra_job(label, e));
        }
        sensitivity_of_[claim.id].push_back(&extra_.at(label));
      }
      if (claim.horizon > 0.0) {
        const std::string label = c->name + " | " + claim.run + " | over " + format_g(claim.horizon, 6) + " s (paper claims)";
        if (!extra_.count(label)) {
          ExtraRun& e = extra_[label];
          e.key = RunKey{c, info, d};
          e.t_end = claim.horizon;
          jobs.push_back(extra_job(label, e));
        }
        horizon_of_[claim.id] = &extra_.at(label);
      }
    }
    return jobs;
  }

  std::vector<std::string> write(const StudyContext& context) override {
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    std::ofstream csv(dir / "paper_comparison.csv");
    std::ofstream md(dir / "paper_comparison.md");
    csv << "id,source,case,integrator,kind,claim,metric,paper,ours,ratio,tolerance,tolerance_why,verdict,direction_size,"
           "cause,cause_status,status\n";
    std::map<std::string, std::vector<std::string>> by_seed;  // "seed 000" -> its verdict lines
    std::string table;
    for (const auto& claim : claims_) {
      const SummaryRow* row = find_row(context, claim.case_name, claim.run);
      if (!row) continue;  // that case or run is not part of this report
      const SummaryRow* other = claim.kind == ClaimKind::SmallerThan ? find_row(context, claim.other_case, claim.other_run) : nullptr;
      // A claim judged on a longer run says so; the full run's status still heads its row.
      const auto horizon = horizon_of_.find(claim.id);
      const SummaryRow judged = horizon == horizon_of_.end() ? *row : row_of(*horizon->second);
      ClaimVerdict v = judge_claim(claim, judged, other, spread_of(claim, *row));
      if (horizon != horizon_of_.end()) v.size = "over " + format_g(judged.t_end, 6) + " s (this study's longer run): " + v.size;
      const std::string tolerance = "x" + format_g(claim.tolerance, 6);  // "x1000", not "x1e+03"
      for (const auto& field : {claim.id, claim.source, claim.case_name, claim.run, std::string(enum_text(claim.kind)), claim.claim, claim.metric,
                                v.paper, v.ours, v.ratio, tolerance, claim.tolerance_why, v.verdict, v.size, v.cause,
                                v.cause_status})
        csv << csv_field(field) << ',';
      csv << csv_field(row->status()) << '\n';
      table += "| " + md_cell(claim.id) + " | " + md_cell(claim.source) + " | " + claim.case_name + " | " + md_cell(claim.run) +
               " | " + claim.metric + " | " + md_cell(v.paper) + " | " + (v.ours.empty() ? "–" : v.ours) + " | " +
               md_cell(v.ratio) + " | " + tolerance + " | **" + v.verdict + "** " + md_cell(v.size) + " | " +
               md_cell(v.cause.empty() ? "" : v.cause + " (" + v.cause_status + ")") + " |\n";
      // Sources start "seed NNN" (reference/paper_claims.csv).
      by_seed[claim.source.substr(5, 3)].push_back(v.verdict);
    }
    md << "# The papers' claims beside ours\n\n"
          "Every claim of seeds 000-003 about a bundled case (`reference/paper_claims.csv`: source, the paper's words, "
          "the metric it maps to and the tolerance its source allows, with why) judged against the full runs of "
          "`summary.csv` and, where a claim names one, this study's sensitivity runs. How a verdict is decided: "
          "cases/README.md, \"The papers' claims\". A run that did not complete shows no number.\n\n";
    for (const auto& [seed, verdicts] : by_seed) {
      std::map<std::string, int> count;
      for (const auto& v : verdicts) ++count[v];
      md << "- **seed " << seed << "**: " << verdicts.size() << " claims:";
      std::string sep = " ";
      for (const auto& [verdict, n] : count) md << sep << n << ' ' << verdict, sep = ", ";
      md << ". " << seed_summary(seed) << "\n";
    }
    md << "\n| id | source | case | run | metric | paper | ours | ratio | tolerance | verdict | cause |\n"
          "|---|---|---|---|---|---|---:|---:|---|---|---|\n"
       << table;
    write_extra_runs(dir / "paper_comparison_runs.csv");
    return {(dir / "paper_comparison.csv").string(), (dir / "paper_comparison.md").string(),
            (dir / "paper_comparison_runs.csv").string()};
  }

 private:
  // A run a claim asks for besides the full run: a sensitivity value (an integrator setting, or a
  // [model] number on a variant of the case) or a longer horizon.
  struct ExtraRun {
    RunKey key;
    std::string setting;      // "" for a longer horizon
    double value = 0.0;
    double case_value = 0.0;  // the setting's value in the case's own run
    double t_end = 0.0;
    Measurement measured;
  };

  static Measurement run(const ExtraRun& e) {
    const Case& c = *e.key.c;
    IntegratorSettings settings = c.settings_for(e.key.integrator->name);
    if (!e.setting.empty() && e.setting.rfind("model.", 0) != 0) settings.set(e.setting, e.value);
    MeasureOptions m;
    m.t_end = e.t_end;
    m.sample_interval = c.sample_interval;
    return measure(e.key, settings, m);
  }

  StudyJob extra_job(const std::string& label, ExtraRun& e) const {
    const std::string name = e.key.integrator->name;
    return result_job<Measurement>(label, e.t_end / e.key.c->h,
                                   job_inputs(run_inputs(*e.key.c, name), {{e.setting, exact(e.value)}, {"t_end", exact(e.t_end)}}),
                                   [&e] { return run(e); }, e.measured);
  }

  // Checks the claim's sensitivity key and, for a [model] key, points the run at a variant of the
  // case with that value; returns the case's own value of the key.
  double sensitivity_variant(const StudyContext& context, const PaperClaim& claim, ExtraRun& e) {
    const std::string& key = claim.sensitivity_setting;
    auto bad = [&](const std::string& expected) {
      return InputError(path_ + ": claim '" + claim.id + "', column 'sensitivity': expected " + expected + ", got '" + key + "'");
    };
    const Case& c = *e.key.c;
    if (key.rfind("model.", 0) != 0) {
      if (!c.settings_for(e.key.integrator->name).declares(key))
        throw bad("a setting of " + e.key.integrator->name + " or model.<key>");
      return c.settings_for(e.key.integrator->name).get(key);
    }
    const std::string name = key.substr(6);
    const TableReader root = TableReader::parse_file(c.file);
    const toml::value& model = root.value().at("model");
    const auto keys = numeric_model_keys(model);
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) throw bad("model.<a number of " + c.name + "'s [model]>");
    Case& variant = variants_.emplace_back(c);
    variant.model = build_model_variant(*context.catalogue->find_model(c.model_name), c.file, model,
                                        root.value().at("initial"), name, e.value);
    e.key.c = &variant;
    const toml::value& own = model.at(name);
    return own.is_integer() ? double(own.as_integer()) : own.as_floating();
  }

  // A longer run as a summary row: its growth laws judged as a full run's are.
  static SummaryRow row_of(const ExtraRun& e) {
    SummaryRow r;
    r.case_name = e.key.c->name;
    r.integrator = e.key.label();
    r.discretisation = e.key.discretisation;
    r.h = e.key.c->h;
    r.t_end = e.t_end;
    r.counters = e.measured.counters;
    r.metrics = e.measured.metrics;
    r.outcome = e.measured.outcome;
    r.violable = e.measured.violable;
    judge_growth_laws(r, e.key);
    return r;
  }

  // Every extra run with every metric, so that a spread or a law quoted in the table can be checked.
  void write_extra_runs(const std::filesystem::path& path) const {
    std::ofstream csv(path);
    csv << "job,setting,value,t_end,status";
    for (const auto& m : metric_names()) csv << ',' << m;
    csv << ",energy_growth_law,energy_growth_exponent,energy_growth_ci95\n";
    for (const auto& [label, e] : extra_) {
      const bool ok = e.measured.outcome.ok();
      csv << csv_field(label) << ',' << e.setting << ',' << (e.setting.empty() ? "" : format_g(e.value, 17)) << ','
          << format_g(e.t_end, 6) << ',' << csv_field(e.measured.outcome.describe());
      const SummaryRow r = row_of(e);
      // Empty where the run has no result, or the form cannot violate the metric (ViolableInvariants).
      for (const auto& m : metric_names())
        csv << ',' << (ok && r.violable.covers(m) ? format_g(metric_value(r.metrics, m), 6) : "");
      const GrowthFit& g = r.metrics.energy_growth;
      csv << ',' << (ok ? to_string(g.law) : "") << ',' << (ok ? format_g(g.exponent, 3) : "") << ','
          << (ok ? format_g(g.ci95_half_width(), 3) : "") << '\n';
    }
  }

  static const Case* find_case(const StudyContext& context, const std::string& name) {
    for (const auto& c : *context.cases)
      if (c.name == name) return &c;
    return nullptr;
  }

  static const SummaryRow* find_row(const StudyContext& context, const std::string& case_name, const std::string& run) {
    for (const auto& r : *context.full_runs)
      if (r.case_name == case_name && r.integrator == run) return &r;
    return nullptr;
  }

  // The claim's metric over the full run and its complete sensitivity runs; none without them.
  std::optional<MeasuredSpread> spread_of(const PaperClaim& claim, const SummaryRow& row) const {
    const auto runs = sensitivity_of_.find(claim.id);
    if (runs == sensitivity_of_.end() || !row.outcome.ok() || claim.metric == "outcome") return std::nullopt;
    const double own = metric_value(row.metrics, claim.metric);
    MeasuredSpread s{own, own, 1, ""};
    std::string values;
    for (const ExtraRun* e : runs->second) {
      if (!e->measured.outcome.ok()) continue;
      const double x = metric_value(e->measured.metrics, claim.metric);
      s.low = std::min(s.low, x), s.high = std::max(s.high, x), ++s.runs;
      values += format_g(e->value, 16) + ", ";
    }
    if (s.runs == 1 || !(s.low > 0.0)) return std::nullopt;
    s.what = claim.sensitivity_setting + " = " + values + "and the case's " + format_g(runs->second.front()->case_value, 16);
    return s;
  }

  // One line per seed on what its verdicts rest on (the rules and numbers are in the table).
  static std::string seed_summary(const std::string& seed) {
    if (seed == "000")
      return "Model A, LGVI only: energy without drift (judged on a 50 s run: the paper's 5 s are mostly start-up), "
             "momentum map, orthogonality (Sec. V, Fig. 3).";
    if (seed == "002")
      return "Model B (seed 001 is the same paper with its formulas lost): Table 1 and the Sect. 4 bounds, LGVI against "
             "the lumped-mass RK2 baseline; the fixed-length run is chaotic (it tumbles from t = 7 s), so its "
             "Table 1 figures and its energy bound are judged with the spread measured under a 1e-15 change of g.";
    if (seed == "003")
      return "Model C, figures only (no printed numbers): VI against RK4 and ODE45 over 1000 s; the suite's ODE45 is "
             "`rk45` at MATLAB's default tolerances on the `_ode45` cases.";
    return "";
  }

  std::string path_;
  std::vector<PaperClaim> claims_;
  std::map<std::string, ExtraRun> extra_;  // by job label; std::map keeps the slots' addresses
  std::map<std::string, std::vector<const ExtraRun*>> sensitivity_of_;  // claim id -> its sensitivity runs
  std::map<std::string, const ExtraRun*> horizon_of_;                  // claim id -> its longer run
  std::list<Case> variants_;                                            // stable addresses: runs refer to them
};

}  // namespace

StudyInfo paper_comparison_study() {
  return {"paper_comparison",
          "every claim of the source papers about a bundled case (reference/paper_claims.csv) judged against the full "
          "runs, with direction, size and cause",
          "paper_comparison.csv, paper_comparison.md",
          true,
          {},
          {},
          [] { return std::make_unique<PaperComparison>(); }};
}

}  // namespace tb
