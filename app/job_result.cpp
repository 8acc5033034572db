#include "app/job_result.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "app/case.hpp"
#include "app/fingerprint.hpp"
#include "core/format.hpp"

namespace tb {

// Fields are written one per line: a number in C's hexadecimal floating point ("%a", exact;
// inf and nan as such), an integer in decimal, a string as "<length>:<bytes>" (any bytes).

ResultWriter& ResultWriter::operator<<(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a\n", x);
  out_ += buf;
  return *this;
}

ResultWriter& ResultWriter::operator<<(long x) {
  out_ += std::to_string(x) + "\n";
  return *this;
}

ResultWriter& ResultWriter::operator<<(const std::string& s) {
  out_ += std::to_string(s.size()) + ":" + s + "\n";
  return *this;
}

ResultWriter& ResultWriter::operator<<(const Eigen::VectorXd& v) {
  *this << long(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) *this << v[i];
  return *this;
}

ResultWriter& ResultWriter::operator<<(const std::vector<std::string>& v) {
  *this << long(v.size());
  for (const auto& s : v) *this << s;
  return *this;
}

namespace {
[[noreturn]] void malformed(size_t at, const std::string& what) {
  throw std::runtime_error("job result: malformed at byte " + std::to_string(at) + ": " + what);
}
}  // namespace

std::string ResultReader::token() {
  const size_t end = in_.find('\n', at_);
  if (end == std::string::npos) malformed(at_, "expected a field, got the end");
  std::string t = in_.substr(at_, end - at_);
  at_ = end + 1;
  return t;
}

ResultReader& ResultReader::operator>>(double& x) {
  const size_t at = at_;
  const std::string t = token();
  char* end = nullptr;
  x = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != 0) malformed(at, "expected a number, got '" + t + "'");
  return *this;
}

ResultReader& ResultReader::operator>>(long& x) {
  const size_t at = at_;
  const std::string t = token();
  char* end = nullptr;
  x = std::strtol(t.c_str(), &end, 10);
  if (t.empty() || *end != 0) malformed(at, "expected an integer, got '" + t + "'");
  return *this;
}

ResultReader& ResultReader::operator>>(int& x) {
  long v = 0;
  *this >> v;
  x = int(v);
  return *this;
}

ResultReader& ResultReader::operator>>(bool& x) {
  long v = 0;
  *this >> v;
  x = v != 0;
  return *this;
}

ResultReader& ResultReader::operator>>(std::string& s) {
  const size_t colon = in_.find(':', at_);
  if (colon == std::string::npos) malformed(at_, "expected a string");
  char* end = nullptr;
  const std::string count = in_.substr(at_, colon - at_);
  const unsigned long n = std::strtoul(count.c_str(), &end, 10);
  if (count.empty() || *end != 0 || colon + 1 + n >= in_.size() || in_[colon + 1 + n] != '\n')
    malformed(at_, "expected <length>:<bytes>");
  s = in_.substr(colon + 1, n);
  at_ = colon + 2 + n;
  return *this;
}

ResultReader& ResultReader::operator>>(Eigen::VectorXd& v) {
  long n = 0;
  *this >> n;
  if (n < 0) malformed(at_, "negative vector size");
  v.resize(n);
  for (long i = 0; i < n; ++i) *this >> v[i];
  return *this;
}

ResultReader& ResultReader::operator>>(std::vector<std::string>& v) {
  long n = 0;
  *this >> n;
  if (n < 0) malformed(at_, "negative list size");
  v.assign(size_t(n), std::string());
  for (auto& s : v) *this >> s;
  return *this;
}

void ResultReader::expect_end() const {
  if (at_ != in_.size()) malformed(at_, std::to_string(in_.size() - at_) + " bytes left over");
}

void write(ResultWriter& w, const RunOutcome& o) {
  w << long(o.kind) << o.reason << o.diverged << o.t << o.step << o.h << o.adaptive << o.rtol;
}
void read(ResultReader& r, RunOutcome& o) {
  long kind = 0;
  r >> kind >> o.reason >> o.diverged >> o.t >> o.step >> o.h >> o.adaptive >> o.rtol;
  if (kind < 0 || kind > long(RunOutcome::Kind::Unstable)) throw std::runtime_error("job result: unknown outcome kind");
  o.kind = RunOutcome::Kind(kind);
}

void write(ResultWriter& w, const StepCounters& n) { w << n.steps << n.rhs_evals << n.newton_iters << n.error_test_failures; }
void read(ResultReader& r, StepCounters& n) { r >> n.steps >> n.rhs_evals >> n.newton_iters >> n.error_test_failures; }

void write(ResultWriter& w, const GrowthFit& g) {
  w << g.law << g.exponent << g.std_err << g.ci95_low << g.ci95_high << g.r2 << g.coefficient << g.points << g.t_from
    << g.t_to << g.err_max << g.round_off_floor << g.slowest_period << g.jump_from << g.jump_to << g.jump_ratio
    << g.after_law << g.why << g.prediction.law << g.prediction.because << g.verdict << long(g.envelope.size());
  for (const auto& p : g.envelope) w << p.t << p.value;
}
void read(ResultReader& r, GrowthFit& g) {
  long n = 0;
  r >> g.law >> g.exponent >> g.std_err >> g.ci95_low >> g.ci95_high >> g.r2 >> g.coefficient >> g.points >> g.t_from >>
      g.t_to >> g.err_max >> g.round_off_floor >> g.slowest_period >> g.jump_from >> g.jump_to >> g.jump_ratio >>
      g.after_law >> g.why >> g.prediction.law >> g.prediction.because >> g.verdict >> n;
  if (n < 0) throw std::runtime_error("job result: negative envelope size");
  g.envelope.assign(size_t(n), EnvelopePoint());
  for (auto& p : g.envelope) r >> p.t >> p.value;
}

