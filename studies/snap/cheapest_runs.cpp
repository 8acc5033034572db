#include "studies/snap/cheapest_runs.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "app/common/csv_table.hpp"
#include "app/common/markdown_table.hpp"
#include "core/format.hpp"

namespace tb::snap {

std::vector<std::string> write_cheapest_runs(std::ostringstream& md, const std::vector<const SnapPoint*>& of_case,
                                             const CheapestRunsRules& rules) {
  md << "\n### " << rules.heading << "\n\n"
        "For each " << rules.quantity << " target, the cheapest run (runtime) of each method that reached it "
     << rules.counts_words << ", and whose every finer step or tolerance that completed did so too (a coarse run that "
        "lands within a target where a finer one does not is not credited); \"not reached\" where no step or tolerance "
        "measured did; \"no reading\" where none of a method's completed runs has a value of it.\n\n";
  std::vector<std::string> methods;
  for (const SnapPoint* p : of_case)
    if (p->role == SnapRole::Compared && std::find(methods.begin(), methods.end(), p->key.label()) == methods.end())
      methods.push_back(p->key.label());
  const auto seconds = [](double s) { return std::isfinite(s) ? format_g(s, 3) : std::string("—"); };
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> advice;
  // A run is credited with a target only where every finer setting of its method that completed also counts and
  // reaches it (referee, 4 Dec, point 24: nonsmooth RATTLE at h = 1.25e-4 was named for 0.01 m while its run at
  // 6.25e-5 stood at 0.0049 m): a coarse run that lands within a target by where its errors
  // happen to cancel is not advice for that step.
  const auto counts = [&](const SnapPoint& p) {
    return rules.counts(p) && (!rules.books_and_rise || (books_close(p.measured) && rise_small(p.measured)));
  };
  const auto credited = [&](const SnapPoint& p, double target) {
    if (!(rules.error(p) <= target)) return false;
    for (const SnapPoint* q : of_case) {
      if (q->role != SnapRole::Compared || q->key.label() != p.key.label() || !q->measured.outcome.ok()) continue;
      const bool finer = p.adaptive() ? q->rtol < p.rtol : q->h < p.h;
      if (finer && (!counts(*q) || !(rules.error(*q) <= target))) return false;
    }
    return true;
  };
  for (double target : rules.targets) {
    std::vector<std::string> row{rules.target_words(target)};
    std::vector<const SnapPoint*> cheapest_of;  // each method's cheapest run that reached the target
    for (const std::string& label : methods) {
      const SnapPoint* cheapest = nullptr;
      for (const SnapPoint* p : of_case) {
        if (p->role != SnapRole::Compared || p->key.label() != label || !p->measured.outcome.ok() || !counts(*p)) continue;
        if (!credited(*p, target) || !std::isfinite(p->measured.runtime_s)) continue;
        if (!cheapest || p->measured.runtime_s < cheapest->measured.runtime_s) cheapest = p;
      }
      // Settings that ran the same steps to the same error are one run timed twice (an adaptive method whose
      // tolerances the case does not exercise): the loosest of them is named, not the one the timer's noise
      // put first.
      if (cheapest)
        for (const SnapPoint* p : of_case) {
          if (p->role != SnapRole::Compared || p->key.label() != label || !p->measured.outcome.ok() || !credited(*p, target)) continue;
          if (p->measured.counters.steps != cheapest->measured.counters.steps || rules.error(*p) != rules.error(*cheapest)) continue;
          if ((p->adaptive() ? p->rtol > cheapest->rtol : p->h > cheapest->h) && std::isfinite(p->measured.runtime_s)) cheapest = p;
        }
      std::string cell = "not reached";
      if (!cheapest) {
        int runs = 0, failed = 0, read = 0;
        for (const SnapPoint* p : of_case)
          if (p->role == SnapRole::Compared && p->key.label() == label) {
            ++runs, failed += p->measured.outcome.ok() ? 0 : 1;
            read += p->measured.outcome.ok() && std::isfinite(rules.error(*p)) ? 1 : 0;
          }
        // A method none of whose completed runs has a reading of this quantity did not fall short of a target: it has
        // no number to judge (a referee read, 6 Dec: peak tensions withheld where the observer's switches differ).
        if (read == 0 && failed < runs) cell = "no reading";
        if (failed > 0)
          cell += " (" + std::to_string(failed) + " of its " + std::to_string(runs) + " runs failed" +
                  (failed < runs ? (read == 0 ? "; none of the others has a reading)" : "; none of the others qualified)") : ")");
      }
      row.push_back(cheapest ? cheapest->setting() + ", " + seconds(cheapest->measured.runtime_s) + " s" : cell);
      if (cheapest) cheapest_of.push_back(cheapest);
    }
    rows.push_back(row);
    std::sort(cheapest_of.begin(), cheapest_of.end(),
              [](const SnapPoint* a, const SnapPoint* b) { return a->measured.runtime_s < b->measured.runtime_s; });
    const auto named = [&](const SnapPoint* p) {
      return p->key.label() + " at " + p->setting() + " (" + seconds(p->measured.runtime_s) + " s)" + rules.context(*p, target);
    };
    std::string words = "to " + rules.target_words(target) + ": ";
    if (cheapest_of.empty()) {
      words += "no run measured here reached it";
    } else {
      words += named(cheapest_of[0]);
      // Every other method within the noise band of the cheapest: the ranking between them is not resolved.
      for (size_t k = 1; k < cheapest_of.size(); ++k)
        if (cheapest_of[k]->measured.runtime_s < kUnresolvedRatio * cheapest_of[0]->measured.runtime_s)
          words += ", not resolved from " + named(cheapest_of[k]) + " (within a factor " + format_g(kUnresolvedRatio) + ")";
      if (cheapest_of.size() > 1 && cheapest_of[1]->measured.runtime_s >= kUnresolvedRatio * cheapest_of[0]->measured.runtime_s) {
        words += ", " + format_g(cheapest_of[1]->measured.runtime_s / cheapest_of[0]->measured.runtime_s, 2) +
                 "× faster than the next method's cheapest, " + named(cheapest_of[1]);
        // The methods within the noise band of that next one are not ranked below it (a referee read).
        for (size_t k = 2; k < cheapest_of.size(); ++k)
          if (cheapest_of[k]->measured.runtime_s < kUnresolvedRatio * cheapest_of[1]->measured.runtime_s)
            words += ", not resolved from " + named(cheapest_of[k]) + " (within a factor " + format_g(kUnresolvedRatio) +
                     " of " + cheapest_of[1]->key.label() + ")";
      }
      // The headline asks at what step: where the cheapest is adaptive, the cheapest fixed step too,
      // unless the words above already name it.
      // Fixed-step methods within a factor 2 of that one are named beside it, not ranked; where none
      // reached the target, that is said (a referee read).
      if (cheapest_of[0]->adaptive()) {
        size_t first_fixed = cheapest_of.size();
        for (size_t k = 1; k < cheapest_of.size() && first_fixed == cheapest_of.size(); ++k)
          if (!cheapest_of[k]->adaptive()) first_fixed = k;
        if (first_fixed == cheapest_of.size()) {
          words += "; no fixed step reached it";
        } else if (words.find(cheapest_of[first_fixed]->key.label() + " at ") == std::string::npos) {
          const SnapPoint* f = cheapest_of[first_fixed];
          words += "; the cheapest fixed step: " + named(f) + ", " +
                   format_g(f->measured.runtime_s / cheapest_of[0]->measured.runtime_s, 2) + "× the cheapest's time";
          for (size_t k = first_fixed + 1; k < cheapest_of.size(); ++k)
            if (!cheapest_of[k]->adaptive() && cheapest_of[k]->measured.runtime_s < kUnresolvedRatio * f->measured.runtime_s)
              words += ", not resolved from " + named(cheapest_of[k]) + " (within a factor " + format_g(kUnresolvedRatio) + ")";
        }
      }
    }
    advice.push_back(words);
    if (rules.advice_csv && !of_case.empty()) {
      const SnapPoint* first = cheapest_of.empty() ? nullptr : cheapest_of[0];
      const SnapPoint* next = cheapest_of.size() > 1 ? cheapest_of[1] : nullptr;
      const bool resolved = first && (!next || next->measured.runtime_s >= kUnresolvedRatio * first->measured.runtime_s);
      *rules.advice_csv << of_case.front()->key.c->name << ',' << format_g(rules.horizon_s, 6) << ',' << format_g(target) << ','
                        << (first ? first->key.label() : "") << ',' << csv_quoted(first ? first->setting() : "") << ','
                        << (first ? format_g(first->measured.runtime_s, 3) : "") << ',' << (next ? next->key.label() : "") << ','
                        << (next ? format_g(next->measured.runtime_s, 3) : "") << ',' << (resolved ? "yes" : "no") << ','
                        << csv_quoted(words) << '\n';
    }
  }
  std::vector<std::string> header{rules.quantity};
  header.insert(header.end(), methods.begin(), methods.end());
  markdown::table(md, header, rows);
  return advice;
}

std::vector<double> relative_targets(double scale, double floor, int& dropped) {
  std::vector<double> targets;
  dropped = 0;
  if (!(std::isfinite(scale) && scale > 0.0)) return targets;
  for (double fraction : kRelativeTargets) {
    const double target = fraction * scale;
    if (std::isfinite(floor) && target < 10.0 * floor) ++dropped;
    else targets.push_back(target);
  }
  return targets;
}

std::string relative_target_words(double target, double scale, const std::string& of_what, const std::string& unit) {
  return format_g(100.0 * target / scale, 2) + " % of " + of_what + " (" + format_g(target, 3) + " " + unit + ")";
}

bool books_close(const SnapRun& r) {
  return std::isfinite(r.booked_total) && std::isfinite(r.energy_lost) && std::abs(r.booked_total - r.energy_lost) <= 0.1 * std::abs(r.energy_lost);
}

bool rise_small(const SnapRun& r) {
  return std::isfinite(r.balance_gain_max) && std::isfinite(r.energy_lost) && r.balance_gain_max <= 0.1 * std::abs(r.energy_lost);
}

void write_safe_steps(std::ostringstream& md, const std::vector<const SnapPoint*>& of_case, const CheapestRunsRules& rules) {
  // Each fixed-step method's runs, largest step first (the order they were made in).
  std::vector<std::pair<std::string, std::vector<const SnapPoint*>>> methods;
  for (const SnapPoint* p : of_case) {
    if (p->role != SnapRole::Compared || p->adaptive()) continue;
    auto it = std::find_if(methods.begin(), methods.end(), [&](const auto& m) { return m.first == p->key.label(); });
    if (it == methods.end()) methods.push_back({p->key.label(), {}}), it = methods.end() - 1;
    it->second.push_back(p);
  }
  if (methods.empty()) return;
  // The books' clause is said once: a case whose counting rule holds it already (the pendulum's) does not repeat it.
  const bool books_in_counts = rules.counts_words.find("booked work") != std::string::npos;
  const bool penalty_here = std::any_of(methods.begin(), methods.end(), [](const auto& m) { return m.first.find("@penalty") != std::string::npos; });
  md << "\nThe largest fixed step that holds: for each fixed-step method the largest step whose run and every finer run "
        "of the method count (" << rules.counts_words << "; a failed run does not), "
     << (books_in_counts ? "" : "whose booked work W stands within a tenth of its own energy loss E0 − E(t_end) (on every case alike: referee, 5 Dec, point 2), ")
     << "whose E − E0 − W rose during the run, from its lowest value before, by at most a tenth of that loss (W changes "
        "only by the losses booked, so a rise is energy the scheme made between them), and that has a position "
        "error to show (on the closed-form cases, none where a run at a moved step, the snap at another phase of a step "
        "within h(1 ± 1/n), failed or missed a switch); and the finest step that does not hold, with why. Only the steps "
        "measured are judged: a step between two of them is not, and the largest measured is no stability limit."
     << (penalty_here ? "" : " A cable's penalty runs, where its case has them, are not here (their own section).") << "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (auto& [label, runs] : methods) {
    std::sort(runs.begin(), runs.end(), [](const SnapPoint* a, const SnapPoint* b) { return a->h > b->h; });
    // A run counts with a position error to show: a fixed step's error is none where a run at a moved step (the
    // snap at another phase of a step within h (1 +- 1/n)) failed or missed a switch, and such a step is not safe.
    const auto ok = [&](const SnapPoint* p) {
      return p->measured.outcome.ok() && rules.counts(*p) && books_close(p->measured) && rise_small(p->measured) &&
             std::isfinite(rules.error(*p));
    };
    size_t safe = runs.size();  // the coarsest index of the finest run of counting steps
    while (safe > 0 && ok(runs[safe - 1])) --safe;
    const std::string measured = format_g(runs.front()->h, 3) + " to " + format_g(runs.back()->h, 3) + " s (" + std::to_string(runs.size()) + ")";
    const SnapPoint* at = safe < runs.size() ? runs[safe] : nullptr;
    const SnapPoint* coarser = safe > 0 ? runs[safe - 1] : nullptr;
    std::string did;
    if (coarser)
      did = !coarser->measured.outcome.ok() ? std::string("failed")
            : !rules.counts(*coarser)       ? rules.why_not_counted(*coarser)
            : !books_close(coarser->measured)
                ? "its booked work off its own energy loss by " + format_g(100.0 * std::abs(coarser->measured.booked_total - coarser->measured.energy_lost) /
                                                                               std::abs(coarser->measured.energy_lost), 2) + " %"
            : !rise_small(coarser->measured)
                ? "its E − E0 − W rose by " + (std::isfinite(coarser->measured.balance_gain_max)
                                                   ? format_g(100.0 * coarser->measured.balance_gain_max / std::abs(coarser->measured.energy_lost), 2) +
                                                         " % of its own energy loss"
                                                   : std::string("an unmeasured amount"))
                : std::string("no position error: a run at a moved step failed or missed a switch");
    const double error = at ? rules.error(*at) : kNoNumber;
    // Where only the finest step holds, "every finer run counts" tested nothing (a referee read, 6 Dec): said in the cell.
    const std::string holds = !at ? "none measured"
                                  : "h ≤ " + format_g(at->h, 6) + " s" + (at == runs.back() ? " (the finest measured: nothing finer tested)" : "");
    rows.push_back({label, holds, number_or_dash(error, 2),
                    at ? number_or_dash(at->measured.runtime_s) : "—", measured,
                    coarser ? "h = " + format_g(coarser->h, 6) + ": " + did : "— (the largest step measured holds)"});
    if (rules.safe_steps_csv)
      *rules.safe_steps_csv << of_case.front()->key.c->name << ',' << label << ',' << (at ? format_g(at->h, 8) : "") << ','
                            << (std::isfinite(error) ? format_g(error, 6) : "") << ','
                            << (at && std::isfinite(at->measured.runtime_s) ? format_g(at->measured.runtime_s, 6) : "") << ','
                            << csv_quoted(measured) << ',' << (coarser ? format_g(coarser->h, 8) : "") << ',' << csv_quoted(did) << '\n';
  }
  markdown::table(md, {"method", "largest step that holds", "position error there (m)", "its runtime (s)", "steps measured",
                       "the finest step that does not hold"}, rows);
}

