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
