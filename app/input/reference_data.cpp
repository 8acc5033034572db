#include "app/input/reference_data.hpp"

// fast-cpp-csv-parser copies file names with strncpy into a fixed buffer; GCC flags it where the
// reader is inlined into this file. It is the library's documented behaviour, not a bug here.
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>

#include "app/input/claim_series.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "core/format.hpp"
#include "core/growth.hpp"
#include "core/table_reader.hpp"

namespace tb {

namespace {

template <unsigned columns>
using Reader = io::CSVReader<columns, io::trim_chars<' ', '\t'>, io::double_quote_escape<',', '"'>,
                             io::throw_on_overflow, io::single_and_empty_line_comment<'#'>>;

// Runs a reading function, turning the parser's errors into InputError naming the file.
template <class F>
auto reading(const std::string& path, F&& read) {
  if (path.empty()) throw InputError("(empty path): expected a data file");
  if (!std::filesystem::exists(path)) throw InputError(path + ": missing file");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))  // a FIFO or a device would block or never end
    throw InputError(path + ": expected a regular CSV file, got a directory or a special file");
  try {
    return read();
  } catch (const io::error::base& e) {
    throw InputError(path + ": " + e.what());
  }
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

// fast-cpp-csv-parser's own float parsing is not correctly rounded (and mis-reads some
// exponents), so numbers are read as text and converted with strtod: exact round trips.
double to_number(const std::string& path, const std::string& column, unsigned line, const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x))
    throw InputError(path + ": line " + std::to_string(line) + ", column '" + column + "': expected a finite number, got '" +
                     text + "'");
  return x;
}

void check_one_of(const std::string& path, const std::string& column, const std::string& value,
                  const std::vector<std::string>& allowed) {
  for (const auto& a : allowed)
    if (value == a) return;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  throw InputError(path + ": column '" + column + "': expected one of " + list + ", got '" + value + "'");
}

}  // namespace

void write_reference_state(const std::string& path, const Eigen::VectorXd& x, const std::string& provenance,
                           const std::string& fingerprint) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "# " << provenance << '\n';
  if (!fingerprint.empty()) out << "# fingerprint: " << fingerprint << '\n';
  out << "index,value\n";
  for (Eigen::Index i = 0; i < x.size(); ++i) out << i << ',' << format_g(x(i), 17) << '\n';
}

namespace {
constexpr const char* kDataLine = "# data: ";
bool little_endian() {
  const std::uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}
}  // namespace

void write_reference_trajectory(const std::string& path, const StateTrajectory& trajectory, const std::string& provenance,
                                const std::string& fingerprint) {
  if (!little_endian()) throw std::runtime_error("reference trajectories are stored little-endian: not on this machine");
  const size_t n = trajectory.states.empty() ? 0 : size_t(trajectory.states.front().size());
  for (const auto& x : trajectory.states)
    if (size_t(x.size()) != n) throw std::logic_error(path + ": trajectory states of different sizes");
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "# " << provenance << '\n';
  out << "# fingerprint: " << fingerprint << '\n';
  out << kDataLine << trajectory.states.size() << " samples x " << n << " float64 little-endian, t_k = k * "
      << format_g(trajectory.interval, 17) << '\n';
  for (const auto& x : trajectory.states) out.write(reinterpret_cast<const char*>(x.data()), std::streamsize(n * sizeof(double)));
  if (!out) throw std::runtime_error("cannot write " + path);
}

