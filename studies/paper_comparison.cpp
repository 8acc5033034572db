#include "studies/paper_comparison.hpp"

#include <filesystem>
#include <fstream>

#include "core/format.hpp"
#include "core/reference_data.hpp"
#include "core/runner.hpp"

namespace tb {

namespace {

// A Markdown table cell: '|' would end the cell.
std::string md_cell(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

class PaperComparison final : public Study {
 public:
  std::vector<StudyJob> plan(const StudyContext& context) override {
    figures_ = read_paper_figures((std::filesystem::path(context.reference_dir) / "paper_figures.csv").string());
    return {};
  }

  std::vector<std::string> write(const StudyContext& context) override {
    const std::filesystem::path dir(context.out_dir);
    std::filesystem::create_directories(dir);
    std::ofstream csv(dir / "paper_comparison.csv");
    std::ofstream md(dir / "paper_comparison.md");
    csv << "source,case,integrator,metric,statistic,paper_value,ours,ratio,verdict,note\n";
    md << "# The papers' figures beside ours\n\nPaper values are read from `reference/paper_figures.csv` (with their "
          "sources); ours are the full runs of the same cases in `summary.csv`.\n\n"
          "| source | case | integrator | metric | paper | ours | ours/paper | verdict | note |\n"
          "|---|---|---|---|---:|---:|---:|---|---|\n";
    for (const auto& f : figures_) {
      const SummaryRow* row = nullptr;
      for (const auto& r : *context.full_runs)
        if (r.case_name == f.case_name && r.integrator == f.integrator) row = &r;
      if (!row) continue;  // that case or run is not part of this report
      std::string ours = "n/a", ratio = "n/a", verdict = "not run: " + row->status();
      if (row->outcome.ok()) {
        const double value = metric_value(row->metrics, f.metric);
        const double r = value / f.paper_value;
        ours = format_g(value, 4);
        ratio = format_g(r, 3);
        if (f.statistic == "upper_bound") verdict = value <= f.paper_value ? "within the paper's bound" : "exceeds the paper's bound";
        else verdict = (r >= 0.1 && r <= 10.0) ? "same order of magnitude" : "differs by more than 10x";
      }
      const std::string paper = (f.statistic == "upper_bound" ? "< " : "") + format_g(f.paper_value, 5);
      csv << '"' << f.source << "\"," << f.case_name << ',' << f.integrator << ',' << f.metric << ',' << f.statistic << ','
          << format_g(f.paper_value, 6) << ',' << ours << ',' << ratio << ",\"" << verdict << "\",\"" << f.note << "\"\n";
      md << "| " << md_cell(f.source) << " | " << f.case_name << " | " << f.integrator << " | " << f.metric << " | " << paper
         << " | " << ours << " | " << ratio << " | " << verdict << " | " << md_cell(f.note) << " |\n";
    }
    return {(dir / "paper_comparison.csv").string(), (dir / "paper_comparison.md").string()};
  }

 private:
  std::vector<PaperFigure> figures_;
};

}  // namespace

StudyInfo paper_comparison_study() {
  return {"paper_comparison",
          "the source papers' published figures (reference/paper_figures.csv) beside the full runs of the same cases",
          "paper_comparison.csv, paper_comparison.md",
          true,
          {},
          {},
          [] { return std::make_unique<PaperComparison>(); }};
}

}  // namespace tb
