#include "app/jobs/job_store.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "app/common/fingerprint.hpp"
#include "app/common/output_folder.hpp"  // write_file_whole
#include "app/running/job_result.hpp"

namespace tb {

namespace {
constexpr const char* kMagic = "tetherbench job result 4";  // 3: with the build and time; 4: a run's momentum drift and episode
}  // namespace

std::string JobStore::path(const std::string& key) const {
  return (std::filesystem::path(dir_) / (fingerprint_of(key) + ".job")).string();
}

std::optional<FinishedJob> JobStore::load(const std::string& key, const std::string& label, const std::string& fingerprint) const {
  if (dir_.empty()) return std::nullopt;
  std::ifstream in(path(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  try {
    const std::string text = s.str();
    ResultReader r(text);
    std::string magic, stored_label, stored_fingerprint;
    FinishedJob f;
    r >> magic >> stored_label >> stored_fingerprint >> f.seconds >> f.host >> f.type >> f.build >> f.finished_at >> f.bytes;
    r.expect_end();
    if (magic != kMagic || stored_label != label || stored_fingerprint != fingerprint) return std::nullopt;  // stale
    return f;
  } catch (const std::exception&) {
    return std::nullopt;  // not a whole result: run the job again
  }
}

void JobStore::save(const std::string& key, const std::string& label, const std::string& fingerprint, const FinishedJob& f) {
  if (dir_.empty() || !f.storable) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::filesystem::create_directories(dir_);
  ResultWriter w;
  w << std::string(kMagic) << label << fingerprint << f.seconds << f.host << f.type << f.build << f.finished_at << f.bytes;
  write_file_whole(path(key), w.bytes());
}

}  // namespace tb