StateTrajectory read_reference_trajectory(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path + ": missing reference trajectory (a regular file)");
  if (!little_endian()) throw InputError(path + ": reference trajectories are stored little-endian: not on this machine");
  std::ifstream in(path, std::ios::binary);
  std::string line;
  auto bad = [&](const std::string& what) { return InputError(path + ": " + what); };
  while (std::getline(in, line)) {
    if (line.rfind(kDataLine, 0) != 0) {
      if (line.empty() || line[0] != '#') throw bad("expected '#' header lines and a '" + std::string(kDataLine) + "...' line, got '" + line.substr(0, 60) + "'");
      continue;
    }
    unsigned long samples = 0, n = 0;
    char interval_text[64] = {0};
    if (std::sscanf(line.c_str() + std::strlen(kDataLine), "%lu samples x %lu float64 little-endian, t_k = k * %63s",
                    &samples, &n, interval_text) != 3)
      throw bad("expected '# data: <samples> samples x <n> float64 little-endian, t_k = k * <interval>', got '" + line + "'");
    StateTrajectory t;
    char* end = nullptr;
    t.interval = std::strtod(interval_text, &end);
    if (*end != '\0' || !(t.interval > 0.0) || !std::isfinite(t.interval)) throw bad("interval: expected a finite number > 0, got '" + std::string(interval_text) + "'");
    if (samples < 1 || n < 1 || samples > 100000000ul / n) throw bad("expected between 1 and 1e8 numbers, got " + std::to_string(samples) + " x " + std::to_string(n));
    const std::streamoff data_start = in.tellg();
    in.seekg(0, std::ios::end);
    const std::streamoff data_bytes = in.tellg() - data_start;
    if (data_bytes != std::streamoff(samples * n * sizeof(double)))
      throw bad("expected " + std::to_string(samples * n * sizeof(double)) + " bytes of data after the header, got " +
                std::to_string(data_bytes));
    in.seekg(data_start);
    t.states.assign(samples, Eigen::VectorXd(Eigen::Index(n)));
    for (auto& x : t.states) in.read(reinterpret_cast<char*>(x.data()), std::streamsize(n * sizeof(double)));
    for (const auto& x : t.states)
      if (!x.allFinite()) throw bad("non-finite number in the data");
    return t;
  }
  throw bad("no '" + std::string(kDataLine) + "...' line: not a reference trajectory");
}

Eigen::VectorXd read_reference_state(const std::string& path) {
  return reading(path, [&] {
    Reader<2> in(path);
    in.read_header(io::ignore_no_column, "index", "value");
    std::vector<double> values;
    long index = 0;
    std::string text;
    while (in.read_row(index, text)) {
      const double value = to_number(path, "value", in.get_file_line(), text);
      if (index != long(values.size()))
        throw InputError(path + ": column 'index': expected " + std::to_string(values.size()) + ", got " +
                         std::to_string(index));
      values.push_back(value);
    }
    return Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(values.data(), Eigen::Index(values.size())));
  });
}

std::string read_reference_fingerprint(const std::string& path) {
  std::ifstream in(path);
  const std::string key = "# fingerprint: ";
  for (std::string line; std::getline(in, line) && !line.empty() && line[0] == '#';)
    if (line.rfind(key, 0) == 0) return line.substr(key.size());
  return "";
}

