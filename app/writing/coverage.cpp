// The coverage matrix of app/writing/coverage.hpp.

#include "app/writing/coverage.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "app/common/csv_table.hpp"
#include "app/common/markdown_table.hpp"
#include "app/running/runner.hpp"

namespace tb {

namespace {

constexpr const char* kNotListed = "not among this case's [case] integrators";

// Columns in the order the entries first name them.
std::vector<std::string> ordered(const std::vector<CoverageEntry>& entries, std::string CoverageEntry::*field) {
  std::vector<std::string> out;
  for (const auto& e : entries)
    if (std::find(out.begin(), out.end(), e.*field) == out.end()) out.push_back(e.*field);
  return out;
}

// Letters for the distinct reasons, in order of first use: a, b, ..., z, aa, ab, ...
class ReasonLetters {
 public:
  std::string letter(const std::string& reason, const std::string& where) {
    auto it = index_.find(reason);
    if (it == index_.end()) {
      it = index_.emplace(reason, reasons_.size()).first;
      reasons_.push_back(reason);
      cells_.emplace_back();
    }
    cells_[it->second].push_back(where);
    return name(it->second);
  }
  void write(std::ostringstream& md) const {
    for (size_t i = 0; i < reasons_.size(); ++i) {
      md << "- **[" << name(i) << "]** " << reasons_[i] << " (" << cells_[i].size()
         << (cells_[i].size() == 1 ? " cell: " : " cells: ");
      for (size_t k = 0; k < cells_[i].size(); ++k) md << (k ? ", " : "") << cells_[i][k];
      md << ")\n";
    }
  }
  bool empty() const { return reasons_.empty(); }

