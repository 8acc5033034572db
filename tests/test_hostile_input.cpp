// Hostile input, table-driven: case files, command lines, data files and special files that
// the `tetherbench` executable must refuse as the contract says (README "The command line",
// cases/README.md): exit status 2 with a message on stderr naming the file or option, the key
// and what was expected, before anything is written; 3 for an I/O error; 0 for the few rows
// that must succeed (proof that the harness can pass).
//
// Every row runs the compiled binary in its own sandbox folder (inputs in in/, the command's
// working directory cwd/ that must stay empty, TMPDIR tmp/ that must stay empty, --out out/
// that must not exist after a refusal). Around every row the suite compares snapshots (names,
// sizes, modification times) of the whole suite folder and of the repository's cases/,
// reference/, reports/ and top-level entries: nothing may change outside out/, and out/ may
// change only in rows that are expected to succeed.
//
// A row the product once handled against the contract stays, marked "was a contract
// violation", with what went wrong then: these are the regressions most worth catching.

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------------------------------------
// The harness

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) s.replace(pos, from.size(), to);
}

// One argument for /bin/sh, byte for byte (newlines, quotes, empty strings, non-UTF-8 bytes).
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

// Printable form of a text for the failure report (control and non-ASCII bytes escaped).
std::string printable(const std::string& s, std::size_t max = 1500) {
  std::string out;
  for (unsigned char ch : s.substr(0, max)) {
    if (ch == '\n' || (ch >= 0x20 && ch < 0x7f)) out += char(ch);
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    }
  }
  return s.size() > max ? out + "...[" + std::to_string(s.size() - max) + " more bytes]" : out;
}

// The folders of one row.
struct Box {
  fs::path root;  // the suite's temp folder (parent of every box)
  fs::path dir;   // this row's sandbox
  fs::path in, cwd, tmp, capture, out;

  // {cases}, {ref}: the repository's folders; {in}, {out}, {box}: this row's.
  std::string expand(std::string s) const {
    replace_all(s, "{cases}", TETHERBENCH_CASES_DIR);
    replace_all(s, "{ref}", TETHERBENCH_REFERENCE_DIR);
    replace_all(s, "{in}", in.string());
    replace_all(s, "{out}", out.string());
    replace_all(s, "{box}", dir.string());
    return s;
  }
};

using Setup = std::function<void(const Box&)>;

struct Row {
  std::string what;
  std::vector<std::string> args;        // placeholders as in Box::expand
  int status;                           // the contract's exit status
  std::vector<std::string> fragments;   // must appear in stderr (placeholders expanded)
  Setup setup = {};                     // writes the row's inputs into {in}
  int timeout_s = 20;                   // a hang is killed (TERM, then KILL 2 s later)
  std::vector<std::string> creates = {};  // success rows: paths that must exist afterwards
};

// A snapshot of a folder tree: relative path -> type, and size and mtime for files.
using Snapshot = std::map<std::string, std::string>;

std::string describe_entry(const fs::directory_entry& e) {
  std::error_code ec;
  const auto st = e.symlink_status(ec);
  if (fs::is_directory(st)) return "dir";
  if (fs::is_regular_file(st)) {
    const auto size = fs::file_size(e.path(), ec);
    const auto mtime = fs::last_write_time(e.path(), ec).time_since_epoch().count();
    return "file " + std::to_string(size) + " " + std::to_string(mtime);
  }
  if (fs::is_symlink(st)) return "symlink " + fs::read_symlink(e.path(), ec).string();
  if (fs::is_fifo(st)) return "fifo";
  return "other";
}

