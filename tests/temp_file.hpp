#pragma once
// A file with the given content under the system's temporary folder, removed when it goes out of
// scope: for tests of readers that take a path.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace tb::testing {

struct TempFile {
  std::filesystem::path path;
  // `stem` names the test in the file's name (a leftover file says whose it is).
  TempFile(const std::string& stem, const std::string& content) {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() / (stem + std::to_string(rd()) + std::to_string(rd()) + ".csv");
    std::ofstream(path) << content;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

// A fresh folder under the system's temporary folder, named after `what` (the caller removes it).
inline std::filesystem::path scratch_dir(const std::string& what) {
  std::random_device rd;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tb_" + what + "_" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace tb::testing
