#pragma once
// A bundled case file with one piece of text replaced, loaded through load_case(): the
// InputError message it produces, for tests of a model's input checks.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "tests/test_support.hpp"

namespace tb::testing {

inline std::string input_error_of_variant(const std::string& case_file, const std::string& from, const std::string& to) {
  namespace fs = std::filesystem;
  std::ifstream in(case_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::random_device rd;
  const fs::path file = fs::temp_directory_path() / ("tb_case_variant_" + std::to_string(rd()) + std::to_string(rd()) + ".toml");
  std::ofstream(file) << text;
  std::string message = "<no InputError thrown>";
  try {
    load_case(file.string());
  } catch (const InputError& e) {
    message = e.what();
  }
  fs::remove(file);
  return message;
}

}  // namespace tb::testing
