#pragma once
// The report's steps that run other programs: the Google Benchmark binary and its summary, and
// the matplotlib figures with index.md (scripts/*.py under /usr/bin/python3, where Debian's
// python3-* packages import). Kept apart from the report's own logic so that the one place
// that builds shell commands quotes every path.

#include <string>

namespace tb {

// 'text' for /bin/sh, with embedded quotes escaped.
std::string shell_quote(const std::string& text);

// Runs the benchmark binary (skipped with a message when it is absent) and summarise_benchmarks.py
// into `dir`; false when a step failed.
bool run_benchmarks(const std::string& benchmarks_binary, const std::string& scripts_dir, const std::string& dir);
// Runs plot_report.py on the report in `dir`; false when it failed.
bool run_plots(const std::string& scripts_dir, const std::string& dir);

}  // namespace tb
