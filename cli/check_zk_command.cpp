// `kcspec check-zk --zookeeper HOST:PORT[/chroot] [--json] [--watch SECONDS [--rounds N]]`: reads a
// live ZooKeeper-mode Kafka cluster's metadata (read-only: no write, no watch, no chroot
// creation) and reports every violation judgeable from ZooKeeper alone, with a per-topic summary
// (proofs/zk_check/, docs/zookeeper.md). --watch repeats every SECONDS and prints what changed.
//
// Exit status: 0 no findings (in the last round), 1 findings, 2 bad arguments, an unreachable
// server or a path that is not a Kafka cluster's root. Ctrl-C ends --watch between rounds, with
// the last round's status.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "cli/command.hpp"
#include "cli/files.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/number_options.hpp"
#include "cli/zookeeper_connect.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "proofs/zk_check/zk_findings.hpp"

namespace kcspec::cli {
namespace {

// Sleeps `duration` in slices of at most 100 ms; false when Ctrl-C came meanwhile.
bool sleepUnlessInterrupted(std::chrono::duration<double> duration) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::nanoseconds>(duration);
  for (;;) {  // bounded: each round sleeps until `until` or 100 ms
    if (interruptFlag().load()) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(until - now, std::chrono::milliseconds(100)));
  }
}

struct CheckZkOptions {
  std::string zookeeper;
  bool json = false;
  double watch_seconds = 0;
  int rounds = 1000;
  int connect_timeout_ms = 5000;
  int session_timeout_ms = 10000;
};

struct Round {
  zkcheck::ZkSnapshot snapshot;
  std::vector<zkcheck::ZkFinding> findings;
};

Round readRound(const impl::zk::RealZkStore& zk) {
  Round r;
  try {
    r.snapshot = zkcheck::readSnapshot(zk);
  } catch (const std::invalid_argument& e) {
    throw UserError("--zookeeper", e.what());
  }
  r.findings = zkcheck::findViolations(r.snapshot);
  return r;
}

int runCheckZk(const CheckZkOptions& options) {
  impl::zk::RealZkOptions zk_options;
  zk_options.connect = checkZookeeperConnect(options.zookeeper);
  zk_options.connect_timeout_ms = options.connect_timeout_ms;
  zk_options.session_timeout_ms = options.session_timeout_ms;
  zk_options.create_chroot = false;  // read-only
  try {
    const impl::zk::RealZkStore zk(zk_options);
    // --watch runs until --rounds or Ctrl-C, which ends it between rounds (each round's report is
    // printed whole) with the last round's exit status.
    std::optional<InterruptGuard> interrupt;
    if (options.watch_seconds > 0) interrupt.emplace();
    Round previous = readRound(zk);
    if (options.json) {
      nlohmann::json out = zkcheck::renderJson(previous.snapshot, previous.findings);
      if (options.watch_seconds > 0) out["round"] = 1;
      fmt::print("{}\n", out.dump());
    } else {
      fmt::print("{}", zkcheck::renderText(previous.snapshot, previous.findings));
    }
    std::fflush(stdout);
    if (options.watch_seconds > 0) {
      for (int round = 2; round <= options.rounds; ++round) {
        if (!sleepUnlessInterrupted(std::chrono::duration<double>(options.watch_seconds))) {
          fmt::print(stderr, "check-zk: interrupted after round {}; the exit status is that round's\n", round - 1);
          break;
        }
        Round next = readRound(zk);
        const std::vector<std::string> before = zkcheck::reportLines(previous.snapshot, previous.findings);
        const std::vector<std::string> after = zkcheck::reportLines(next.snapshot, next.findings);
        const std::set<std::string> before_set(before.begin(), before.end());
        const std::set<std::string> after_set(after.begin(), after.end());
        std::vector<std::string> removed, added;
        for (const std::string& line : before) {
          if (!after_set.contains(line)) removed.push_back(line);
        }
        for (const std::string& line : after) {
          if (!before_set.contains(line)) added.push_back(line);
        }
        if (options.json) {
          fmt::print("{}\n", nlohmann::json{{"round", round}, {"removed", removed}, {"added", added},
                                            {"finding_count", next.findings.size()}, {"requests", next.snapshot.requests}}
                                 .dump());
        } else {
          fmt::print("round {}: {}\n", round,
                     removed.empty() && added.empty() ? "no changes"
                                                      : fmt::format("{} changed lines, {} findings", removed.size() + added.size(),
                                                                    next.findings.size()));
          for (const std::string& line : removed) fmt::print("- {}\n", line);
          for (const std::string& line : added) fmt::print("+ {}\n", line);
        }
        std::fflush(stdout);
        previous = std::move(next);
      }
    }
    return previous.findings.empty() ? 0 : 1;
  } catch (const impl::zk::ZkUnavailable& e) {
    throw UserError("--zookeeper", e.what());
  }
}

}  // namespace

CommandRun addCheckZkCommand(CLI::App& app) {
  auto options = std::make_shared<CheckZkOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check-zk", "Read a live ZooKeeper-mode Kafka cluster's metadata (read-only) and report invariant violations");
  cmd->add_option("--zookeeper", options->zookeeper, "HOST:PORT[,HOST:PORT...][/chroot] of the cluster's ZooKeeper")->required();
  cmd->add_flag("--json", options->json, "print one JSON object (per round with --watch)");
  cmd->add_option("--watch", options->watch_seconds, "repeat every SECONDS and report what changed")->check(positiveSeconds(86'400));
  cmd->add_option("--rounds", options->rounds, "with --watch: stop after N rounds (default 1000)")->check(CLI::Range(1, 100000000));
  cmd->add_option("--connect-timeout-ms", options->connect_timeout_ms, "give up connecting after this long (default 5000)")
      ->check(CLI::Range(100, 600000));
  cmd->add_option("--session-timeout-ms", options->session_timeout_ms, "the ZooKeeper session timeout (default 10000)")
      ->check(CLI::Range(1000, 600000));
  return [options] { return runCheckZk(*options); };
}

}  // namespace kcspec::cli