namespace {
// The error of one cell of the claims file, naming its line and column (one object, so that each
// part of a row's reading below reports its errors alike).
struct ClaimCellError {
  const std::string& path;
  unsigned line;
  InputError operator()(const std::string& column, const std::string& expected, const std::string& got) const {
    return InputError(path + ": line " + std::to_string(line) + ", column '" + column + "': expected " + expected +
                      ", got '" + got + "'");
  }
};

// A unique, non-empty id and the texts every claim gives.
void check_claim_id_and_texts(const PaperClaim& c, std::set<std::string>& ids, const ClaimCellError& bad) {
  if (c.id.empty() || !ids.insert(c.id).second) throw bad("id", "a unique, non-empty id", c.id);
  for (const auto& [column, text] : {std::pair<std::string, std::string>{"source", c.source}, {"case", c.case_name},
                                     {"run", c.run}, {"metric", c.metric}, {"claim", c.claim},
                                     {"tolerance_why", c.tolerance_why}})
    if (text.empty()) throw bad(column, "a non-empty text", text);
}

// The kind and the qualifier from their lists, and a cause with its status or neither.
void read_claim_kind_and_cause(const std::string& path, const std::string& kind, PaperClaim& c, const ClaimCellError& bad) {
  check_one_of(path, "kind", kind, paper_claim_kinds());
  check_one_of(path, "qualifier", c.qualifier, {"", "proxy", "undefined", "unprinted", "unstable_set", "other_model", "outside_derivation"});
  c.kind = enum_from_text<ClaimKind>(kind);
  if (c.cause.empty() != c.cause_status.empty() ||
      !(c.cause_status.empty() || c.cause_status == "hypothesis" || c.cause_status.rfind("measured: ", 0) == 0))
    throw bad("cause_status",
              "'hypothesis' or 'measured: <by what>' with a cause, nothing without one (cause '" + c.cause + "')",
              c.cause_status);
}

// The paper's number where the kind has one, and the tolerance factor.
void read_claim_value_and_tolerance(const std::string& path, unsigned line, const std::string& kind, const std::string& value,
                                    const std::string& tolerance, PaperClaim& c, const ClaimCellError& bad) {
  c.has_paper_value = paper_claim_has_value(c.kind);
  if (c.has_paper_value) {
    c.paper_value = to_number(path, "paper_value", line, value);
    if (!(c.paper_value > 0.0)) throw bad("paper_value", "a number > 0 for kind " + kind, value);
  } else if (!value.empty()) {
    throw bad("paper_value", "nothing for kind " + kind + " (a qualitative claim)", value);
  }
  c.tolerance = to_number(path, "tolerance", line, tolerance);
  if (!(c.tolerance >= 1.0)) throw bad("tolerance", "a factor >= 1", tolerance);
  // "Conserved" and "not conserved" have one meaning in the whole report (core/growth.hpp
  // judge_conservation, issue 44 point 15): a row may not choose its own factor.
  if (c.kind == ClaimKind::Conserved && c.tolerance != kGrowthSignalOverFloor)
    throw bad("tolerance", format_g(kGrowthSignalOverFloor) + " for kind conserved (the report's one rule, core/growth.hpp)", tolerance);
  if (c.kind == ClaimKind::NotConserved && c.tolerance != kNotConservedOverFloor)
    throw bad("tolerance", format_g(kNotConservedOverFloor) + " for kind not_conserved (the report's one rule, core/growth.hpp)", tolerance);
}

// The metric: a summary metric, a series (with its level for an onset), or the static shape for a
// convergence claim.
void read_claim_metric(const std::string& path, unsigned line, const std::string& kind, PaperClaim& c,
                       const ClaimCellError& bad) {
  c.series.clear();
  c.series_level = std::numeric_limits<double>::quiet_NaN();
  if ((c.kind == ClaimKind::Converges) != (c.metric == "catenary:max_error_m" && c.run == "static"))
    throw bad("metric", "catenary:max_error_m with run 'static' for kind converges, and only for it", c.metric + " / " + c.run);
  if (c.kind == ClaimKind::Converges) {
  } else if (c.metric.rfind("series:", 0) == 0) {
    c.series = c.metric.substr(7);
    if (const size_t gt = c.series.find('>'); gt != std::string::npos) {
      if (c.kind != ClaimKind::Onset) throw bad("metric", "series:<spec> without a level ('>' goes with kind onset)", c.metric);
      c.series_level = to_number(path, "metric", line, c.series.substr(gt + 1));
      c.series = c.series.substr(0, gt);
    } else if (c.kind == ClaimKind::Onset) {
      throw bad("metric", "series:<spec>><level> for kind onset", c.metric);
    }
    std::string why;
    if (!valid_series_spec(c.series, why)) throw bad("metric", "series:<spec> with " + why, c.metric);
    if (c.kind == ClaimKind::Value)
      throw bad("metric", "a summary metric for kind value (a series goes with the other kinds)", c.metric);
  } else if (paper_claim_needs_series(c.kind)) {
    throw bad("metric", "series:<spec> for kind " + kind + " (a claim about a time is judged on the time series)", c.metric);
  }
}

// The other run, where the kind compares two runs, and only there.
void check_claim_other_run(const std::string& kind, const PaperClaim& c, const ClaimCellError& bad) {
  const bool has_other = !c.other_case.empty() || !c.other_run.empty();
  if (paper_claim_has_other(c.kind) ? c.other_case.empty() || c.other_run.empty() : has_other)
    throw bad("other_case", paper_claim_has_other(c.kind) ? "other_case and other_run (kind " + kind + ")"
                                                          : "nothing (other_case and other_run go with kinds smaller_than and parts_after)",
              c.other_case + " / " + c.other_run);
}

// The horizon, where a drift or a series claim gives one.
void read_claim_horizon(const std::string& path, unsigned line, const std::string& kind, const std::string& horizon,
                        PaperClaim& c, const ClaimCellError& bad) {
  c.horizon = 0.0;
  if (!horizon.empty()) {
    if (!paper_claim_is_about_drift(c.kind) && c.series.empty())
      throw bad("horizon", "nothing for kind " + kind + " on a summary metric (a horizon goes with no_drift, no_secular_drift, drifts and series)", horizon);
    c.horizon = to_number(path, "horizon", line, horizon);
    if (!(c.horizon > 0.0)) throw bad("horizon", "a time > 0 (s)", horizon);
  }
}

// The sensitivity runs: a setting and the values it takes.
void read_claim_sensitivity(const std::string& sensitivity, PaperClaim& c, const ClaimCellError& bad) {
  c.sensitivity_setting.clear();
  c.sensitivity_values.clear();
  if (!sensitivity.empty()) {
    const std::string expected = "'<setting>=<v1>;<v2>;...' with numbers > 0 (<setting>: an integrator setting or model.<key>)";
    const size_t eq = sensitivity.find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == sensitivity.size()) throw bad("sensitivity", expected, sensitivity);
    c.sensitivity_setting = sensitivity.substr(0, eq);
    for (size_t at = eq + 1; at <= sensitivity.size();) {
      const size_t end = std::min(sensitivity.find(';', at), sensitivity.size());
      const std::string text = sensitivity.substr(at, end - at);
      char* stop = nullptr;
      const double v = std::strtod(text.c_str(), &stop);
      if (text.empty() || *stop != '\0' || !(v > 0.0) || !std::isfinite(v)) throw bad("sensitivity", expected, sensitivity);
      c.sensitivity_values.push_back(v);
      at = end + 1;
    }
  }
}
}  // namespace

