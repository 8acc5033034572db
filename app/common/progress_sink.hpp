#pragma once
// Where the progress lines of runs and job lists go (a run's "t = ..." line, the job pool's bar):
// the process's stderr, on a terminal only (redrawn in place), or a host program's own sink for a
// user who does not see that stderr: a notebook, where tetherbench.run(progress=True) printed
// nothing (issue 46 item 5). The sink takes each line whole, a few a second at most, from the
// thread that made it; it is in place for the scope of one call (ProgressSinkScope).

#include <functional>
#include <string>

namespace tb {

using ProgressSink = std::function<void(const std::string& line)>;

class ProgressSinkScope {
 public:
  explicit ProgressSinkScope(ProgressSink sink);  // an empty sink leaves stderr in place
  ~ProgressSinkScope();
  ProgressSinkScope(const ProgressSinkScope&) = delete;
  ProgressSinkScope& operator=(const ProgressSinkScope&) = delete;

 private:
  ProgressSink sink_;
};

// The sink in place, or nullptr: progress then goes to stderr, and only where it is a terminal.
const ProgressSink* progress_sink();
// A closing line ("jobs: 12 run, 0 reused"): to the sink, else to stderr.
void progress_line(const std::string& line);

}  // namespace tb
