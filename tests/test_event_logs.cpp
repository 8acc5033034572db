// Issue 48: the event-driven methods' own records of their jumps (core/jump_log.hpp) compared entry by entry
// with the reference's (studies/snap/event_logs.hpp), on constructed records with known answers: the same
// sequence, a run that makes an extra exchange of two links and then the reference's sequence, one that omits
// the reference's, one that parts for good; and the log's own bookkeeping (a new run on the same form starts
// it again; a jump's loss on its first entry).

#include <catch2/catch.hpp>

#include "studies/snap/event_logs.hpp"

using namespace tb;
using namespace tb::snap;

namespace {

constexpr int kSnapped = int(LoggedSwitch::Kind::Snapped), kOpened = int(LoggedSwitch::Kind::Opened);

// A record of the links' kinds at times 1, 2, 3, ... plus `shift` (s).
std::vector<OwnSwitch> record(const std::vector<std::pair<int, int>>& entries, double shift = 0.0) {
  std::vector<OwnSwitch> out;
  for (size_t k = 0; k < entries.size(); ++k) out.push_back({double(k + 1) + shift, entries[k].first, entries[k].second, 0.0, 0.0});
  return out;
}

}  // namespace

TEST_CASE("event logs: a run's record against the reference's, entry by entry, with where it parts and rejoins", "[snap][event_logs]") {
  // The reference: link 9 snaps, link 7 opens and snaps, link 9 opens, then link 8 snaps.
  const std::vector<std::pair<int, int>> ref_entries = {{9, kSnapped}, {7, kOpened}, {7, kSnapped}, {9, kOpened}, {8, kSnapped}};
  const auto ref = record(ref_entries);

  SECTION("the same sequence, 1e-7 s late throughout") {
    const LogComparison c = compare_logs(ref, record(ref_entries, 1e-7));
    CHECK(c.same);
    CHECK(c.common == 5);
    CHECK(c.time_error_max == Approx(1e-7).epsilon(1e-6));
    CHECK_FALSE(c.rejoins);
  }
  SECTION("one more exchange of links 7 and 9 before link 8's snap: parts there, makes 2 entries, then the same") {
    const auto run = record({{9, kSnapped}, {7, kOpened}, {7, kSnapped}, {9, kOpened}, {9, kSnapped}, {7, kOpened}, {8, kSnapped}});
    const LogComparison c = compare_logs(ref, run);
    CHECK_FALSE(c.same);
    CHECK(c.common == 4);
    CHECK(c.departure_t == 5.0);  // the reference's entry where they part: link 8's snap
    REQUIRE(c.rejoins);
    CHECK(c.inserted == 2);
    CHECK(c.links == std::vector<int>{7, 9});
    CHECK(c.rest_time_error_max == Approx(2.0));  // link 8's snap at 7 against 5
  }
  SECTION("one exchange fewer: omits 2 of the reference's entries, then the same") {
    const auto run = record({{9, kSnapped}, {7, kOpened}, {8, kSnapped}});
    const LogComparison c = compare_logs(ref, run);
    CHECK(c.common == 2);
    REQUIRE(c.rejoins);
    CHECK(c.inserted == -2);
    CHECK(c.links == std::vector<int>{7, 9});
  }
  SECTION("another sequence to the end: parts for good") {
    const auto run = record({{9, kSnapped}, {6, kOpened}, {6, kSnapped}, {5, kOpened}, {4, kSnapped}, {3, kOpened}});
    const LogComparison c = compare_logs(ref, run);
    CHECK(c.common == 1);
    CHECK_FALSE(c.rejoins);
  }
  SECTION("a run whose record goes on after the reference's end") {
    auto entries = ref_entries;
    entries.push_back({8, kOpened});
    const LogComparison c = compare_logs(ref, record(entries));
    CHECK(c.common == 5);
    CHECK(c.departure_t == 5.0);
    REQUIRE(c.rejoins);
    CHECK(c.inserted == 1);
  }
}

TEST_CASE("event logs: the touches' count, span, links and loss, and the log starting again with a new run", "[snap][event_logs]") {
  const int touched = int(LoggedSwitch::Kind::Touched);
  // Two touches in one jump at t = 2 (its loss on the first entry only), one alone at t = 3.
  const std::vector<OwnSwitch> r = {{1.0, 0, kSnapped, 0.5, 10.0}, {2.0, 3, touched, 1e-6, 1e-3}, {2.0, 4, touched, 0.0, 2e-3},
                                    {3.0, 3, touched, 2e-6, 1e-3}};
  const TouchSummary t = touches_of(r);
  CHECK(t.count == 3);
  CHECK(t.first == 2.0);
  CHECK(t.last == 3.0);
  CHECK(t.links == std::vector<int>{3, 4});
  CHECK(t.loss == Approx(3e-6));

  JumpLog log;
  log.begin_jump(0.5);
  log.add(0.5, 1, LoggedSwitch::Kind::Snapped, 4.0);
  log.add(0.5, 2, LoggedSwitch::Kind::Opened);
  log.end_jump(0.25);
  REQUIRE(log.records().size() == 2);
  CHECK(log.records()[0].loss == 0.25);
  CHECK(log.records()[1].loss == 0.0);
  CHECK(log.records()[0].closing_rate == 4.0);
  // The same form integrated again from the start: its first jump, earlier than the last, starts a new record.
  log.begin_jump(0.1);
  log.add(0.1, 1, LoggedSwitch::Kind::Snapped, 4.0);
  log.end_jump(0.25);
  CHECK(log.records().size() == 1);
}
