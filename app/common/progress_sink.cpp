#include "app/common/progress_sink.hpp"

#include <atomic>
#include <cstdio>

namespace tb {

namespace {
// Set and cleared by the calling thread around the work; read by the threads that report progress.
std::atomic<const ProgressSink*> g_sink{nullptr};
}  // namespace

ProgressSinkScope::ProgressSinkScope(ProgressSink sink) : sink_(std::move(sink)) {
  if (sink_) g_sink.store(&sink_);
}

ProgressSinkScope::~ProgressSinkScope() {
  if (sink_) g_sink.store(nullptr);
}

const ProgressSink* progress_sink() { return g_sink.load(); }

void progress_line(const std::string& line) {
  if (const ProgressSink* sink = progress_sink()) return (*sink)(line);
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace tb
