#include "app/jobs/job_provenance.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "app/common/csv_table.hpp"
#include "core/format.hpp"

namespace tb {

void write_job_provenance(const std::string& dir, const std::vector<std::string>& labels, const JobsDone& done) {
  const std::string path = (std::filesystem::path(dir) / "jobs.csv").string();
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "job,origin,seconds,host,build,finished_at\n";
  for (size_t i = 0; i < labels.size() && i < done.seconds.size(); ++i)
    out << csv_field(labels[i]) << ',' << (done.reused_flags[i] ? "reused" : "run") << ',' << format_g(done.seconds[i], 3)
        << ',' << csv_field(done.hosts[i]) << ',' << csv_field(done.builds[i]) << ',' << csv_field(done.finished_at[i])
        << '\n';
}

std::string job_provenance_line(const JobsDone& done) {
  const size_t n = done.reused_flags.size();
  const std::string jobs = std::to_string(n) + (n == 1 ? " job" : " jobs");
  if (done.reused == 0) return jobs + ", all run now";
  // The times are "YYYY-MM-DD HH:MM:SS UTC": their text order is their time order.
  std::string first, last;
  for (size_t i = 0; i < n; ++i) {
    if (!done.reused_flags[i] || done.finished_at[i].empty()) continue;
    if (first.empty() || done.finished_at[i] < first) first = done.finished_at[i];
    if (last.empty() || done.finished_at[i] > last) last = done.finished_at[i];
  }
  std::string line = jobs + ": " + std::to_string(done.ran) + " run now, " + std::to_string(done.reused) +
                     " reused from this folder's store (the same build and inputs";
  if (!first.empty()) line += first == last ? "; finished " + first : "; finished " + first + " to " + last;
  return line + "; jobs.csv says which)";
}

}  // namespace tb
