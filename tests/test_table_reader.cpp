// Tests for tb::TableReader: every bad input must name the file, the dotted key and what was
// expected (and found). Small TOML files are written into a fresh temporary directory.
#include "core/table_reader.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using tb::TableReader;

// A unique temporary directory, removed with everything in it at scope exit.
struct TempDir {
  fs::path dir;
  TempDir() {
    std::random_device rd;
    dir = fs::temp_directory_path() /
          ("tb_table_reader_" + std::to_string(rd()) + "_" + std::to_string(rd()));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string write(const std::string& name, const std::string& content) const {
    const fs::path p = dir / name;
    std::ofstream(p) << content;
    return p.string();
  }
};

// The message of the tb::InputError thrown by f, or a marker if none was thrown.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const tb::InputError& e) {
    return e.what();
  }
  return "<no InputError thrown>";
}

}  // namespace

TEST_CASE("missing file is reported with its path", "[table_reader]") {
  TempDir tmp;
  const std::string path = (tmp.dir / "no_such_case.toml").string();
  const std::string msg = error_of([&] { TableReader::parse_file(path); });
  CHECK(msg == path + ": cannot read case file: no such file");

  const std::string dir_msg = error_of([&] { TableReader::parse_file(tmp.dir.string()); });
  CHECK_THAT(dir_msg, Contains(tmp.dir.string() + ": cannot read case file: it is a directory"));
}

TEST_CASE("TOML syntax error names the file and the line", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("bad.toml", "[model]\nEA = = 40\n");
  const std::string msg = error_of([&] { TableReader::parse_file(path); });
  CHECK_THAT(msg, Contains(path + ": TOML syntax error (line 2)"));
  CHECK_THAT(msg, Contains("EA = = 40"));  // toml11's own description follows
}

TEST_CASE("missing required key", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml", "[model]\nN = 4\n");
  auto model = TableReader::parse_file(path).table("model");
  CHECK(error_of([&] { model.positive("EA"); }) ==
        path + ": missing key 'model.EA': expected a finite number > 0");
  CHECK(error_of([&] { model.vec3("g"); }) ==
        path + ": missing key 'model.g': expected an array of 3 finite numbers");
  CHECK(error_of([&] { TableReader::parse_file(path).table("initial"); }) ==
        path + ": missing key 'initial': expected a table");
}

TEST_CASE("a missing key names the table's key that is one edit from it, and only such a key", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml", "[model]\nmasss = 1.0\nlenght = 2.0\nN = 4\ngravity_constant = 9.8\n");
  auto model = TableReader::parse_file(path).table("model");
  CHECK(error_of([&] { model.positive("mass"); }) ==
        path + ": missing key 'model.mass': expected a finite number > 0 (the table has 'model.masss' (line 2): misspelt?)");
  // Two edits (a transposition) from a key under 8 letters: not offered; from a long key: offered.
  CHECK(error_of([&] { model.positive("length"); }) == path + ": missing key 'model.length': expected a finite number > 0");
  CHECK(error_of([&] { model.positive("gravity_konstant"); }).find("(the table has 'model.gravity_constant' (line 5)") !=
        std::string::npos);
  // Short keys are all near each other: none is offered for 'EA' (N is one deletion and one edit away).
  CHECK(error_of([&] { model.positive("EA"); }) == path + ": missing key 'model.EA': expected a finite number > 0");
}

TEST_CASE("wrong type names the type found", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[model]\n"
                                     "EA = \"forty\"\n"
                                     "name = 3\n"
                                     "flag = true\n"
                                     "g = { x = 1 }\n"
                                     "body = 5\n");
  auto model = TableReader::parse_file(path).table("model");
  CHECK(error_of([&] { model.number("EA"); }) ==
        path + ": key 'model.EA' (line 2): expected a finite number, got a string (\"forty\")");
  CHECK(error_of([&] { model.string("name"); }) ==
        path + ": key 'model.name' (line 3): expected a string, got 3");
  CHECK(error_of([&] { model.positive("flag"); }) ==
        path + ": key 'model.flag' (line 4): expected a finite number > 0, got a boolean (true)");
  CHECK(error_of([&] { model.vec3("g"); }) ==
        path + ": key 'model.g' (line 5): expected an array of 3 finite numbers, got a table");
  CHECK(error_of([&] { model.table("body"); }) ==
        path + ": key 'model.body' (line 6): expected a table, got 5");
}

