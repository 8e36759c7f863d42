// A long random run of the reference controller (impl/) and the state-change.log it writes: the
// input `kcspec check-log` is shown on (no findings on the impl's own log) and measured on
// (bench/log_gen.cpp writes a log of any size this way).
//
// The run never asks Kafka to log a failure — no StopReplica errors, no unclean elections, and a
// perturbation (crash, controlled shutdown, controller session loss, ISR shrink, deletion,
// reassignment, preferred election, partition addition, topic creation) only while the cluster
// is healthy and quiescent: every configured broker alive, nothing queued or in flight, no
// deletion pending, no broker shutting down, every partition's ISR in ZooKeeper equal to its
// replicas. (A broker in controlled shutdown may always crash: that completes its shutdown. When
// nothing else is allowed — a leader's AlterPartition lost with its controller — a controller
// failover is.) So no election can fail, and the log is one Kafka 3.8 writes without logging an
// error; any finding is the checker's or the impl's. Recovery actions are always allowed; the
// choice among the allowed enabled actions is uniform, from a seeded splitmix64 stream (the same
// seed gives the same log).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "impl/state_change_logger.hpp"
#include "spec/vocabulary/config.hpp"

namespace kcspec::conformance {

// The run's configuration: brokers 1–5 (all alive at start), topics `orders` (3 partitions,
// RF 3, one added), `payments` (2 partitions, RF 3), `audit.log` (1 partition, RF 2) and
// `clicks` (exists at start), reassignment targets, and bounds large enough never to run out in
// a run of any practical length (except StopReplica errors and unclean elections: 0).
const Config& implLogRunConfig();

struct ImplLogRunOptions {
  std::uint64_t seed = 1;
  std::uint64_t max_steps = 1000;       // stops after this many actions …
  std::uint64_t max_log_bytes = 0;      // … or once this much log is written (0: no byte limit)
  std::uint64_t clock_step_ms = 7;      // the fake clock advances this much per log line
  impl::LogLevel threshold = impl::LogLevel::TRACE;
  std::size_t chunk_bytes = std::size_t{1} << 20;  // `write` receives chunks of about this size
};

struct ImplLogRunStats {
  std::uint64_t steps = 0;
  std::uint64_t perturbations = 0;
  std::uint64_t log_bytes = 0;
  std::uint64_t log_lines = 0;
};

// Runs the reference controller from implLogRunConfig()'s initial state and hands its
// state-change.log to `write` in chunks of whole lines, in order.
ImplLogRunStats runImplLog(const ImplLogRunOptions& options, const std::function<void(std::string_view)>& write);

}  // namespace kcspec::conformance
