#include "app/running/job_result.hpp"

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "app/input/case.hpp"
#include "app/common/fingerprint.hpp"
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

}  // namespace

CaseIdentity identity_of(const Case& c) {
  CaseIdentity id{c.name, file_hash(c.file), fingerprint_of(c.model_inputs), ""};
  if (const auto it = c.origins.find("model " + c.model_name); it != c.origins.end()) id.model_origin = it->second;
  return id;
}

IntegratorInputs integrator_inputs(const Case& c, const std::string& integrator, const IntegratorSettings& s) {
  IntegratorInputs out{integrator, s.h, {}, ""};
  for (const auto& [key, value] : s.values()) out.settings.push_back({key, value, ""});
  for (const auto& [key, word] : s.words()) out.settings.push_back({key, 0.0, word});
  // One order whatever the kind: by key (a setting changing kind between versions is a new key).
  std::sort(out.settings.begin(), out.settings.end(),
            [](const SettingValue& a, const SettingValue& b) { return a.key < b.key; });
  if (const auto it = c.origins.find("integrator " + integrator); it != c.origins.end()) out.origin = it->second;
  return out;
}

CaseInputs case_inputs_of(const Case& c) {
  CaseInputs out{identity_of(c), {}};
  for (const auto& [name, s] : c.settings) out.integrators.push_back(integrator_inputs(c, name, s));
  return out;
}

RunInputs run_inputs_of(const Case& c, const std::string& integrator) {
  return {identity_of(c), integrator_inputs(c, integrator, c.settings_for(integrator)), c.t_end_for(integrator)};
}

std::string case_inputs(const Case& c) { return record_text(case_inputs_of(c)); }
std::string run_inputs(const Case& c, const std::string& integrator) { return record_text(run_inputs_of(c, integrator)); }

std::string job_inputs(std::string of, std::vector<JobParameter> parameters) {
  return record_text(JobInputs{std::move(of), std::move(parameters)});
}

}  // namespace tb