TEST_CASE("range checks: negative and zero where positive is required", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[model]\n"
                                     "EA = -3\n"
                                     "L = 0\n"
                                     "c = -0.5\n"
                                     "d = 0.0\n");
  auto model = TableReader::parse_file(path).table("model");
  CHECK(error_of([&] { model.positive("EA"); }) ==
        path + ": key 'model.EA' (line 2): expected a finite number > 0, got -3");
  CHECK(error_of([&] { model.positive("L"); }) ==
        path + ": key 'model.L' (line 3): expected a finite number > 0, got 0");
  CHECK(error_of([&] { model.positive("d"); }) ==
        path + ": key 'model.d' (line 5): expected a finite number > 0, got 0.0");
  CHECK(error_of([&] { model.non_negative("c"); }) ==
        path + ": key 'model.c' (line 4): expected a finite number >= 0, got -0.5");
  CHECK(model.non_negative("L") == 0.0);
  CHECK(model.non_negative("d") == 0.0);
}

TEST_CASE("float where an integer is required", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[model]\n"
                                     "N = 20.0\n"
                                     "M = 0\n"
                                     "K = -2\n"
                                     "P = \"3\"\n"
                                     "Q = 3000000000\n");
  auto model = TableReader::parse_file(path).table("model");
  CHECK(error_of([&] { model.positive_integer("N"); }) ==
        path + ": key 'model.N' (line 2): expected an integer >= 1, got 20.0");
  CHECK(error_of([&] { model.positive_integer("M"); }) ==
        path + ": key 'model.M' (line 3): expected an integer >= 1, got 0");
  CHECK(error_of([&] { model.positive_integer("K"); }) ==
        path + ": key 'model.K' (line 4): expected an integer >= 1, got -2");
  CHECK(error_of([&] { model.positive_integer("P"); }) ==
        path + ": key 'model.P' (line 5): expected an integer >= 1, got a string (\"3\")");
  CHECK(error_of([&] { model.positive_integer("Q"); }) ==
        path + ": key 'model.Q' (line 6): expected an integer between 1 and 2147483647, got 3000000000");
}

TEST_CASE("vec3 and mat3 of the wrong shape", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[initial]\n"
                                     "r0 = [1.0, 2.0]\n"
                                     "v0 = [1, \"x\", 3]\n"
                                     "w0 = 7\n"
                                     "R0 = [[1, 0, 0], [0, 1], [0, 0, 1]]\n"
                                     "R1 = [[1, 0, 0], [0, 1, 0]]\n"
                                     "R2 = [[1, 0, 0], [0, 1, 0], [0, 0, true]]\n"
                                     "e = []\n");
  auto init = TableReader::parse_file(path).table("initial");
  CHECK(error_of([&] { init.vec3("r0"); }) ==
        path + ": key 'initial.r0' (line 2): expected an array of 3 finite numbers, got an array of 2 elements");
  CHECK(error_of([&] { init.vec3("v0"); }) ==
        path + ": key 'initial.v0[1]' (line 3): expected a finite number, got a string (\"x\")");
  CHECK(error_of([&] { init.vec3("w0"); }) ==
        path + ": key 'initial.w0' (line 4): expected an array of 3 finite numbers, got 7");
  CHECK(error_of([&] { init.vec3("e"); }) ==
        path + ": key 'initial.e' (line 8): expected an array of 3 finite numbers, got an array of 0 elements");
  CHECK(error_of([&] { init.mat3("R0"); }) ==
        path + ": key 'initial.R0[1]' (line 5): expected a row of 3 finite numbers, got an array of 2 elements");
  CHECK(error_of([&] { init.mat3("R1"); }) ==
        path + ": key 'initial.R1' (line 6): expected an array of 3 rows, each an array of 3 finite numbers, "
               "got an array of 2 elements");
  CHECK(error_of([&] { init.mat3("R2"); }) ==
        path + ": key 'initial.R2[2][2]' (line 7): expected a finite number, got a boolean (true)");
  // An optional vec3 that is present but malformed is an error, not the default.
  CHECK_THAT(error_of([&] { init.vec3_or("r0", tb::Vec3::Zero()); }),
             Contains("key 'initial.r0' (line 2): expected an array of 3 finite numbers"));
}