std::vector<PaperClaim> read_paper_claims(const std::string& path) {
  return reading(path, [&] {
    Reader<18> in(path);
    in.read_header(io::ignore_no_column, "id", "source", "case", "run", "kind", "metric", "paper_value", "tolerance",
                   "other_case", "other_run", "sensitivity", "horizon", "claim", "tolerance_why", "cause", "cause_status",
                   "deviation", "qualifier");
    std::vector<PaperClaim> rows;
    std::set<std::string> ids;
    PaperClaim c;
    std::string kind, value, tolerance, sensitivity, horizon;
    while (in.read_row(c.id, c.source, c.case_name, c.run, kind, c.metric, value, tolerance, c.other_case, c.other_run,
                       sensitivity, horizon, c.claim, c.tolerance_why, c.cause, c.cause_status, c.deviation, c.qualifier)) {
      const unsigned line = in.get_file_line();
      const ClaimCellError bad{path, line};
      check_claim_id_and_texts(c, ids, bad);
      read_claim_kind_and_cause(path, kind, c, bad);
      read_claim_value_and_tolerance(path, line, kind, value, tolerance, c, bad);
      read_claim_metric(path, line, kind, c, bad);
      check_claim_other_run(kind, c, bad);
      read_claim_horizon(path, line, kind, horizon, c, bad);
      read_claim_sensitivity(sensitivity, c, bad);
      rows.push_back(c);
    }
    return rows;
  });
}

namespace {
// The first line of a CSV file that is not a comment or empty: its header.
std::string header_line(const std::string& path) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    return line;
  }
  return "";
}
}  // namespace

