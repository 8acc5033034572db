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

}  // namespace tb::testing
