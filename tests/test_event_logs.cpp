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

TEST_CASE("event logs: the cascade verdict reads both families' records link by link, fast snaps only, a time-stepping "
          "scheme's from the impulses it recorded",
          "[snap][event_logs]") {
  // The reference (an event-driven record): link 2 snaps at 10 /s, links 0 and 1 at 5 /s and 4 /s, link 1 opens and
  // snaps again at 3 /s, and a slow closing of link 0 at 1e-4 /s (under 1e-3 of the fastest: a grazing decision).
  SnapRun ref;
  ref.own_log = true;
  ref.own_switches = {{1.0, 2, kSnapped, 0.0, 10.0}, {1.5, 0, kSnapped, 0.0, 5.0}, {1.5, 1, kSnapped, 0.0, 4.0}, {2.0, 1, kOpened, 0.0, 0.0},
                      {2.5, 1, kSnapped, 0.0, 3.0},  {3.0, 0, kOpened, 0.0, 0.0},  {3.2, 0, kSnapped, 0.0, 1e-4}};
  // A time-stepping scheme's record of its impulses: each impact problem's time with the links it closed and their rates.
  const auto impact = [](double t, std::vector<int> links, std::vector<double> rates) {
    ImpactTime i;
    i.t = t, i.elements = std::move(links), i.closing_rates = std::move(rates);
    return i;
  };
  SnapRun run;
  run.impact_record = true;
  REQUIRE(keeps_record(run));
  CHECK_FALSE(keeps_record(SnapRun{}));  // neither a jump log nor an impact record: the observer's list judges it

  SECTION("the same fast snaps per link, links 0 and 1 in one step (no order between them), a lapsed taut link re-closed "
          "at a rate near 0 left out: the same, within the largest shift") {
    run.impact_times = {impact(1.001, {2}, {9.9}), impact(1.502, {0, 1}, {5.1, 3.9}), impact(2.501, {1}, {3.0}), impact(2.8, {2}, {2e-4})};
    const std::vector<OwnSwitch> made = record_of(run);
    REQUIRE(made.size() == 5);
    CHECK(made[2].element == 1);
    CHECK(made[2].closing_rate == 3.9);
    CHECK(made[2].what() == LoggedSwitch::Kind::Snapped);
    const FastSnapsByLink f = fast_snaps_by_link(run, ref);
    CHECK(f.same());
    CHECK(f.reference_total == 4);
    CHECK(f.run_total == 4);
    CHECK(f.time_error_max == Approx(0.002));
    CHECK(same_fast_snaps(run, ref));
    CHECK(fast_snaps_words(f).rfind("the same 4, link by link", 0) == 0);
    // The cut moves the verdict where a closing's rate lies between cuts: at a cut of 1e-6 (1e-5 /s) the reference's
    // slow closing of link 0 (1e-4 /s) counts and the run's lapsed re-closing of link 2 (2e-4 /s) too, which the
    // reference does not make: off the cascade there; at 1e-2 the same as at the page's cut.
    CHECK_FALSE(same_fast_snaps(run, ref, 1e-6));
    CHECK(same_fast_snaps(run, ref, 1e-2));
  }
  SECTION("link 1's second snap missing and link 0 snapping twice: those two links differ, the others not") {
    run.impact_times = {impact(1.001, {2}, {9.9}), impact(1.502, {0, 1}, {5.1, 3.9}), impact(2.6, {0}, {2.0})};
    const FastSnapsByLink f = fast_snaps_by_link(run, ref);
    CHECK_FALSE(f.same());
    CHECK(f.links_differing == std::vector<int>{0, 1});
    CHECK(f.run_counts == std::vector<long>{2, 1, 1});
    CHECK(f.reference_counts == std::vector<long>{1, 2, 1});
    CHECK(fast_snaps_words(f) == "4 against 4; links 0 (2 against 1), 1 (1 against 2) differ");
    CHECK_FALSE(same_fast_snaps(run, ref));
  }
  SECTION("an event-driven run whose coinciding closings come in the other order: the same per link") {
    SnapRun other;
    other.own_log = true;
    other.own_switches = {{1.0, 2, kSnapped, 0.0, 10.0}, {1.5, 1, kSnapped, 0.0, 4.0}, {1.5, 0, kSnapped, 0.0, 5.0}, {2.0, 1, kOpened, 0.0, 0.0},
                          {2.5, 1, kSnapped, 0.0, 3.0}};
    CHECK_FALSE(compare_logs(ref.own_switches, other.own_switches).same);  // in sequence they part at t = 1.5
    CHECK(same_fast_snaps(other, ref));
    CHECK(fast_snaps_by_link(other, ref).time_error_max == 0.0);
  }
}