std::vector<Envelope> read_envelopes(const std::string& path, bool accept_old_format) {
  return reading(path, [&] {
    const std::string header = header_line(path), expected = csv_header<Envelope>();
    const bool old_format = header == kEnvelopeHeaderBeforeFailureKinds;
    if (old_format && !accept_old_format)
      throw InputError(path + ": an envelope file of the format before fails rows recorded their kind and step "
                       "(header '" + header + "'); expected the header '" + expected +
                       "'. Convert it once with `tetherbench gate --record --envelopes " + path +
                       "`: it reads the old format, re-measures its recorded rows and writes the file in the new one");
    if (!old_format && header != expected)
      throw InputError(path + ": expected an envelope file with the header '" + expected + "', got '" + header + "'");
    constexpr size_t kColumns = 10;
    std::array<std::string, kColumns> names, cells;  // the columns of Envelope's description
    const auto columns = csv_columns<Envelope>();
    if (columns.size() != names.size()) throw std::logic_error("read_envelopes: Envelope has " + std::to_string(columns.size()) + " columns");
    std::copy(columns.begin(), columns.end(), names.begin());
    // The old format lacks failure_kind and failure_step: they are read as "" and "0".
    Reader<kColumns> in(path);
    std::apply([&](const auto&... n) { in.read_header(old_format ? io::ignore_missing_column : io::ignore_no_column, n...); },
               names);
    std::vector<Envelope> rows;
    while (std::apply([&](auto&... cell) { return in.read_row(cell...); }, cells)) {
      const std::string where = path + ": line " + std::to_string(in.get_file_line());
      if (old_format) cells[8] = "0";
      Envelope e;
      try {
        from_csv_cells(e, {cells.begin(), cells.end()});
      } catch (const std::invalid_argument& err) {
        throw InputError(where + ", " + err.what());
      }
      if ((e.bound_type == BoundType::Fails) != (e.metric == "outcome"))
        throw InputError(where + ": bound_type 'fails' goes with metric 'outcome' and only with it");
      if (!old_format && (e.bound_type == BoundType::Fails) != (e.failure_kind != FailureKind::None))
        throw InputError(where + ", column 'failure_kind': expected " +
                         (e.bound_type == BoundType::Fails ? "how the run fails (one of " + enum_choices<FailureKind>() + ") on a fails row"
                                                           : std::string("nothing on a row that is not a fails row")) +
                         ", got '" + std::string(enum_text(e.failure_kind)) + "'");
      if (e.bound_type == BoundType::Fails ? e.failure_step < 0 || (!old_format && e.failure_step < 1) : e.failure_step != 0)
        throw InputError(where + ", column 'failure_step': expected " +
                         std::string(e.bound_type == BoundType::Fails ? "the step the run failed at (>= 1)" : "0 on a row that is not a fails row") +
                         ", got " + std::to_string(e.failure_step));
      rows.push_back(e);
    }
    return rows;
  });
}

void write_envelopes(const std::string& path, const std::vector<Envelope>& rows) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "# Conservation envelopes checked by `tetherbench gate` (ctest: gate:<case>). Each row bounds one\n"
         "# metric of the short gate run (case [report] gate_t_end, the case's step) of one integrator.\n"
         "# bound_type max: value <= bound; min: value >= bound (an integrator expected to drift must still drift);\n"
         "# fails (metric outcome): the run is expected to fail at this step, in the way failure_kind says (diverged,\n"
         "# unstable, solver, exception, crashed, contract, timeout), no earlier than bound (s); recorded_value and\n"
         "# failure_step: the time and the step it failed at when recorded, note: its status. A run that now fails\n"
         "# another way, or earlier than bound, or completes, fails its gate (reference/README.md).\n"
         "# policy fixed: a physical claim, never changed by `tetherbench gate --record`; recorded: re-measured by it.\n"
         "# Refresh on purpose with `tetherbench gate --record` (see reference/README.md).\n";
  out << csv_header<Envelope>() << '\n';
  for (const auto& e : rows) out << csv_row(e) << '\n';
}

std::vector<JobCost> read_job_costs(const std::string& path) {
  return reading(path, [&] {
    Reader<2> in(path);
    in.read_header(io::ignore_no_column, "job", "seconds");
    std::vector<JobCost> rows;
    std::set<std::string> seen;
    JobCost row;
    std::string seconds;
    while (in.read_row(row.job, seconds)) {
      const unsigned line = in.get_file_line();
      row.seconds = to_number(path, "seconds", line, seconds);
      if (row.seconds < 0.0)
        throw InputError(path + ": line " + std::to_string(line) + ", column 'seconds': expected a number >= 0, got '" +
                         seconds + "'");
      if (row.job.empty())
        throw InputError(path + ": line " + std::to_string(line) + ", column 'job': expected a job label, got ''");
      if (!seen.insert(row.job).second)
        throw InputError(path + ": line " + std::to_string(line) + ", column 'job': expected each job once, got '" +
                         row.job + "' again");
      rows.push_back(row);
    }
    return rows;
  });
}

void write_job_costs(const std::string& path, const std::vector<JobCost>& rows, const std::string& provenance) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "# Wall time of each job of `tetherbench report` (" << provenance << ").\n"
         "# The report orders its jobs longest first and estimates its remaining time from reference/job_costs.csv;\n"
         "# refresh that file on purpose by copying this one there (see reference/README.md).\n";
  out << "job,seconds\n";
  for (const auto& r : rows) out << quoted(r.job) << ',' << format_g(r.seconds, 3) << '\n';
}

}  // namespace tb