void write(ResultWriter& w, const ConservationMetrics& m) {
  w << m.samples << m.energy_err_max << m.energy_err_mean << m.energy_err_rel_ke << m.energy_drift_rate << m.momentum_err_max
    << m.momentum_err_mean << m.constraint_err_max << m.constraint_rate_err_max << m.linear_momentum_err_max
    << m.orthogonality_err_max << m.orthogonality_err_mean << m.kinetic_max << m.energy_magnitude << m.momentum_magnitude
    << m.linear_momentum_magnitude << m.external_work_max << m.energy_gain_max << m.energy_gain_t << m.constraint_err_t
    << m.orthogonality_err_t;
  write(w, m.energy_growth);
  write(w, m.momentum_growth);
}
void read(ResultReader& r, ConservationMetrics& m) {
  r >> m.samples >> m.energy_err_max >> m.energy_err_mean >> m.energy_err_rel_ke >> m.energy_drift_rate >> m.momentum_err_max >>
      m.momentum_err_mean >> m.constraint_err_max >> m.constraint_rate_err_max >> m.linear_momentum_err_max >>
      m.orthogonality_err_max >> m.orthogonality_err_mean >> m.kinetic_max >> m.energy_magnitude >> m.momentum_magnitude >>
      m.linear_momentum_magnitude >> m.external_work_max >> m.energy_gain_max >> m.energy_gain_t >> m.constraint_err_t >>
      m.orthogonality_err_t;
  read(r, m.energy_growth);
  read(r, m.momentum_growth);
}

void write(ResultWriter& w, const Measurement& m) {
  write(w, m.outcome);
  write(w, m.counters);
  write(w, m.metrics);
  write(w, m.window_metrics);
  w << m.runtime_s << m.runtime_spread << m.t_final << m.final_physical << m.extra_columns << m.host;
}
void read(ResultReader& r, Measurement& m) {
  read(r, m.outcome);
  read(r, m.counters);
  read(r, m.metrics);
  read(r, m.window_metrics);
  r >> m.runtime_s >> m.runtime_spread >> m.t_final >> m.final_physical >> m.extra_columns >> m.host;
}

void write(ResultWriter& w, const SummaryRow& row) {
  w << row.case_name << row.integrator << row.discretisation << row.h << row.rtol << row.atol << row.t_end;
  write(w, row.counters);
  write(w, row.metrics);
  w << row.shared_t_end;
  write(w, row.shared_metrics);
  w << row.rotations << row.runtime_s << row.host;
  write(w, row.outcome);
}
void read(ResultReader& r, SummaryRow& row) {
  r >> row.case_name >> row.integrator >> row.discretisation >> row.h >> row.rtol >> row.atol >> row.t_end;
  read(r, row.counters);
  read(r, row.metrics);
  r >> row.shared_t_end;
  read(r, row.shared_metrics);
  r >> row.rotations >> row.runtime_s >> row.host;
  read(r, row.outcome);
}

namespace {

// A case file's hash, read once per process (every job of the case asks for it while planning).
std::string file_hash(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> hashes;
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = hashes.find(path); it != hashes.end()) return it->second;
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return hashes[path] = in ? fingerprint_of(s.str()) : "unreadable";
}

std::string settings_text(const IntegratorSettings& s) {
  std::string out = "h=" + format_g(s.h, 17);
  for (const auto& [key, value] : s.values()) out += "," + key + "=" + format_g(value, 17);
  return out;
}

// A plugin's model or integrator: its version and file hash ("" for built-in ones, so that their
// fingerprints are what they were before plugins existed).
std::string origin_text(const Case& c, const std::string& entry) {
  const auto it = c.origins.find(entry);
  return it == c.origins.end() ? std::string() : ";" + entry + " from " + it->second;
}

}  // namespace

std::string case_inputs(const Case& c) {
  std::string out = "case=" + c.name + ";file=" + file_hash(c.file) + ";model=" + fingerprint_of(c.model_inputs) +
                    origin_text(c, "model " + c.model_name);
  for (const auto& [name, s] : c.settings) out += ";" + name + "{" + settings_text(s) + "}" + origin_text(c, "integrator " + name);
  return out;
}

std::string run_inputs(const Case& c, const std::string& integrator) {
  // The horizon too: --full-horizon changes it without changing the file.
  return "case=" + c.name + ";file=" + file_hash(c.file) + ";model=" + fingerprint_of(c.model_inputs) + ";" + integrator +
         "{" + settings_text(c.settings_for(integrator)) + "};t_end=" + format_g(c.t_end_for(integrator), 17) +
         origin_text(c, "model " + c.model_name) + origin_text(c, "integrator " + integrator);
}

}  // namespace tb