std::string advice_headline(const CsvTable& advice, const CsvTable& safe_steps) {
  std::ostringstream md;
  md << "## Headline: which method for a string or cable that goes slack, and at what step\n\n";
  if (advice.rows.empty()) md << "No case here has a work–precision table to advise from.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : advice.rows) {
    const auto at = [&](const char* key) {
      const auto it = row.find(key);
      return it == row.end() ? std::string() : it->second;
    };
    // A penalty run solves the regularised system, not the impact law's (referee, 6 Dec, point 8): said in its cell.
    const auto penalty = [](const std::string& label) {
      return label.find("@penalty") != std::string::npos ? std::string(", a penalty run: the regularised system, not the impact law") : std::string();
    };
    const std::string cheapest = at("cheapest").empty() ? "no run measured here reached it"
                                                        : at("cheapest") + " at " + at("setting") + " (" + at("runtime_s") + " s" + penalty(at("cheapest")) + ")";
    std::string next = "—";
    if (!at("next").empty())
      next = at("next") + " (" + at("next_runtime_s") + " s" + penalty(at("next")) + ")" + (at("resolved") == "yes" ? "" : ": not resolved from the cheapest (within a factor " + format_g(kUnresolvedRatio) + ")");
    rows.push_back({at("case"), at("horizon_s") + " s", at("target_m") + " m", cheapest, next});
  }
  if (!rows.empty()) {
    markdown::table(md, {"case", "horizon", "position error at t_end", "cheapest run that reached it", "the next method's cheapest"}, rows);
    md << "\nEach row is the advice of the case's section (\"Work–precision and advice\"), with the evidence and the "
        "caveats beside it there: the runs it counts (on Model C's cables on the reference's cascade, judged by the run's own "
        "record of its closings, its fast snaps link by link the reference's; on the closed-form cases matching every switch "
        "with energy books that close, or, where the hits accumulate, completing; every finer setting reaching the target "
        "too), its position errors (root mean squares over moved steps on the closed-form cases), and the runtimes (single "
        "best-of-passes timings, not ranked within a factor " << format_g(kUnresolvedRatio) << "). A run labelled @penalty "
        "integrates the penalty regularisation, another system than the impact law's, whose distance from the closed form "
        "its case's section gives. This table ranks by the position error at t_end alone; each case's section ranks the same "
        "runs again on the energy the snaps took (on the cables: the energy lost, with the balance E − E0 − W held within "
        "the target too) and, on the cables, on the peak tension, and those rankings can name other runs; a fixed step is "
        "advised only where its runs reached t_end on the reference's cascade (each case's section says which steps failed "
        "or gained energy, and why where it is known).\n\n";
  }
  if (!safe_steps.rows.empty()) {
    // At what step (referee, 4 Dec, B8): the cheapest run answers for one accuracy; a fixed step's user also asks
    // below which step a method stays on the cascade, or makes every switch, at all.
    md << "At what fixed step, whatever the accuracy: each fixed-step method's largest step that holds, from each case's "
          "table of them: its run and every finer run count as in that case's advice (on Model C's cables on the reference's "
          "cascade by the run's own record of its closings, its fast snaps link by link the reference's, not ending above E0; on the pendulum every expected switch matched, or, where "
          "the hits accumulate, the run completed), the booked work W stands within a tenth of the run's own energy loss on "
          "every case, E − E0 − W rose during the run by at most a tenth of that loss, and the run has a position error to show; a failed run does not hold. Beside it, the finest step "
          "that does not hold and why. Only the steps measured are judged: \"the largest measured\" is no stability "
          "limit, and holding says nothing of a step's accuracy beyond the position error printed (the advice above "
          "ranks that).\n\n";
    std::vector<std::string> cases, methods;
    std::map<std::pair<std::string, std::string>, std::string> cell;
    for (const auto& row : safe_steps.rows) {
      const std::string& c = row.at("case"), &m = row.at("method");
      if (std::find(cases.begin(), cases.end(), c) == cases.end()) cases.push_back(c);
      if (std::find(methods.begin(), methods.end(), m) == methods.end()) methods.push_back(m);
      // The position error is the held step's; the step that does not hold comes after it (referee, 5 Dec, point 1:
      // the error read as the coarser step's).
      const std::string coarser = row.at("coarser_step").empty() ? "the largest measured" : "h = " + row.at("coarser_step") + " " + row.at("coarser_did");
      // Where the step that holds is the finest measured, "every finer run" tested nothing (a referee read, 6 Dec).
      const std::string& measured = row.at("steps_measured");
      const size_t to = measured.find(" to "), unit = measured.find(" s (");
      const double finest = to != std::string::npos && unit != std::string::npos ? std::stod(measured.substr(to + 4, unit - to - 4)) : kNoNumber;
      const bool only_finest = !row.at("safe_step").empty() && std::isfinite(finest) &&
                               std::abs(std::stod(row.at("safe_step")) - finest) <= 1e-2 * finest;  // the range is printed to 3 digits
      cell[{c, m}] = row.at("safe_step").empty()
                         ? "none of " + measured + ": its finest, " + coarser
                         : "h ≤ " + row.at("safe_step") + " s" + (only_finest ? ", the finest measured: nothing finer tested" : "") +
                               " (position error at that step " + format_g(std::stod(row.at("error_m")), 2) + " m; " +
                               (row.at("coarser_step").empty() ? coarser : "not at " + coarser) + ")";
    }
    std::vector<std::vector<std::string>> rows2;
    for (const std::string& c : cases) {
      std::vector<std::string> r{c};
      for (const std::string& m : methods) r.push_back(cell.count({c, m}) ? cell[{c, m}] : "—");
      rows2.push_back(r);
    }
    std::vector<std::string> header{"case"};
    header.insert(header.end(), methods.begin(), methods.end());
    markdown::table(md, header, rows2);
    md << "\n";
  }
  return md.str();
}

}  // namespace tb::snap
