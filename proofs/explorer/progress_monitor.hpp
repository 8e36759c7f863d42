// The thread that reports a search's progress (ExploreOptions::on_progress) every
// progress_interval while the search runs, from what snapshot() reads: shared by the one-process
// search and the distributed one (which reports at rank 0). Nothing when on_progress is empty or
// the interval is 0; stopped and joined by stop() or the destructor.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>

#include "proofs/explorer/explore_result.hpp"

namespace kcspec::explorer::detail {

class ProgressMonitor {
 public:
  // `enabled` false: no thread (a distributed search's ranks but 0).
  ProgressMonitor(const ExploreOptions& options, std::function<Progress()> snapshot, bool enabled = true) {
    if (!enabled || !options.on_progress || options.progress_interval.count() <= 0) return;
    thread_ = std::jthread([&options, snapshot = std::move(snapshot), this](std::stop_token stop) {
      std::unique_lock lock(mutex_);
      while (!wake_.wait_for(lock, stop, options.progress_interval, [] { return false; })) {
        if (stop.stop_requested()) break;
        options.on_progress(snapshot());
      }
    });
  }
  ProgressMonitor(const ProgressMonitor&) = delete;
  ProgressMonitor& operator=(const ProgressMonitor&) = delete;
  ~ProgressMonitor() { stop(); }

  void stop() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: started after the members it uses, stopped before they go
};

}  // namespace kcspec::explorer::detail