Snapshot snapshot(const fs::path& dir, bool recursive, const std::set<fs::path>& skip = {}) {
  Snapshot s;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return s;
  if (!recursive) {
    for (const auto& e : fs::directory_iterator(dir)) s[e.path().filename().string()] = fs::is_directory(e.symlink_status()) ? "dir" : "entry";
    return s;
  }
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    if (skip.count(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    s[it->path().lexically_relative(dir).string()] = describe_entry(*it);
  }
  return s;
}

// Differences between two snapshots, except under `allowed` (a relative prefix; "" = none).
std::vector<std::string> differences(const Snapshot& before, const Snapshot& after, const std::string& where,
                                     const std::string& allowed = "") {
  auto is_allowed = [&](const std::string& p) {
    return !allowed.empty() && (p == allowed || p.rfind(allowed + "/", 0) == 0);
  };
  std::vector<std::string> out;
  for (const auto& [p, d] : after) {
    if (is_allowed(p)) continue;
    const auto it = before.find(p);
    if (it == before.end()) out.push_back(where + ": added " + p + " (" + d + ")");
    else if (it->second != d) out.push_back(where + ": changed " + p + " (" + it->second + " -> " + d + ")");
  }
  for (const auto& [p, d] : before)
    if (!is_allowed(p) && !after.count(p)) out.push_back(where + ": removed " + p);
  return out;
}

// The repository's folders nobody may write into, and its top-level entries.
struct RepoSnapshot {
  Snapshot cases, reference, reports, top;
  static RepoSnapshot take() {
    return {snapshot(TETHERBENCH_CASES_DIR, true), snapshot(TETHERBENCH_REFERENCE_DIR, true),
            snapshot(fs::path(TETHERBENCH_SOURCE_DIR) / "reports", true), snapshot(TETHERBENCH_SOURCE_DIR, false)};
  }
  std::vector<std::string> compare(const RepoSnapshot& after) const {
    std::vector<std::string> d = differences(cases, after.cases, "cases/");
    for (auto&& x : differences(reference, after.reference, "reference/")) d.push_back(x);
    for (auto&& x : differences(reports, after.reports, "reports/")) d.push_back(x);
    for (auto&& x : differences(top, after.top, "repository top level")) d.push_back(x);
    return d;
  }
};

struct Result {
  int status = -1;
  std::string command, out, err;
};

class Suite {
 public:
  Suite() {
    std::random_device rd;
    root_ = fs::temp_directory_path() / ("tb_hostile_" + std::to_string(rd()));
    fs::create_directories(root_);
  }
  ~Suite() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  Suite(const Suite&) = delete;
  Suite& operator=(const Suite&) = delete;

  Box box() {
    Box b;
    b.root = root_;
    b.dir = root_ / ("row" + std::to_string(++rows_));
    b.in = b.dir / "in";
    b.cwd = b.dir / "cwd";
    b.tmp = b.dir / "tmp";
    b.capture = b.dir / "capture";
    b.out = b.dir / "out";
    for (const auto& d : {b.in, b.cwd, b.tmp, b.capture}) fs::create_directories(d);
    return b;
  }
  const fs::path& root() const { return root_; }

 private:
  fs::path root_;
  int rows_ = 0;
};

Result run_row(const Box& b, const Row& row) {
  Result r;
  std::string args;
  for (const auto& a : row.args) {
    args += ' ';
    args += shell_quote(b.expand(a));
  }
  r.command = std::string(TETHERBENCH_BINARY) + args;
  // The command runs in an empty folder with an empty TMPDIR, without core dumps, and is killed
  // if it hangs: TERM after the timeout (the program's handler only notes the first), KILL 2 s later.
  const std::string shell = "cd " + shell_quote(b.cwd.string()) + " && ulimit -c 0 && TMPDIR=" +
                            shell_quote(b.tmp.string()) + " timeout -k 2 " + std::to_string(row.timeout_s) + " " +
                            shell_quote(TETHERBENCH_BINARY) + args + " </dev/null >" +
                            shell_quote((b.capture / "stdout").string()) + " 2>" +
                            shell_quote((b.capture / "stderr").string());
  const int w = std::system(shell.c_str());
  r.status = WIFEXITED(w) ? WEXITSTATUS(w) : (WIFSIGNALED(w) ? 128 + WTERMSIG(w) : -1);
  r.out = read_file(b.capture / "stdout");
  r.err = read_file(b.capture / "stderr");
  return r;
}

std::string status_meaning(int status) {
  switch (status) {
    case 124: return " (timeout: killed by TERM)";
    case 137: return " (hang: killed by KILL after TERM was ignored)";
    case 134: return " (SIGABRT)";
    case 139: return " (SIGSEGV: crash)";
    default: return "";
  }
}

// Runs every row of a class and checks the contract on each.
void check_rows(Suite& suite, const std::string& cls, const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    const Box b = suite.box();
    if (row.setup) row.setup(b);
    const bool out_existed = fs::exists(b.out);
    const std::set<fs::path> skip = {b.capture};
    const Snapshot box_before = snapshot(suite.root(), true, skip);
    const RepoSnapshot repo_before = RepoSnapshot::take();

    const auto start = std::chrono::steady_clock::now();
    const Result r = run_row(b, row);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const Snapshot box_after = snapshot(suite.root(), true, skip);
    const RepoSnapshot repo_after = RepoSnapshot::take();
    // Only rows expected to succeed (or to fail a run) may write, and only into their --out.
    const std::string allowed = row.status == 0 || row.status == 1 ? b.out.lexically_relative(suite.root()).string() : "";
    std::vector<std::string> written = differences(box_before, box_after, "suite temp folder", allowed);
    for (auto&& d : repo_before.compare(repo_after)) written.push_back(d);

    if (const char* log = std::getenv("TB_HOSTILE_LOG")) {  // optional: one record per row, for review
      std::ofstream(log, std::ios::app) << "[" << cls << "] " << row.what << "\n  command: " << printable(r.command)
                                        << "\n  status " << r.status << status_meaning(r.status) << " (expected " << row.status
                                        << "), " << seconds << " s\n  stderr: " << printable(r.err, 600) << "\n";
    }
    INFO("[" << cls << "] " << row.what);
    INFO("command: " << printable(r.command));
    INFO("status " << r.status << status_meaning(r.status) << " (expected " << row.status << "), " << seconds << " s");
    INFO("stderr: " << printable(r.err));
    INFO("stdout: " << printable(r.out, 400));
    CHECK(r.status == row.status);
    // The usage hint "(see `tetherbench --help`)" is not a message naming an option: a fragment
    // such as "--h" must be found in the message itself.
    std::string message = r.err;
    replace_all(message, "(see `tetherbench --help`)", "");
    for (const auto& f : row.fragments) {
      const std::string fragment = b.expand(f);
      INFO("expected in stderr: " << printable(fragment));
      CHECK(message.find(fragment) != std::string::npos);
    }
    if (row.status == 2) {
      CHECK_FALSE(r.err.empty());
      if (!out_existed) CHECK_FALSE(fs::exists(b.out));  // refused before anything is written
    }
    for (const auto& c : row.creates) {
      INFO("expected to exist: " << b.expand(c));
      CHECK(fs::exists(b.expand(c)));
    }
    {
      std::string list;
      for (const auto& w : written) list += "\n  " + printable(w);
      INFO("written outside what the row may write:" << list);
      CHECK(written.empty());
    }
    CHECK(fs::is_empty(b.cwd));  // no stray relative writes
    CHECK(fs::is_empty(b.tmp));  // no temporary files left behind
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs

// A bundled case file with `from` replaced by `to` (placeholders expanded; `from` must occur),
// written as {in}/file.
Setup variant(const std::string& file, const std::string& bundled, const std::string& from, const std::string& to) {
  return [=](const Box& b) {
    std::string text = read_file(fs::path(TETHERBENCH_CASES_DIR) / bundled);
    if (!from.empty()) {
      const auto pos = text.find(from);
      INFO("bundled " << bundled << " holds '" << from << "'");
      REQUIRE(pos != std::string::npos);
      text.replace(pos, from.size(), b.expand(to));
    }
    write_file(b.in / file, text);
  };
}

Setup copy_of(const std::string& file, const std::string& bundled) { return variant(file, bundled, "", ""); }

Setup text(const std::string& file, const std::string& content) {
  return [=](const Box& b) { write_file(b.in / file, b.expand(content)); };
}

Setup random_bytes(const std::string& file, std::size_t n, unsigned seed) {
  return [=](const Box& b) {
    std::mt19937 gen(seed);
    std::string bytes(n, '\0');
    for (auto& ch : bytes) ch = char(gen() & 0xff);
    write_file(b.in / file, bytes);
  };
}

Setup fifo(const std::string& file) {
  return [=](const Box& b) { REQUIRE(::mkfifo((b.in / file).c_str(), 0600) == 0); };
}

Setup folder(const std::string& path) {
  return [=](const Box& b) { fs::create_directories(b.expand(path)); };
}

Setup all(std::vector<Setup> setups) {
  return [=](const Box& b) {
    for (const auto& s : setups) s(b);
  };
}

// Bundled cases used as bases.
const std::string kPendulum = "T_planar_pendulum_60deg.toml";    // rk2, rk4, rk45, ida, lgvi; not the Lie group ODE methods
const std::string kPaper = "A_string_pendulum_paper.toml";       // Model A
const std::string kTether = "T_hanging_tether_lumped.toml";      // ODE, constrained, lgvi, ida (no Baumgarte rates): not the Lie group ODE methods
const std::string kMultirotor = "C_single_multirotor.toml";      // Model C
const std::string kCooperative = "C_cooperative_multirotors.toml";  // Model C, with [report.error_spread]
const std::string kElastic = "T_elastic_pendulum.toml";
const std::string kP = "{cases}/" + kPendulum;
const std::string kH = "{cases}/" + kTether;
const std::string kPendulumName = "name = \"T_planar_pendulum_60deg\"";

const std::string kEnvelopeHeader = "case,integrator,metric,bound_type,bound,policy,recorded_value,failure_kind,failure_step,note\n";
std::string envelope_row(const std::string& metric, const std::string& bound_type, const std::string& bound,
                         const std::string& policy = "recorded", const std::string& recorded = "1e-7",
                         const std::string& kind = "", const std::string& step = "0") {
  return "T_planar_pendulum_60deg,rk4," + metric + "," + bound_type + "," + bound + "," + policy + "," + recorded + "," + kind +
         "," + step + ",\"\"\n";
}

// A refused case file run through `run`: the file, the key and what was expected are named.
Row bad_case(const std::string& what, const std::string& bundled, const std::string& from, const std::string& to,
             std::vector<std::string> fragments) {
  fragments.insert(fragments.begin(), "{in}/case.toml");
  return {what, {"run", "{in}/case.toml", "--out", "{out}"}, 2, fragments, variant("case.toml", bundled, from, to)};
}

// The same through another command.
Row bad_case_via(const std::string& what, std::vector<std::string> args, const std::string& bundled,
                 const std::string& from, const std::string& to, std::vector<std::string> fragments) {
  fragments.insert(fragments.begin(), "{in}/case.toml");
  return {what, std::move(args), 2, fragments, variant("case.toml", bundled, from, to)};
}

Row bad_option(const std::string& what, std::vector<std::string> args, std::vector<std::string> fragments,
               Setup setup = {}) {
  return {what, std::move(args), 2, std::move(fragments), std::move(setup)};
}

Row bad_envelopes(const std::string& what, const std::string& content, std::vector<std::string> fragments) {
  fragments.insert(fragments.begin(), "{in}/envelopes.csv");
  return {what, {"gate", kP, "--envelopes", "{in}/envelopes.csv"}, 2, fragments, text("envelopes.csv", content)};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Class 1: case files (variants of bundled case files with one text replacement)

TEST_CASE("hostile case files are refused with exit 2, the file, the key and what was expected", "[hostile]") {
  Suite suite;
  const std::string id = "an identifier";
  const std::vector<Row> rows = {
      // Names: an identifier of 1 to 100 letters, digits, '_', '-', '.', never "." or "..".
      bad_case("name with a parent path", kPendulum, kPendulumName, "name = \"../../x\"", {"'case.name'", id, "../../x"}),
      bad_case("absolute name", kPendulum, kPendulumName, "name = \"/abs\"", {"'case.name'", id, "/abs"}),
      bad_case("absolute name into the sandbox", kPendulum, kPendulumName, "name = \"{box}/escape\"", {"'case.name'", id}),
      bad_case("empty name", kPendulum, kPendulumName, "name = \"\"", {"'case.name'", id}),
      bad_case("name with a line break", kPendulum, kPendulumName, "name = \"a\\nb\"", {"'case.name'", id}),
      bad_case("name '.'", kPendulum, kPendulumName, "name = \".\"", {"'case.name'", id}),
      bad_case("name '..'", kPendulum, kPendulumName, "name = \"..\"", {"'case.name'", id}),
      bad_case("name of 101 characters", kPendulum, kPendulumName, "name = \"" + std::string(101, 'n') + "\"",
               {"'case.name'", "1 to 100"}),
      bad_case("name with a space", kPendulum, kPendulumName, "name = \"a b\"", {"'case.name'", id}),
      bad_case("name with a backslash", kPendulum, kPendulumName, "name = \"a\\\\b\"", {"'case.name'", id}),
      bad_case("non-ASCII name", kPendulum, kPendulumName, "name = \"caf\u00e9\"", {"'case.name'", id}),
      bad_case("name of the wrong type", kPendulum, kPendulumName, "name = 5", {"'case.name'", "expected a string", "5"}),
      bad_case_via("bad name through table", {"table", "{in}/case.toml", "--out", "{out}"}, kPendulum, kPendulumName,
                   "name = \"../x\"", {"'case.name'", id}),
      bad_case_via("bad name through reference (--out given)", {"reference", "{in}/case.toml", "--out", "{out}"}, kPendulum,
                   kPendulumName, "name = \"..\"", {"'case.name'", id}),
      bad_case_via("bad name through gate", {"gate", "{in}/case.toml"}, kPendulum, kPendulumName, "name = \"/abs\"",
                   {"'case.name'", id}),
      // Was a contract violation (judgment call): "summary.csv" passes the identifier rule but names the
      // command's own output file: run writes OUT/summary.csv/rk4/timeseries.csv, then fails with exit 3.
      bad_case_via("name colliding with the command's own output (summary.csv)",
                   {"run", "{in}/case.toml", "--t-end", "0.01", "--integrator", "rk4", "--out", "{out}"}, kPendulum,
                   kPendulumName, "name = \"summary.csv\"", {"'case.name'", "summary.csv"}),
      // Numbers: finite, positive where physical.
      bad_case("t_end = nan", kPendulum, "t_end = 10.0", "t_end = nan", {"'case.t_end'", "expected a finite number > 0", "nan"}),
      bad_case("t_end = inf", kPendulum, "t_end = 10.0", "t_end = inf", {"'case.t_end'", "expected a finite number > 0", "inf"}),
      bad_case("t_end = -1", kPendulum, "t_end = 10.0", "t_end = -1.0", {"'case.t_end'", "expected a finite number > 0", "-1"}),
      bad_case("h = 0", kPendulum, "h = 1.0e-3", "h = 0.0", {"'case.h'", "expected a finite number > 0"}),
      bad_case("h = -inf", kPendulum, "h = 1.0e-3", "h = -inf", {"'case.h'", "expected a finite number > 0"}),
      bad_case("h > t_end", kPendulum, "h = 1.0e-3", "h = 20.0", {"'case.h'", "no longer than t_end"}),
      bad_case("sample_interval = 0", kPendulum, "sample_interval = 1.0e-2", "sample_interval = 0",
               {"'case.sample_interval'", "expected a finite number > 0"}),
      bad_case("mass is a string", kPendulum, "mass = 1.0", "mass = \"1.0\"", {"'model.mass'", "expected a finite number", "string"}),
      bad_case("length is a boolean", kPendulum, "length = 1.0", "length = true", {"'model.length'", "boolean"}),
      bad_case("negative gravity", kPendulum, "gravity = 9.81", "gravity = -9.81", {"'model.gravity'", ">= 0"}),
      bad_case("angle_deg = 180", kPendulum, "angle_deg = 60.0", "angle_deg = 180.0", {"'initial.angle_deg'", "180"}),
      bad_case("angle_deg = nan", kPendulum, "angle_deg = 60.0", "angle_deg = nan", {"'initial.angle_deg'", "nan"}),
      bad_case("elements = 0", kPaper, "elements = 20", "elements = 0", {"'model.elements'", "integer >= 1"}),
      bad_case("elements above INT_MAX", kPaper, "elements = 20", "elements = 2147483648",
               {"'model.elements'", "2147483647"}),
      bad_case("elements as a float", kPaper, "elements = 20", "elements = 20.0", {"'model.elements'", "integer"}),
      bad_case("tether elements = 1 (needs >= 2)", kTether, "elements = 20", "elements = 1", {"'model.elements'", "2"}),
      bad_case("R0 not a rotation", kPaper, "R0 = [[1.0, 0.0, 0.0]", "R0 = [[1.1, 0.0, 0.0]", {"'initial.R0'", "rotation"}),
      bad_case("R0 with 2 rows", kPaper, "R0 = [[1.0, 0.0, 0.0], ", "R0 = [", {"'initial.R0'", "3 rows"}),
      bad_case("rho_c with inf", kPaper, "rho_c = [0.04", "rho_c = [inf", {"'model.rho_c[0]'", "finite"}),
      bad_case("tether anchors without a horizontal span", kTether, "anchor_B = [8.0, 0.0, 1.0]", "anchor_B = [0.0, 0.0, 1.0]",
               {"anchor"}),
      bad_case("tether shape unknown", kTether, "shape = \"straight\"", "shape = \"wiggly\"", {"'initial.shape'", "straight"}),
      bad_case("negative damping", kTether, "damping_rate = 4.0", "damping_rate = -4.0", {"'model.damping_rate'", ">= 0"}),
      bad_case("cable elevation 90 deg", kMultirotor, "cable_elevation_deg = 30.0", "cable_elevation_deg = 90.0",
               {"'initial.cable_elevation_deg'"}),
      // Structure: unknown keys and tables, missing keys, unknown model, TOML errors.
      bad_case("unknown key (typo beside the key)", kPendulum, "length = 1.0", "length = 1.0\nlenght = 1.0",
               {"unknown key 'model.lenght'", "length"}),
      bad_case("misspelt key (the real one missing)", kPendulum, "length = 1.0", "lenght = 1.0", {"'model.length'"}),
      bad_case("unknown top-level table", kPendulum, "[model]", "[extra]\nx = 1\n\n[model]", {"unknown key 'extra'"}),
      bad_case("missing [report]", kElastic, "[report]\n", "[reprot]\n", {"missing key 'report'"}),
      bad_case("missing description", kPendulum, "description = ", "# description = ", {"missing key 'case.description'"}),
      bad_case("unknown model", kPendulum, "model = \"planar_pendulum\"", "model = \"nope\"", {"'case.model'", "planar_pendulum"}),
      bad_case("duplicate key (TOML error)", kPendulum, "mass = 1.0", "mass = 1.0\nmass = 2.0", {"TOML syntax error"}),
      bad_case("integer literal beyond int64", kPaper, "elements = 20", "elements = 99999999999999999999",
               {"'model.elements'"}),
      // [integrators] and [case] integrators: settings that could never act.
      bad_case("[integrators.lie_generalized_alpha] for a model it cannot run", kPendulum, "[integrators.rk45]",
               "[integrators.lie_generalized_alpha]\nnewton_tol = 1e-12\n\n[integrators.rk45]",
               {"'integrators.lie_generalized_alpha'", "cannot run"}),
      // ida runs the tether's implicit ODE, which has no constraint: a Baumgarte rate would act on nothing.
      bad_case("[integrators.ida] Baumgarte rate for the hanging tether", kTether, "[report]",
               "[integrators.ida]\nbaumgarte_p = 30.0\n\n[report]",
               {"'integrators.ida.baumgarte_p'", "nothing to act on", "nothing for Baumgarte stabilisation to act on"}),
      bad_case("[integrators.ida] attitude rate for the elastic pendulum", kElastic, "[integrators.rk45]",
               "[integrators.ida]\nbaumgarte_gamma = 5.0\n\n[integrators.rk45]",
               {"'integrators.ida.baumgarte_gamma'", "no constraint and no attitude"}),
      bad_case("[integrators.rk9] unknown integrator", kPendulum, "[integrators.rk45]", "[integrators.rk9]",
               {"'integrators.rk9'", "rk45"}),
      bad_case("integrator setting out of range", kPendulum, "rtol = 1.0e-10", "rtol = -1.0e-10",
               {"'integrators.rk45.rtol'", "> 0"}),
      bad_case("integrator setting it does not read", kPendulum, "rtol = 1.0e-10", "rtol = 1.0e-10\nnewton_tol = 1e-3",
               {"unknown key 'integrators.rk45.newton_tol'"}),
      // Word settings: the allowed words named; a retired integer code refused with the word it stood for.
      bad_case("word setting with a word not in its list", kPendulum, "[integrators.rk45]",
               "[integrators.rattle4]\nscheme = \"ruth\"\n\n[integrators.rk45]",
               {"'integrators.rattle4.scheme'", "expected one of the words \"suzuki\", \"yoshida\"", "got \"ruth\""}),
      bad_case("word setting given its retired integer code", kPendulum, "[integrators.rk45]",
               "[integrators.rattle4]\nscheme = 0\n\n[integrators.rk45]",
               {"'integrators.rattle4.scheme'", "one of the words \"suzuki\", \"yoshida\"",
                "got 0 (the retired code of \"yoshida\": write the word, as a TOML string)"}),
      bad_case("word setting given a number that was never a code", kPendulum, "[integrators.rk45]",
               "[integrators.rattle4]\nscheme = 2.5\n\n[integrators.rk45]",
               {"'integrators.rattle4.scheme'", "write it as a TOML string, e.g. \"suzuki\""}),
      bad_case("number setting given a word", kPendulum, "rtol = 1.0e-10", "rtol = \"tight\"",
               {"'integrators.rk45.rtol'", "a finite number > 0"}),
      // A study's table varies a setting the case file thereby gives (StudySection::settings_varied):
      // on an unconstrained model the Baumgarte rate has nothing to act on.
      bad_case("setting_sweep of a setting that acts on nothing in the case", kElastic, "[report]\n",
               "[report.setting_sweep]\nintegrator = \"ida\"\nsetting = \"baumgarte_p\"\nvalues = [1.0, 10.0]\n\n[report]\n",
               {"'report.setting_sweep.setting'", "nothing to act on"}),
      bad_case("setting_sweep of a word setting", kPendulum, "integrator = \"ida\"\nsetting = \"baumgarte_p\"",
               "integrator = \"rattle4\"\nsetting = \"scheme\"", {"'report.setting_sweep.setting'", "newton_tol"}),
      bad_case("[case] integrators of which nothing runs", kPendulum, "sample_interval = 1.0e-2",
               "sample_interval = 1.0e-2\nintegrators = [\"lie_generalized_alpha\"]", {"'case.integrators'", "none"}),
      bad_case("[case] integrators all n/a on the tether", kTether, "sample_interval = 5.0e-3",
               "sample_interval = 5.0e-3\nintegrators = [\"cf4\", \"lie_generalized_alpha\"]", {"'case.integrators'", "none"}),
      bad_case("[case] integrators empty", kPendulum, "sample_interval = 1.0e-2", "sample_interval = 1.0e-2\nintegrators = []",
               {"'case.integrators'", "non-empty"}),
      bad_case("[case] integrators unknown name", kPendulum, "sample_interval = 1.0e-2",
               "sample_interval = 1.0e-2\nintegrators = [\"rk5\"]", {"'case.integrators[0]'", "rk45"}),
      // [case] integrator_t_end
      bad_case("integrator_t_end of an unknown integrator", kPendulum, "sample_interval = 1.0e-2",
               "sample_interval = 1.0e-2\nintegrator_t_end = { rk9 = 1.0 }", {"'case.integrator_t_end.rk9'", "rk45"}),
      bad_case("integrator_t_end past the case's t_end", kPendulum, "sample_interval = 1.0e-2",
               "sample_interval = 1.0e-2\nintegrator_t_end = { ida = 11.0 }",
               {"'case.integrator_t_end.ida'", "no longer than the case's t_end"}),
      bad_case("integrator_t_end of an integrator that cannot run the model", kPendulum, "sample_interval = 1.0e-2",
               "sample_interval = 1.0e-2\nintegrator_t_end = { cf4 = 1.0 }", {"'case.integrator_t_end.cf4'", "runs model"}),
      bad_case("integrator_t_end of zero", kPendulum, "sample_interval = 1.0e-2",
               "sample_interval = 1.0e-2\nintegrator_t_end = { ida = 0.0 }", {"'case.integrator_t_end.ida'", "> 0"}),
      // [report.parameter_map]
      bad_case("parameter_map of a key [model] does not have", kMultirotor, "parameter = \"link_mass\"",
               "parameter = \"link_weight\"", {"'report.parameter_map.parameter'", "link_mass"}),
      bad_case("parameter_map of an adaptive integrator", kMultirotor, "integrator = \"lgvi\"\nparameter",
               "integrator = \"rk45\"\nparameter", {"'report.parameter_map.integrator'", "fixed-step"}),
      bad_case("parameter_map compared with an adaptive integrator", kMultirotor, "compare_with = \"rattle\"",
               "compare_with = \"rk45\"", {"'report.parameter_map.compare_with'", "fixed-step"}),
      bad_case("parameter_map compared with itself", kMultirotor, "compare_with = \"rattle\"",
               "compare_with = \"lgvi\"", {"'report.parameter_map.compare_with'", "other than 'integrator'"}),
      bad_case("parameter_map compared with an unknown integrator", kMultirotor, "compare_with = \"rattle\"",
               "compare_with = \"shake\"", {"'report.parameter_map.compare_with'", "rattle"}),
      // rk4 cannot solve lgvi's discrete equations: a failure of both would not be the method's limit.
      bad_case("parameter_map compared with a method of another order and symmetry", kMultirotor,
               "compare_with = \"rattle\"", "compare_with = \"rk4\"",
               {"'report.parameter_map.compare_with'", "the same discrete equations as 'lgvi' (order 2, symmetric, symplectic)",
                "'rk4' (order 4, not symmetric, not symplectic)"}),
      bad_case("parameter_map compared with a method of the same order that is not symplectic", kMultirotor,
               "compare_with = \"rattle\"", "compare_with = \"generalized_alpha\"",
               {"'report.parameter_map.compare_with'", "'generalized_alpha' (order 2, not symmetric, not symplectic)"}),
      bad_case("parameter_map of an integer parameter with a fraction", kMultirotor,
               "parameter = \"link_mass\"\nvalues = [1.0e-2, 1.0e-3", "parameter = \"links_per_cable\"\nvalues = [2.0, 2.5",
               {"'report.parameter_map.values'", "integers, like [model] links_per_cable"}),
      bad_case("parameter_map with a negative step", kMultirotor, "steps = [1.0e-3, 2.0e-4", "steps = [-1.0e-3, 2.0e-4",
               {"'report.parameter_map.steps[0]'", "> 0"}),
      bad_case("error_spread of a run the case has not", kCooperative, "runs = [\"lgvi\", \"rattle\", \"rk45\"]",
               "runs = [\"lgvi\", \"rk4@lumped\"]", {"'report.error_spread.runs[1]'", "rk4@lumped"}),
      bad_case("error_spread of a key [model] does not have", kCooperative, "parameter = \"gravity\"",
               "parameter = \"g\"", {"'report.error_spread.parameter'", "gravity"}),
      bad_case("error_spread of an integer key", kCooperative, "parameter = \"gravity\"",
               "parameter = \"links_per_cable\"", {"'report.error_spread.parameter'", "real-valued"}),
      bad_case("error_spread with a negative value", kCooperative, "values = [9.810000000000009]", "values = [-9.81]",
               {"'report.error_spread.values[0]'", "> 0"}),
      // [report]
      bad_case("reference_t_end = 0", kPendulum, "reference_t_end = 2.0", "reference_t_end = 0.0", {"'report.reference_t_end'", "> 0"}),
      bad_case("steps is a string", kPendulum, "steps = [4.0e-3, 2.0e-3, 1.0e-3, 5.0e-4]", "steps = \"fast\"", {"'report.steps'", "array"}),
      bad_case("tolerances with a zero", kPendulum, "tolerances = [1.0e-4", "tolerances = [0.0", {"'report.tolerances[0]'", "> 0"}),
      bad_case("setting_sweep of an integrator without settings", kPendulum, "integrator = \"ida\"", "integrator = \"rk4\"",
               {"'report.setting_sweep.integrator'", "rk4"}),
      bad_case("setting_sweep of lie_generalized_alpha, which cannot run the model", kPendulum,
               "integrator = \"ida\"\nsetting = \"baumgarte_p\"\nvalues = [0.0, ",
               "integrator = \"lie_generalized_alpha\"\nsetting = \"newton_tol\"\nvalues = [1.0e-3, ",
               {"'report.setting_sweep.integrator'", "lie_generalized_alpha"}),
      bad_case("setting_sweep of an unknown setting", kPendulum, "setting = \"baumgarte_p\"", "setting = \"nope\"",
               {"'report.setting_sweep.setting'", "baumgarte_p"}),
      bad_case("setting_sweep with a negative value", kPendulum, "values = [0.0,", "values = [-1.0,",
               {"'report.setting_sweep.values[0]'", ">= 0"}),
      bad_case("setting_sweep with no values", kPendulum, "values = [0.0, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0]",
               "values = []", {"'report.setting_sweep.values'"}),
      // Resource guards: steps, samples, state size.
      bad_case("t_end / h = 1e10 steps", kPendulum, "t_end = 10.0", "t_end = 1.0e7", {"'case.h'", "1e+09", "--max-steps"}),
      bad_case("h = 1e-300", kPendulum, "h = 1.0e-3", "h = 1.0e-300", {"'case.h'", "--max-steps"}),
      bad_case("t_end / sample_interval = 1e10 samples", kPendulum, "sample_interval = 1.0e-2", "sample_interval = 1.0e-9",
               {"'case.sample_interval'", "1e+07", "--max-samples"}),
      bad_case("gate_t_end / h = 1e10 steps", kPendulum, "gate_t_end = 2.0", "gate_t_end = 1.0e7",
               {"'report.gate_t_end'", "--max-steps"}),
      bad_case("reference_t_end / min(steps) = 2e12 steps", kPendulum, "steps = [4.0e-3", "steps = [1.0e-12",
               {"'report.steps'", "--max-steps"}),
      bad_case("long_time_steps not a whole number", kPendulum, "long_time_steps = 1000000", "long_time_steps = 1500.5",
               {"'report.long_time_steps'", "whole number"}),
      bad_case("long_time_steps below 1000", kPendulum, "long_time_steps = 1000000", "long_time_steps = 10",
               {"'report.long_time_steps'", ">= 1000"}),
      bad_case("long_time_steps = 1e10 over --max-steps", kPendulum, "long_time_steps = 1000000", "long_time_steps = 1.0e10",
               {"'report.long_time_steps'", "--max-steps"}),
      bad_case("setting sweep t_end / h = 1e10 steps", kPendulum, "values = [0.0, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0]",
               "values = [0.0, 1.0]\nt_end = 1.0e7", {"'report.setting_sweep.t_end'", "--max-steps"}),
      bad_case("elements = 1e9 (state size)", kPaper, "elements = 20", "elements = 1000000000",
               {"[model]", "elements = 1000000000", "1e+07", "--max-state"}),
      bad_case("links_per_cable = INT_MAX (state size)", kMultirotor, "links_per_cable = 10", "links_per_cable = 2147483647",
               {"[model]", "links_per_cable = 2147483647", "--max-state"}),
      bad_case("multirotors = INT_MAX (state size)", kMultirotor, "multirotors = 1", "multirotors = 2147483647",
               {"[model]", "multirotors = 2147483647", "--max-state"}),
      bad_case("tether elements = 1e9 (state size)", kTether, "elements = 20", "elements = 1000000000",
               {"[model]", "elements = 1000000000", "--max-state"}),
      bad_case_via("resource guard through study", {"study", "work_precision", "{in}/case.toml", "--out", "{out}"}, kPendulum,
                   "h = 1.0e-3", "h = 1.0e-300", {"'case.h'", "--max-steps"}),
      bad_case_via("resource guard through report", {"report", "{in}/case.toml", "--no-benchmarks", "--no-plots", "--out", "{out}"},
                   kPendulum, "sample_interval = 1.0e-2", "sample_interval = 1.0e-9", {"'case.sample_interval'", "--max-samples"}),
      // Two cases with one name in one command.
      {"two files with one case name (table)",
       {"table", "{in}/a.toml", "{in}/b.toml", "--out", "{out}"},
       2,
       {"{in}/b.toml", "'case.name'", "dup_name"},
       all({variant("a.toml", kPendulum, kPendulumName, "name = \"dup_name\""),
            variant("b.toml", kElastic, "name = \"T_elastic_pendulum\"", "name = \"dup_name\"")})},
      {"a copy of a bundled case beside it (report)",
       {"report", kP, "{in}/copy.toml", "--no-benchmarks", "--no-plots", "--out", "{out}"},
       2,
       {"{in}/copy.toml", "'case.name'", "T_planar_pendulum_60deg"},
       copy_of("copy.toml", kPendulum)},
      {"one file twice (study)",
       {"study", "setting_sweep", kP, kP, "--out", "{out}"},
       2,
       {kP, "'case.name'"}},
  };
  check_rows(suite, "case files", rows);
}

// ---------------------------------------------------------------------------------------------
// Class 2: command lines

TEST_CASE("hostile command lines are refused with exit 2, naming the option and what was expected", "[hostile]") {
  Suite suite;
  const std::string positive = "expected a finite number > 0";
  const std::vector<Row> rows = {
      // run --h / --t-end: finite and positive, the whole text, h <= t_end, within the limits.
      bad_option("run --h nan", {"run", kP, "--h", "nan", "--out", "{out}"}, {"--h", positive, "'nan'"}),
      bad_option("run --h inf", {"run", kP, "--h", "inf", "--out", "{out}"}, {"--h", positive, "'inf'"}),
      bad_option("run --h -1", {"run", kP, "--h", "-1", "--out", "{out}"}, {"--h", positive, "'-1'"}),
      bad_option("run --h 0", {"run", kP, "--h", "0", "--out", "{out}"}, {"--h", positive, "'0'"}),
      bad_option("run --h 1e-300 (steps over the limit)", {"run", kP, "--h", "1e-300", "--out", "{out}"},
                 {"--h 1e-300", "--max-steps"}),
      // Was a contract violation: an empty --h / --t-end is taken as "not given" and the run goes ahead.
      bad_option("run --h '' (empty)", {"run", kP, "--h", "", "--t-end", "0.01", "--integrator", "rk4", "--out", "{out}"},
                 {"--h", positive}),
      bad_option("run --h 1e-3s (trailing junk)", {"run", kP, "--h", "1e-3s", "--out", "{out}"}, {"--h", positive, "'1e-3s'"}),
      bad_option("run --h 0x1p-10junk", {"run", kP, "--h", "0x1p-10junk", "--out", "{out}"}, {"--h", positive}),
      bad_option("run --t-end nan", {"run", kP, "--t-end", "nan", "--out", "{out}"}, {"--t-end", positive, "'nan'"}),
      bad_option("run --t-end -1", {"run", kP, "--t-end", "-1", "--out", "{out}"}, {"--t-end", positive}),
      bad_option("run --t-end '' (empty)", {"run", kP, "--t-end", "", "--integrator", "rk4", "--out", "{out}"},
                 {"--t-end", positive}),
      bad_option("run --t-end 1e-3s", {"run", kP, "--t-end", "1e-3s", "--out", "{out}"}, {"--t-end", positive, "'1e-3s'"}),
      bad_option("run --t-end 1e400 (overflows to inf)", {"run", kP, "--t-end", "1e400", "--out", "{out}"}, {"--t-end", positive}),
      bad_option("run --t-end 1e300 (steps over the limit)", {"run", kP, "--t-end", "1e300", "--out", "{out}"},
                 {"--t-end", "--max-steps"}),
      bad_option("run --h 20 > case t_end", {"run", kP, "--h", "20", "--out", "{out}"}, {"--h", "end time"}),
      bad_option("run --h 1e-3 --t-end 1e-4", {"run", kP, "--h", "1e-3", "--t-end", "1e-4", "--out", "{out}"}, {"--h", "end time"}),
      bad_option("run --h given twice", {"run", kP, "--h", "1e-3", "--h", "2e-3", "--out", "{out}"}, {"--h"}),
      // run --repeats: an integer in [1, 1000].
      bad_option("run --repeats 0", {"run", kP, "--repeats", "0", "--out", "{out}"}, {"--repeats", "1 to 1000", "'0'"}),
      bad_option("run --repeats 1001", {"run", kP, "--repeats", "1001", "--out", "{out}"}, {"--repeats", "'1001'"}),
      bad_option("run --repeats 1.5", {"run", kP, "--repeats", "1.5", "--out", "{out}"}, {"--repeats", "'1.5'"}),
      bad_option("run --repeats 99999999999999999999", {"run", kP, "--repeats", "99999999999999999999", "--out", "{out}"},
                 {"--repeats"}),
      // --out: non-empty, not an existing regular file.
      bad_option("run --out ''", {"run", kP, "--out", ""}, {"--out", "empty path"}),
      bad_option("run --out an existing regular file", {"run", kP, "--out", "{in}/file.txt"}, {"--out", "{in}/file.txt", "existing file"},
                 text("file.txt", "not a folder\n")),
      bad_option("run --out /dev/null", {"run", kP, "--out", "/dev/null"}, {"--out", "/dev/null"}),
      // An output folder that cannot be made is a usage error before anything runs (it was
      // status 3 from the filesystem after the runs).
      bad_option("run --out below a regular file", {"run", kP, "--t-end", "0.01", "--integrator", "rk4", "--out", "{in}/f/sub"},
                 {"--out", "{in}/f/sub", "is an existing file, not a folder"}, text("f", "x\n")),
      bad_option("report --out below a regular file", {"report", kP, "--no-benchmarks", "--no-plots", "--out", "{in}/f/sub"},
                 {"--out", "{in}/f/sub", "expected a folder that can be made"}, text("f", "x\n")),
      bad_option("table --out whose summary.csv is a folder", {"table", kP, "--out", "{out}"},
                 {"--out", "summary.csv exists and is not a regular file"},
                 all({folder("{out}"), [](const Box& b) { fs::create_directories(b.out / "summary.csv"); }})),
      bad_option("study --out whose study output is a folder",
                 {"study", "long_time", kP, "--param", "steps=1000", "--out", "{out}"},
                 {"--out", "long_time.csv exists and is not a regular file"},
                 all({folder("{out}"), [](const Box& b) { fs::create_directories(b.out / "long_time.csv"); }})),
      bad_option("--plugin that does not exist", {"list", "--plugin", "{in}/missing.so"}, {"--plugin", "{in}/missing.so", "no such file"}),
      bad_option("--plugin that is not a shared library", {"list", "--plugin", "{in}/notes.so"},
                 {"--plugin", "{in}/notes.so", "cannot be loaded", "expected a shared library built with TETHERBENCH_PLUGIN"},
                 text("notes.so", "plain text\n")),
      bad_option("--data-dir without the data", {"list", "--data-dir", "{in}"}, {"--data-dir", "{in}", "missing cases/, reference/, scripts/"}),
      bad_option("--reference-dir that does not exist", {"report", kP, "--no-benchmarks", "--reference-dir", "{in}/none", "--out", "{out}"},
                 {"--reference-dir", "{in}/none", "expected an existing folder"}),
      bad_option("run --out given twice", {"run", kP, "--out", "{out}", "--out", "{out}2"}, {"--out"}),
      bad_option("run appending to a foreign summary.csv", {"run", kP, "--t-end", "0.01", "--integrator", "rk4", "--out", "{out}"},
                 {"{out}/summary.csv", "header"}, all({folder("{out}"), [](const Box& b) { write_file(b.out / "summary.csv", "a,b,c\n1,2,3\n"); }})),
      // --integrator
      bad_option("run --integrator repeated", {"run", kP, "--integrator", "rk4", "--integrator", "rk4", "--out", "{out}"},
                 {"--integrator", "'rk4'", "twice"}),
      bad_option("run --integrator unknown", {"run", kP, "--integrator", "bogus", "--out", "{out}"},
                 {"--integrator", "'bogus'", "rk45"}),
      bad_option("run --integrator ''", {"run", kP, "--integrator", "", "--out", "{out}"}, {"--integrator", "''"}),
      bad_option("run --integrator that cannot run the case", {"run", kP, "--integrator", "cf4", "--out", "{out}"},
                 {"--integrator", "cf4", "none of the chosen"}),
      // --set NAME.KEY=VALUE: exactly one TOML value for one declared key.
      bad_option("--set cvode projection with Adams (settings valid alone, not together)",
                 {"run", kP, "--set", "cvode.adams=1", "--set", "cvode.project=1", "--out", "{out}"},
                 {"--set cvode.project=1", "'integrators.cvode.project'", "0 when adams = 1"}),
      bad_option("a setting sweep value that cannot run with the case's settings",
                 {"study", "setting_sweep", "{cases}/T_free_rigid_body.toml", "--set", "cvode.adams=1", "--out", "{out}"},
                 {"T_free_rigid_body.toml", "'report.setting_sweep.values'", "0 when adams = 1", "project = 1"}),
      bad_case("cvode projection with Adams in the case file", "T_free_rigid_body.toml", "[integrators.cvode]\n",
               "[integrators.cvode]\nadams = 1\nproject = 1\n", {"'integrators.cvode.project'", "0 when adams = 1"}),
      bad_option("--set with a line break", {"run", kP, "--set", "ida.rtol=1e-6\nida.atol=1", "--out", "{out}"},
                 {"--set", "one line"}),
      bad_option("--set with a carriage return", {"run", kP, "--set", "ida.rtol=1e-6\rida.atol=1", "--out", "{out}"},
                 {"--set", "one line"}),
      bad_option("--set with two values in one", {"run", kP, "--set", "ida.rtol=1e-6 2e-6", "--out", "{out}"},
                 {"--set ida.rtol=1e-6 2e-6", "not a TOML value"}),
      bad_option("--set with two values as two words", {"run", kP, "--set", "ida.rtol=1e-6", "ida.atol=1e-8", "--out", "{out}"},
                 {"ida.atol=1e-8"}),
      bad_option("--set an array", {"run", kP, "--set", "ida.rtol=[1e-6, 2e-6]", "--out", "{out}"},
                 {"--set", "'integrators.ida.rtol'", positive}),
      bad_option("--set a string", {"run", kP, "--set", "ida.rtol=\"1e-6\"", "--out", "{out}"}, {"'integrators.ida.rtol'", "string"}),
      bad_option("--set nan", {"run", kP, "--set", "ida.rtol=nan", "--out", "{out}"}, {"'integrators.ida.rtol'", positive}),
      bad_option("--set out of range", {"run", kP, "--set", "ida.baumgarte_p=-1", "--out", "{out}"},
                 {"'integrators.ida.baumgarte_p'", ">= 0"}),
      bad_option("--set a non-integer count", {"run", "{cases}/" + kPaper, "--set", "lgvi.max_newton_iters=1.5", "--out", "{out}"},
                 {"'integrators.lgvi.max_newton_iters'", "integer"}),
      bad_option("--set unknown integrator", {"run", kP, "--set", "rk5.rtol=1e-6", "--out", "{out}"}, {"--set", "'rk5'", "rk45"}),
      bad_option("--set unknown key", {"run", kP, "--set", "ida.nope=1", "--out", "{out}"}, {"'integrators.ida.nope'"}),
      bad_option("--set without a value", {"run", kP, "--set", "ida.rtol", "--out", "{out}"}, {"--set ida.rtol", "NAME.KEY=VALUE"}),
      bad_option("--set without a name", {"run", kP, "--set", ".rtol=1", "--out", "{out}"}, {"--set .rtol=1", "NAME.KEY=VALUE"}),
      bad_option("--set for an integrator that runs none of the cases",
                 {"run", kP, "--set", "lie_generalized_alpha.newton_tol=1e-10", "--out", "{out}"},
                 {"--set lie_generalized_alpha.newton_tol=1e-10", "runs none of the cases"}),
      bad_option("--set a Baumgarte rate that acts on none of the cases", {"run", kH, "--set", "ida.baumgarte_p=5", "--out", "{out}"},
                 {"--set ida.baumgarte_p=5", "nothing to act on", "T_hanging_tether_lumped", "no constraint"}),
      // Resource limits as options.
      bad_option("run --max-steps nan", {"run", kP, "--max-steps", "nan", "--out", "{out}"}, {"--max-steps", positive}),
      // Was a contract violation: an empty --max-steps is taken as the default.
      bad_option("run --max-steps ''", {"run", kP, "--max-steps", "", "--t-end", "0.01", "--integrator", "rk4", "--out", "{out}"},
                 {"--max-steps", positive}),
      bad_option("run --max-steps 10 (the case is over it)", {"run", kP, "--max-steps", "10", "--out", "{out}"},
                 {kP, "'case.h'", "--max-steps"}),
      bad_option("table --max-samples inf", {"table", kP, "--max-samples", "inf", "--out", "{out}"}, {"--max-samples", positive}),
      bad_option("table --max-samples 5 (the case is over it)", {"table", kP, "--max-samples", "5", "--out", "{out}"},
                 {kP, "'case.sample_interval'", "--max-samples"}),
      bad_option("run --max-state 0", {"run", kP, "--max-state", "0", "--out", "{out}"}, {"--max-state", positive}),
      bad_option("run --max-state 1 (the model is over it)", {"run", kP, "--max-state", "1", "--out", "{out}"},
                 {kP, "[model]", "--max-state"}),
      bad_option("study --max-state ''", {"study", "catenary", kH, "--param", "elements=4,8", "--max-state", "", "--out", "{out}"},
                 {"--max-state", positive}),
      // Positional arguments, subcommands, unknown options.
      bad_option("no subcommand", {}, {"subcommand"}),
      // Was a contract violation: the message ("A subcommand is required") does not name 'frobnicate'.
      bad_option("unknown subcommand", {"frobnicate", kP}, {"frobnicate"}),
      bad_option("unknown option", {"run", kP, "--frob", "--out", "{out}"}, {"--frob"}),
      bad_option("list with an extra argument", {"list", "extra"}, {"extra"}),
      bad_option("run without CASE_FILE", {"run", "--out", "{out}"}, {"CASE_FILE"}),
      bad_option("run with a nonexistent CASE_FILE", {"run", "{in}/nope.toml", "--out", "{out}"}, {"{in}/nope.toml"}),
      bad_option("run with two CASE_FILEs", {"run", kP, kH, "--out", "{out}"}, {kH}),
      bad_option("run with an empty CASE_FILE", {"run", "", "--out", "{out}"}, {"CASE_FILE"}),
      // table
      bad_option("table --repeats -1", {"table", kP, "--repeats", "-1", "--out", "{out}"}, {"--repeats", "'-1'"}),
      bad_option("table --repeats ''", {"table", kP, "--repeats", "", "--out", "{out}"}, {"--repeats"}),
      bad_option("table --out ''", {"table", kP, "--out", ""}, {"--out", "empty path"}),
      bad_option("table --out an existing regular file", {"table", kP, "--out", "{in}/file.txt"}, {"--out", "{in}/file.txt"},
                 text("file.txt", "x\n")),
      bad_option("table --set with a line break", {"table", kP, "--set", "rk45.rtol=1e-6\nrk45.atol=1", "--out", "{out}"},
                 {"--set", "one line"}),
      bad_option("table with a nonexistent case", {"table", kP, "{in}/nope.toml", "--out", "{out}"}, {"{in}/nope.toml"}),
      // report
      bad_option("report --jobs 0", {"report", kP, "--jobs", "0", "--no-benchmarks", "--no-plots", "--out", "{out}"},
                 {"--jobs", "1 to 1024", "'0'"}),
      bad_option("report --jobs 1025", {"report", kP, "--jobs", "1025", "--no-benchmarks", "--no-plots", "--out", "{out}"},
                 {"--jobs", "'1025'"}),
      bad_option("report --jobs 2x", {"report", kP, "--jobs", "2x", "--no-benchmarks", "--no-plots", "--out", "{out}"},
                 {"--jobs", "'2x'"}),
      bad_option("report --jobs ''", {"report", kP, "--jobs", "", "--no-benchmarks", "--no-plots", "--out", "{out}"}, {"--jobs"}),
      bad_option("report --no-plots=maybe", {"report", kP, "--no-benchmarks", "--no-plots=maybe", "--out", "{out}"},
                 {"--no-plots"}),
      bad_option("report --resume=maybe", {"report", kP, "--no-benchmarks", "--no-plots", "--resume=maybe", "--out", "{out}"},
                 {"--resume"}),
      bad_option("table --jobs 0", {"table", kP, "--jobs", "0", "--out", "{out}"}, {"--jobs", "1 to 1024", "'0'"}),
      bad_option("report --out an existing regular file", {"report", kP, "--no-benchmarks", "--no-plots", "--out", "{in}/f"},
                 {"--out", "{in}/f"}, text("f", "x\n")),
      bad_option("report --set two values", {"report", kP, "--no-benchmarks", "--no-plots", "--set", "rk45.rtol=1 2", "--out", "{out}"},
                 {"--set rk45.rtol=1 2", "not a TOML value"}),
      bad_option("report --max-steps -1", {"report", kP, "--no-benchmarks", "--no-plots", "--max-steps", "-1", "--out", "{out}"},
                 {"--max-steps", positive}),
      bad_option("report --param of no study", {"report", kP, "--no-benchmarks", "--no-plots", "--param", "nosuch.steps=1", "--out", "{out}"},
                 {"--param nosuch.steps=1", "no study 'nosuch'", "stability_map"}),
      bad_option("report --param without STUDY.", {"report", kP, "--no-benchmarks", "--no-plots", "--param", "steps=1000", "--out", "{out}"},
                 {"--param steps=1000", "STUDY.KEY=VALUE"}),
      bad_option("report --param of an unknown key", {"report", kP, "--no-benchmarks", "--no-plots", "--param", "long_time.bogus=1", "--out", "{out}"},
                 {"--param long_time.bogus=1", "'bogus'", "steps"}),
      bad_option("report --param given twice", {"report", kP, "--no-benchmarks", "--no-plots", "--param", "long_time.steps=2000", "--param",
                  "long_time.steps=3000", "--out", "{out}"},
                 {"--param long_time.steps=3000", "twice"}),
      bad_option("report --param with a bad value", {"report", kP, "--no-benchmarks", "--no-plots", "--param", "long_time.steps=10", "--out", "{out}"},
                 {"--param long_time.steps=10", "1000"}),
      // study
      bad_option("study without NAME", {"study"}, {"NAME"}),
      bad_option("study with an unknown name", {"study", "nosuch", kP, "--out", "{out}"}, {"'nosuch'", "setting_sweep"}),
      bad_option("study with an unknown --param", {"study", "setting_sweep", kP, "--param", "bogus=1", "--out", "{out}"},
                 {"--param bogus=1", "'bogus'"}),
      bad_option("study --param without '='", {"study", "setting_sweep", kP, "--param", "bogus", "--out", "{out}"},
                 {"--param bogus", "KEY=VALUE"}),
      bad_option("study --param given twice", {"study", "catenary", kH, "--param", "elements=4,8", "--param", "elements=8,16", "--out", "{out}"},
                 {"--param", "'elements'", "twice"}),
      bad_option("study --param with a line break", {"study", "catenary", kH, "--param", "elements=4\n8", "--out", "{out}"},
                 {"--param", "one line"}),
      bad_option("study --param elements decreasing", {"study", "catenary", kH, "--param", "elements=8,4", "--out", "{out}"},
                 {"--param elements=8,4", "increasing"}),
      bad_option("study long_time --param steps not a number", {"study", "long_time", kP, "--param", "steps=many", "--out", "{out}"},
                 {"--param steps=many", "'steps'", "whole number"}),
      bad_option("study long_time --param steps too few", {"study", "long_time", kP, "--param", "steps=10", "--out", "{out}"},
                 {"--param steps=10", "'steps'", "1000"}),
      bad_option("study long_time --param steps fractional", {"study", "long_time", kP, "--param", "steps=2e3.5", "--out", "{out}"},
                 {"--param steps=2e3.5", "'steps'"}),
      bad_option("study on a case it does not apply to", {"study", "catenary", kP, "--out", "{out}"},
                 {kP, "study catenary does not apply"}),
      bad_option("study --jobs nan", {"study", "setting_sweep", kP, "--jobs", "nan", "--out", "{out}"}, {"--jobs", "'nan'"}),
      bad_option("study --set out of range", {"study", "setting_sweep", kP, "--set", "ida.rtol=0", "--out", "{out}"},
                 {"'integrators.ida.rtol'", "> 0"}),
      bad_option("study --out ''", {"study", "setting_sweep", kP, "--out", ""}, {"--out", "empty path"}),
      // catenary
      bad_option("catenary without CASE_FILE", {"catenary", "--out", "{out}"}, {"CASE_FILE"}),
      bad_option("catenary --elements 4,x", {"catenary", kH, "--elements", "4,x", "--out", "{out}"}, {"elements=4,x", "increasing"}),
      bad_option("catenary --elements 1,2", {"catenary", kH, "--elements", "1,2", "--out", "{out}"}, {"elements=1,2"}),
      bad_option("catenary --elements 4", {"catenary", kH, "--elements", "4", "--out", "{out}"}, {"elements=4", "at least two"}),
      // Was a contract violation: an empty --elements is taken as the default list and the study runs.
      bad_option("catenary --elements ''", {"catenary", kH, "--elements", "", "--out", "{out}"}, {"elements"}),
      bad_option("catenary --out an existing regular file", {"catenary", kH, "--elements", "4,8", "--out", "{in}/f"},
                 {"--out", "{in}/f"}, text("f", "x\n")),
      bad_option("catenary on a planar pendulum", {"catenary", kP, "--out", "{out}"}, {kP, "does not apply"}),
      // reference (always with --out: its default is the bundled reference/)
      bad_option("reference --out ''", {"reference", kP, "--out", ""}, {"--out", "empty path"}),
      bad_option("reference --out an existing regular file", {"reference", kP, "--out", "{in}/f"}, {"--out", "{in}/f"},
                 text("f", "x\n")),
      bad_option("reference with one case twice", {"reference", kP, kP, "--out", "{out}"}, {kP, "'case.name'"}),
      // Was a contract violation (message): an option the subcommand does not take, followed by a value,
      // is reported as "CASE_FILE: File does not exist: 1e-3"; the option --h is not named.
      bad_option("reference with an option it does not take (--h 1e-3)", {"reference", kP, "--h", "1e-3", "--out", "{out}"},
                 {"--h"}),
      bad_option("reference with an option it does not take (--h=1e-3)", {"reference", kP, "--h=1e-3", "--out", "{out}"},
                 {"unknown option '--h'"}),
      // gate
      bad_option("gate with an unknown option", {"gate", kP, "--out={out}"}, {"--out"}),
      bad_option("gate with a nonexistent case", {"gate", "{in}/nope.toml"}, {"{in}/nope.toml"}),
      bad_option("gate --accept-failures without --record", {"gate", kP, "--accept-failures"},
                 {"--accept-failures", "goes with --record only"}),
      bad_option("gate --record with an unknown option", {"gate", kP, "--record", "--envelopes", "{in}/e.csv", "--bogus"},
                 {"--bogus"}),
  };
  check_rows(suite, "command lines", rows);
}

// ---------------------------------------------------------------------------------------------
// Class 3: envelope and reference data files

TEST_CASE("hostile envelope and reference files are refused with exit 2 naming the file", "[hostile]") {
  Suite suite;
  const std::string H = kEnvelopeHeader;
  const std::vector<Row> rows = {
      bad_envelopes("unknown metric", H + envelope_row("energy_wobble", "max", "1e-6"), {"'metric'", "energy_wobble"}),
      bad_envelopes("bad bound_type", H + envelope_row("energy_err_max", "maximum", "1e-6"), {"'bound_type'", "'maximum'"}),
      bad_envelopes("non-numeric bound", H + envelope_row("energy_err_max", "max", "small"), {"'bound'", "'small'"}),
      bad_envelopes("bound = nan", H + envelope_row("energy_err_max", "max", "nan"), {"'bound'", "'nan'"}),
      bad_envelopes("bound = inf", H + envelope_row("energy_err_max", "max", "inf"), {"'bound'", "'inf'"}),
      bad_envelopes("bound with trailing junk", H + envelope_row("energy_err_max", "max", "1e-6x"), {"'bound'", "'1e-6x'"}),
      bad_envelopes("empty bound", H + envelope_row("energy_err_max", "max", ""), {"'bound'"}),
      bad_envelopes("recorded_value = -inf", H + envelope_row("energy_err_max", "max", "1e-6", "recorded", "-inf"),
                    {"'recorded_value'"}),
      bad_envelopes("bad policy", H + envelope_row("energy_err_max", "max", "1e-6", "sometimes"), {"'policy'", "'sometimes'"}),
      bad_envelopes("fails row with a metric other than outcome", H + envelope_row("energy_err_max", "fails", "0", "recorded", "0.1", "diverged", "3"),
                    {"'fails'", "'outcome'"}),
      bad_envelopes("outcome row with bound_type max", H + envelope_row("outcome", "max", "0"), {"'fails'", "'outcome'"}),
      bad_envelopes("fails row without its kind", H + envelope_row("outcome", "fails", "0", "recorded", "0.1", "", "3"),
                    {"line 2", "'failure_kind'", "expected how the run fails"}),
      bad_envelopes("fails row with an unknown kind", H + envelope_row("outcome", "fails", "0", "recorded", "0.1", "exploded", "3"),
                    {"'failure_kind'", "'exploded'"}),
      bad_envelopes("fails row without its step", H + envelope_row("outcome", "fails", "0", "recorded", "0.1", "diverged", "0"),
                    {"'failure_step'", "the step the run failed at (>= 1)"}),
      bad_envelopes("a kind on a row that is not a fails row", H + envelope_row("energy_err_max", "max", "1e-6", "recorded", "1e-7", "solver", "0"),
                    {"'failure_kind'", "nothing on a row that is not a fails row"}),
      bad_envelopes("envelope file of the format before failure kinds",
                    "case,integrator,metric,bound_type,bound,policy,recorded_value,note\nT_planar_pendulum_60deg,rk4,energy_err_max,max,1,recorded,0.5,\"\"\n",
                    {"the format before fails rows recorded their kind and step", "expected the header '" + kEnvelopeHeader.substr(0, kEnvelopeHeader.size() - 1) + "'",
                     "tetherbench gate --record --envelopes {in}/envelopes.csv"}),
      bad_envelopes("missing column", "case,integrator,metric,bound_type,bound,policy,recorded_value\nT,rk4,energy_err_max,max,1,fixed,1\n",
                    {"expected an envelope file with the header", "failure_step,note'"}),
      bad_envelopes("duplicated column", "case,integrator,metric,bound_type,bound,policy,recorded_value,failure_kind,failure_step,note,note\nx,y,z,max,1,fixed,1,,0,a,b\n",
                    {"expected an envelope file with the header", "failure_step,note'"}),
      bad_envelopes("row with too few columns", H + "T_planar_pendulum_60deg,rk4,energy_err_max,max\n", {"line 2"}),
      bad_envelopes("row with too many columns", H + "T_planar_pendulum_60deg,rk4,energy_err_max,max,1e-6,recorded,1e-7,,0,\"\",x\n",
                    {"line 2"}),
      bad_envelopes("unterminated quote", H + "T_planar_pendulum_60deg,rk4,energy_err_max,max,1e-6,recorded,1e-7,\"oops\n",
                    {"line 2"}),
      bad_envelopes("empty file", "", {"expected an envelope file with the header", "got ''"}),
      bad_envelopes("only comments", "# nothing here\n# at all\n", {"expected an envelope file with the header", "got ''"}),
      {"binary garbage",
       {"gate", kP, "--envelopes", "{in}/envelopes.csv"},
       2,
       {"{in}/envelopes.csv"},
       random_bytes("envelopes.csv", 4096, 20240501u)},
      {"--record with a malformed file leaves it unchanged",
       {"gate", kP, "--record", "--envelopes", "{in}/envelopes.csv"},
       2,
       {"{in}/envelopes.csv", "'bound_type'"},
       text("envelopes.csv", H + envelope_row("energy_err_max", "sometimes", "1e-6"))},
      {"--record with a bad case leaves a valid envelope copy unchanged",
       {"gate", "{in}/case.toml", "--record", "--envelopes", "{in}/envelopes.csv"},
       2,
       {"{in}/case.toml", "'case.t_end'"},
       all({variant("case.toml", kPendulum, "t_end = 10.0", "t_end = nan"),
            [](const Box& b) { fs::copy_file(fs::path(TETHERBENCH_REFERENCE_DIR) / "envelopes.csv", b.in / "envelopes.csv"); }})},
      {"nonexistent envelope file", {"gate", kP, "--envelopes", "{in}/nope.csv"}, 2, {"{in}/nope.csv"}},
      {"envelope file is a directory", {"gate", kP, "--envelopes", "{in}/dir"}, 2, {"{in}/dir"}, folder("{in}/dir")},
      {"envelope file is /dev/null", {"gate", kP, "--envelopes", "/dev/null"}, 2, {"/dev/null"}},
      // Was a contract violation: the message is ": missing file", naming neither the option nor a file.
      {"envelope file ''", {"gate", kP, "--envelopes", ""}, 2, {"--envelopes"}},
      // Reference solutions (the folder is compiled in: the bundled reference/).
      {"stale reference: reference_t_end changed, same case name",
       {"report", "{in}/case.toml", "--no-benchmarks", "--no-plots", "--out", "{out}"},
       2,
       {"{ref}/T_elastic_pendulum/final_state.csv", "stale", "tetherbench reference"},
       variant("case.toml", kElastic, "reference_t_end = 10.0", "reference_t_end = 9.0")},
      {"stale reference: model changed, same case name (study)",
       {"study", "work_precision", "{in}/case.toml", "--out", "{out}"},
       2,
       {"{ref}/T_planar_pendulum_60deg/final_state.csv", "stale", "tetherbench reference"},
       variant("case.toml", kPendulum, "mass = 1.0", "mass = 2.0")},
      {"stale reference trajectory: another [report] trajectory_interval, same case name (study)",
       {"study", "work_precision", "{in}/case.toml", "--out", "{out}"},
       2,
       {"{ref}/T_planar_pendulum_60deg/trajectory.bin", "stale reference trajectory", "trajectory_interval",
        "tetherbench reference"},
       variant("case.toml", kPendulum, "[report]\n", "[report]\ntrajectory_interval = 0.2\n")},
      {"missing reference: a case name with no reference folder",
       {"report", "{in}/case.toml", "--no-benchmarks", "--no-plots", "--out", "{out}"},
       2,
       {"T_no_reference", "missing reference", "tetherbench reference"},
       variant("case.toml", kPendulum, kPendulumName, "name = \"T_no_reference\"")},
  };
  check_rows(suite, "data files", rows);
}

// ---------------------------------------------------------------------------------------------
// Class 4: special files

TEST_CASE("special files as inputs are refused with exit 2 naming the file, without hanging or crashing", "[hostile]") {
  Suite suite;
  const std::string non_utf8 = "\xff\xfe-case.toml";
  const std::vector<Row> rows = {
      {"case file is a directory (run)", {"run", "{in}/dir.toml", "--out", "{out}"}, 2, {"{in}/dir.toml", "directory"},
       folder("{in}/dir.toml")},
      {"case file is a directory (table)", {"table", "{in}", "--out", "{out}"}, 2, {"{in}", "directory"}},
      {"case file is a directory (gate)", {"gate", "{cases}"}, 2, {"{cases}", "directory"}},
      {"case file is /dev/null", {"run", "/dev/null", "--out", "{out}"}, 2, {"/dev/null", "special file"}},
      {"case file is /dev/zero", {"run", "/dev/zero", "--out", "{out}"}, 2, {"/dev/zero"}},
      {"empty case file", {"run", "{in}/empty.toml", "--out", "{out}"}, 2, {"{in}/empty.toml", "'case'"}, text("empty.toml", "")},
      {"case file of random bytes", {"run", "{in}/random.toml", "--out", "{out}"}, 2, {"{in}/random.toml"},
       random_bytes("random.toml", 4096, 7u)},
      {"case file with invalid UTF-8 in a string", {"run", "{in}/bytes.toml", "--out", "{out}"}, 2, {"{in}/bytes.toml", "utf"},
       variant("bytes.toml", kPendulum, kPendulumName, "name = \"\xff\xfe\"")},
      {"non-UTF-8 file name with a bad key", {"run", "{in}/" + non_utf8, "--out", "{out}"}, 2,
       {"{in}/" + non_utf8, "unknown key 'model.lenght'"}, variant(non_utf8, kPendulum, "length = 1.0", "length = 1.0\nlenght = 1.0")},
      {"file name with quotes and spaces, bad key", {"run", "{in}/it's a \"case\".toml", "--out", "{out}"}, 2,
       {"{in}/it's a \"case\".toml", "'case.h'"}, variant("it's a \"case\".toml", kPendulum, "h = 1.0e-3", "h = 0.0")},
      {"dangling symlink as case file", {"run", "{in}/link.toml", "--out", "{out}"}, 2, {"{in}/link.toml"},
       [](const Box& b) { fs::create_symlink(b.in / "nowhere.toml", b.in / "link.toml"); }},
      {"/proc file as case file", {"run", "/proc/self/status", "--out", "{out}"}, 2, {"/proc/self/status"}},
      // Was a contract violation: deeply nested arrays / inline tables crash the TOML parser (SIGSEGV,
      // unbounded recursion): a 200 KB file of arrays, a 25 KB file of inline tables.
      {"case file of 100000 nested arrays", {"run", "{in}/deep.toml", "--out", "{out}"}, 2, {"{in}/deep.toml"},
       text("deep.toml", "[case]\nname = " + std::string(100000, '[') + std::string(100000, ']') + "\n")},
      {"case file of 5000 nested inline tables", {"run", "{in}/deep2.toml", "--out", "{out}"}, 2, {"{in}/deep2.toml"},
       [](const Box& b) {
         std::string t = "a = ";
         for (int i = 0; i < 5000; ++i) t += "{b = ";
         t += "1";
         t += std::string(5000, '}');
         write_file(b.in / "deep2.toml", t + "\n");
       }},
      // Was a contract violation: a FIFO is opened and read with no writer: the command blocks forever,
      // and its handler swallows the first SIGTERM (killed here after 3 s + 2 s).
      {"case file is a FIFO", {"run", "{in}/fifo.toml", "--out", "{out}"}, 2, {"{in}/fifo.toml"}, fifo("fifo.toml"), 3},
      {"envelope file is a FIFO", {"gate", kP, "--envelopes", "{in}/fifo.csv"}, 2, {"{in}/fifo.csv"}, fifo("fifo.csv"), 3},
  };
  check_rows(suite, "special files", rows);
}

// ---------------------------------------------------------------------------------------------
// Rows that must succeed: the harness can pass.

TEST_CASE("valid inputs beside the hostile ones succeed and write only into --out", "[hostile]") {
  Suite suite;
  const std::vector<Row> rows = {
      {"short valid run", {"run", kP, "--t-end", "0.01", "--integrator", "rk4", "--out", "{out}"}, 0, {}, {}, 20,
       {"{out}/summary.csv", "{out}/T_planar_pendulum_60deg/rk4/timeseries.csv"}},
      {"short valid run with --set and limits",
       {"run", kP, "--t-end", "0.01", "--integrator", "rk45", "--set", "rk45.rtol=1e-6", "--max-steps", "1e6", "--out", "{out}"},
       0, {}, {}, 20, {"{out}/summary.csv"}},
      {"short table of a copy with a non-UTF-8 file name", {"table", "{in}/\xff\xfe.toml", "--out", "{out}"}, 0, {},
       variant("\xff\xfe.toml", kPendulum, "t_end = 10.0", "t_end = 0.01"), 20, {"{out}/summary.csv", "{out}/summary.md"}},
      {"case file with CRLF line ends", {"run", "{in}/crlf.toml", "--t-end", "0.01", "--integrator", "rk4", "--out", "{out}"}, 0, {},
       [](const Box& b) {
         std::string t = read_file(fs::path(TETHERBENCH_CASES_DIR) / kPendulum);
         replace_all(t, "\n", "\r\n");
         write_file(b.in / "crlf.toml", t);
       },
       20, {"{out}/summary.csv"}},
      {"list", {"list"}, 0, {}},
      {"--help", {"--help"}, 0, {}},
  };
  check_rows(suite, "success", rows);
}