TEST_CASE("unknown key (typo) is reported by finish() with the known keys", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "dt = 0.01\n"
                                     "[model]\n"
                                     "EA = 40\n"
                                     "EAA = 41\n"
                                     "N = 20\n");
  auto root = TableReader::parse_file(path);
  auto model = root.table("model");
  CHECK(model.number("EA") == 40.0);
  CHECK(model.positive_integer("N") == 20);
  CHECK(model.positive_or("damping", 1.0) == 1.0);  // asked for, absent: still a known key
  CHECK(error_of([&] { model.finish(); }) ==
        path + ": unknown key 'model.EAA' (line 4) in [model] (expected one of: EA, N, damping)");

  // Top level: 'dt' was never read.
  CHECK(error_of([&] { root.finish(); }) ==
        path + ": unknown key 'dt' (line 1) at the top level (expected one of: model)");
  CHECK(root.positive("dt") == 0.01);
  CHECK_NOTHROW(root.finish());

  // Several unknown keys: one line each.
  const std::string path2 = tmp.write("case2.toml", "a = 1\nb = 2\n");
  auto r2 = TableReader::parse_file(path2);
  CHECK(error_of([&] { r2.finish(); }) ==
        path2 + ": unknown key 'a' (line 1) at the top level (this table takes no keys)\n" + path2 +
            ": unknown key 'b' (line 2) at the top level (this table takes no keys)");
}

TEST_CASE("nan and inf are rejected", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[model]\n"
                                     "a = nan\n"
                                     "b = inf\n"
                                     "c = -inf\n"
                                     "g = [0.0, 0.0, nan]\n"
                                     "d = +inf\n");
  auto model = TableReader::parse_file(path).table("model");
  CHECK(error_of([&] { model.number("a"); }) ==
        path + ": key 'model.a' (line 2): expected a finite number, got nan");
  CHECK(error_of([&] { model.positive("b"); }) ==
        path + ": key 'model.b' (line 3): expected a finite number > 0, got inf");
  CHECK(error_of([&] { model.non_negative_or("c", 1.0); }) ==
        path + ": key 'model.c' (line 4): expected a finite number >= 0, got -inf");
  CHECK(error_of([&] { model.vec3("g"); }) ==
        path + ": key 'model.g[2]' (line 5): expected a finite number, got nan");
  CHECK(error_of([&] { model.positive_or("d", 2.0); }) ==
        path + ": key 'model.d' (line 6): expected a finite number > 0, got inf");
}

TEST_CASE("nested tables report the full dotted key", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[model]\n"
                                     "EA = 1\n"
                                     "[model.body]\n"
                                     "a = \"wide\"\n"
                                     "b = 2\n");
  auto root = TableReader::parse_file(path);
  auto model = root.table("model");
  auto body = model.table("body");
  CHECK(body.dotted("a") == "model.body.a");
  CHECK(error_of([&] { body.positive("a"); }) ==
        path + ": key 'model.body.a' (line 4): expected a finite number > 0, got a string (\"wide\")");
  CHECK(error_of([&] { body.finish(); }) ==
        path + ": unknown key 'model.body.b' (line 5) in [model.body] (expected one of: a)");
  CHECK(error_of([&] { model.finish(); }) ==
        path + ": unknown key 'model.EA' (line 2) in [model] (expected one of: body)");
  CHECK_NOTHROW(root.finish());  // 'model' was read via table()
  CHECK(error_of([&] { body.fail("a", "a width in metres", "\"wide\""); }) ==
        path + ": key 'model.body.a' (line 4): expected a width in metres, got \"wide\"");
}