 private:
  static std::string name(size_t i) {
    std::string s;
    for (size_t n = i + 1; n > 0; n = (n - 1) / 26) s.insert(s.begin(), char('a' + (n - 1) % 26));
    return s;
  }
  std::map<std::string, size_t> index_;
  std::vector<std::string> reasons_;
  std::vector<std::vector<std::string>> cells_;
};

std::string row_name(const CoverageEntry& e) {
  return e.default_discretisation ? e.case_name : e.case_name + " @ " + e.discretisation;
}

// A report's status as one word for the matrix: summary.csv's own `state` (ok, drift, diverged, ...),
// so that the two never disagree; an older report's, from its status ("diverged at t = 2 s" -> "diverged").
std::string status_word(const RunRecord& r) {
  if (!r.state.empty()) return r.state;
  if (r.ok) return "ok";
  const std::string s = r.short_status();
  const size_t at = s.find(" at ");
  const size_t from = s.find(" from ");
  return s.substr(0, std::min(at, from));
}

}  // namespace

std::vector<CoverageEntry> coverage_of_cases(const std::vector<Case>& cases, const std::vector<IntegratorInfo>& integrators) {
  std::vector<CoverageEntry> out;
  for (const auto& c : cases) {
    const auto discretisations = c.model->discretisations();
    for (size_t d = 0; d < discretisations.size(); ++d)
      for (const auto& info : integrators) {
        CoverageEntry e{c.name, c.model_name, info.name, discretisations[d], d == 0, "runs", ""};
        if (const auto why = why_not_applicable(c, info, discretisations[d])) {
          e.state = *why == kNotListed ? "not listed" : "n/a";
          e.reason = *why;
        }
        out.push_back(e);
      }
  }
  return out;
}

std::vector<CoverageEntry> coverage_of_runs(const ReportData& data, const std::vector<Case>& cases) {
  std::map<std::string, std::string> model_of;
  for (const auto& c : cases) model_of[c.name] = c.model_name;
  std::vector<CoverageEntry> out;
  for (const auto& r : data.runs) {
    CoverageEntry e{r.case_name, model_of.count(r.case_name) ? model_of[r.case_name] : "", r.integrator,
                    r.discretisation, r.label.find('@') == std::string::npos, status_word(r), ""};
    if (r.not_applicable) {
      std::string why = r.status.rfind("n/a: ", 0) == 0 ? r.status.substr(5) : r.status;
      e.state = why == kNotListed ? "not listed" : "n/a";
      e.reason = why;
    }
    out.push_back(e);
  }
  return out;
}

std::pair<int, int> count_not_applicable(const std::vector<CoverageEntry>& entries) {
  int na = 0, all = 0;
  for (const auto& e : entries)
    if (e.default_discretisation && e.listed()) {
      ++all;
      if (e.not_applicable()) ++na;
    }
  return {na, all};
}

std::string coverage_by_case_markdown(const std::vector<CoverageEntry>& entries) {
  const std::vector<std::string> integrators = ordered(entries, &CoverageEntry::integrator);
  // Rows: each case's own discretisation, then the others where at least one integrator runs.
  std::vector<std::string> rows;
  std::map<std::string, std::map<std::string, const CoverageEntry*>> at;
  std::set<std::string> runs_somewhere;
  for (const auto& e : entries) {
    at[row_name(e)][e.integrator] = &e;
    if (e.listed() && !e.not_applicable()) runs_somewhere.insert(row_name(e));
  }
  for (const auto& e : entries)
    if ((e.default_discretisation || runs_somewhere.count(row_name(e))) &&
        std::find(rows.begin(), rows.end(), row_name(e)) == rows.end())
      rows.push_back(row_name(e));

  ReasonLetters letters;
  std::vector<std::vector<std::string>> table;
  bool any_unlisted = false, any_unrun = false;
  for (const auto& row : rows) {
    std::vector<std::string> cells{row};
    for (const auto& i : integrators) {
      const auto it = at[row].find(i);
      if (it == at[row].end()) {  // a report lists only the runs a second discretisation took
        any_unrun = true;
        cells.push_back("·");
        continue;
      }
      const CoverageEntry& e = *it->second;
      if (!e.listed()) {
        any_unlisted = true;
        cells.push_back("—");
      } else if (e.not_applicable()) {
        cells.push_back("n/a [" + letters.letter(e.reason, row + " × " + i) + "]");
      } else {
        cells.push_back(e.state == "runs" ? "✓" : e.state);
      }
    }
    table.push_back(cells);
  }
  std::vector<std::string> header{"case"};
  header.insert(header.end(), integrators.begin(), integrators.end());
  std::ostringstream md;
  markdown::table(md, header, table);
  const auto [na, all] = count_not_applicable(entries);
  md << "\n" << na << " of the " << all
     << " cells of the cases' own discretisations are n/a; each reason below is the text of the form or "
        "integrator that declined, as the summary tables print it."
     << (any_unlisted ? " \"—\": the case's [case] integrators leave the integrator out (the case repeats "
                        "another to run a few methods as a paper did)."
                      : "")
     << " A row \"case @ discretisation\" lists the integrators run on a second discretisation of the same case"
     << (any_unrun ? "; \"·\": not run on it, whose forms the report does not list (their reasons: cases/README.md, "
                     "\"Coverage\", or `tetherbench coverage`)."
                   : ".")
     << "\n\n";
  letters.write(md);
  return md.str();
}

std::string coverage_by_model_markdown(const std::vector<CoverageEntry>& entries) {
  const std::vector<std::string> integrators = ordered(entries, &CoverageEntry::integrator);
  const std::vector<std::string> models = ordered(entries, &CoverageEntry::model);
  ReasonLetters letters;
  std::vector<std::vector<std::string>> table;
  for (const auto& i : integrators) {
    std::vector<std::string> cells{i};
    for (const auto& m : models) {
      int cases = 0, runs = 0;
      std::vector<std::string> why;  // letters, each once
      for (const auto& e : entries) {
        if (e.integrator != i || e.model != m || !e.default_discretisation || !e.listed()) continue;
        ++cases;
        if (!e.not_applicable()) {
          ++runs;
          continue;
        }
        const std::string l = letters.letter(e.reason, i + " on " + e.case_name);
        if (std::find(why.begin(), why.end(), l) == why.end()) why.push_back(l);
      }
      std::string text = cases == 0 ? "" : runs == cases ? "✓" : runs == 0 ? "n/a" : "✓ " + std::to_string(runs) + " of " + std::to_string(cases);
      for (const auto& l : why) text += " [" + l + "]";
      cells.push_back(text);
    }
    table.push_back(cells);
  }
  std::vector<std::string> header{"integrator"};
  header.insert(header.end(), models.begin(), models.end());
  std::ostringstream md;
  markdown::table(md, header, table);
  md << "\n✓: the integrator runs every bundled case of the model; \"✓ k of n\": k of its n cases; the lettered "
        "reasons (the form's or the integrator's own text, and the cases it applies to) say why not.\n\n";
  letters.write(md);
  return md.str();
}

std::string coverage_csv(const std::vector<CoverageEntry>& entries) {
  std::ostringstream csv;
  csv << "case,discretisation,integrator,state,reason\n";
  for (const auto& e : entries)
    csv << csv_field(e.case_name) << "," << csv_field(e.discretisation) << "," << csv_field(e.integrator) << "," << csv_field(e.state)
        << "," << csv_field(e.reason) << "\n";
  return csv.str();
}

std::string coverage_block(const std::vector<CoverageEntry>& entries, bool by_model) {
  return std::string(by_model ? kCoverageByModelBegin : kCoverageByCaseBegin) + "\n\n" +
         (by_model ? coverage_by_model_markdown(entries) : coverage_by_case_markdown(entries)) + "\n" +
         (by_model ? kCoverageByModelEnd : kCoverageByCaseEnd);
}

}  // namespace tb