TEST_CASE("happy path reads every type", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "title = \"pendulum\"\n"
                                     "integrator = \"rk4\"\n"
                                     "[model]\n"
                                     "EA = 40\n"
                                     "L = 2.5\n"
                                     "c = 0\n"
                                     "N = 20\n"
                                     "g = [0, 0, -9.81]\n"
                                     "R0 = [[1, 2, 3], [4, 5, 6], [7, 8, 9.5]]\n"
                                     "damping = 0.3\n"
                                     "steps = 7\n"
                                     "offset = [1, 2, 3]\n"
                                     "[model.body]\n"
                                     "m = 1e3\n"
                                     "[output]\n");
  auto root = TableReader::parse_file(path);
  CHECK(root.file() == path);
  CHECK(root.dotted("x") == "x");
  CHECK(root.keys() == std::vector<std::string>{"integrator", "model", "output", "title"});
  CHECK(root.has("model"));
  CHECK_FALSE(root.has("initial"));
  CHECK(root.string("title") == "pendulum");
  CHECK(root.one_of("integrator", {"euler", "rk4"}) == "rk4");

  auto model = root.table("model");
  CHECK(model.number("EA") == 40.0);  // integer accepted as a number
  CHECK(model.positive("L") == 2.5);
  CHECK(model.non_negative("c") == 0.0);
  CHECK(model.positive_integer("N") == 20);
  CHECK(model.vec3("g") == tb::Vec3(0.0, 0.0, -9.81));
  tb::Mat3 R;
  R << 1, 2, 3, 4, 5, 6, 7, 8, 9.5;  // row-major as written
  CHECK(model.mat3("R0") == R);
  // *_or: present values win, defaults only when absent.
  CHECK(model.positive_or("damping", 9.0) == 0.3);
  CHECK(model.positive_or("stiffness", 9.0) == 9.0);
  CHECK(model.non_negative_or("friction", 0.0) == 0.0);
  CHECK(model.positive_integer_or("steps", 1) == 7);
  CHECK(model.positive_integer_or("substeps", 4) == 4);
  CHECK(model.vec3_or("offset", tb::Vec3::Zero()) == tb::Vec3(1, 2, 3));
  CHECK(model.vec3_or("gravity", tb::Vec3(0, 0, -1)) == tb::Vec3(0, 0, -1));
  auto body = model.table("body");
  CHECK(body.positive("m") == 1000.0);
  CHECK_NOTHROW(body.finish());
  CHECK_NOTHROW(model.finish());

  auto output = root.optional_table("output");
  REQUIRE(output.has_value());
  CHECK(output->keys().empty());
  CHECK_NOTHROW(output->finish());
  CHECK_FALSE(root.optional_table("initial").has_value());
  CHECK_NOTHROW(root.finish());
}

TEST_CASE("present-but-invalid optional keys are errors, not the default", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "damping = -1\n"
                                     "friction = \"none\"\n"
                                     "steps = 2.0\n"
                                     "integrator = \"rk5\"\n"
                                     "output = 3\n");
  auto root = TableReader::parse_file(path);
  CHECK(error_of([&] { root.positive_or("damping", 1.0); }) ==
        path + ": key 'damping' (line 1): expected a finite number > 0, got -1");
  CHECK(error_of([&] { root.non_negative_or("friction", 0.0); }) ==
        path + ": key 'friction' (line 2): expected a finite number >= 0, got a string (\"none\")");
  CHECK(error_of([&] { root.positive_integer_or("steps", 1); }) ==
        path + ": key 'steps' (line 3): expected an integer >= 1, got 2.0");
  CHECK(error_of([&] { root.one_of("integrator", {"euler", "rk4"}); }) ==
        path + ": key 'integrator' (line 4): expected one of [\"euler\", \"rk4\"], got \"rk5\"");
  CHECK(error_of([&] { root.optional_table("output"); }) ==
        path + ": key 'output' (line 5): expected a table, got 3");
}

TEST_CASE("optional non-negative lists: zero accepted, negative, empty and non-numbers refused", "[table_reader]") {
  TempDir tmp;
  const std::string path = tmp.write("case.toml",
                                     "[report]\n"
                                     "ok = [0.0, 1, 10.0]\n"
                                     "negative = [0.0, -1.0]\n"
                                     "empty = []\n"
                                     "word = [1.0, \"x\"]\n"
                                     "scalar = 3.0\n"
                                     "positive = [0.0]\n");
  auto report = TableReader::parse_file(path).table("report");
  CHECK(report.non_negative_list_or("ok", {}) == std::vector<double>{0.0, 1.0, 10.0});
  CHECK(report.non_negative_list_or("absent", {2.0}) == std::vector<double>{2.0});
  CHECK(error_of([&] { report.non_negative_list_or("negative", {}); }) ==
        path + ": key 'report.negative[1]' (line 3): expected a finite number >= 0, got -1.0");
  CHECK(error_of([&] { report.non_negative_list_or("empty", {}); }) ==
        path + ": key 'report.empty' (line 4): expected a non-empty array of finite numbers >= 0, got an array of 0 elements");
  CHECK_THAT(error_of([&] { report.non_negative_list_or("word", {}); }),
             Contains("'report.word[1]'") && Contains("expected a finite number >= 0, got a string (\"x\")"));
  CHECK_THAT(error_of([&] { report.non_negative_list_or("scalar", {}); }),
             Contains("expected a non-empty array of finite numbers >= 0, got 3.0"));
  // The positive list still refuses zero after the two share their checks.
  CHECK(error_of([&] { report.positive_list("positive"); }) ==
        path + ": key 'report.positive[0]' (line 7): expected a finite number > 0, got 0.0");
}
