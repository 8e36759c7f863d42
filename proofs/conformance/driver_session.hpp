// One system under test behind the driver protocol: starts the command, initializes it with the
// configuration, steps it one action at a time and resets it, turning every way it can go wrong
// (a timeout, an exit, a malformed or out-of-order line, an error reply) into a SutFailure. A
// session whose process failed is restarted by the next begin().
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "proofs/conformance/driver_child.hpp"
#include "proofs/conformance/driver_protocol.hpp"
#include "spec/vocabulary/action.hpp"
#include "spec/vocabulary/config.hpp"
#include "spec/vocabulary/observation.hpp"

namespace kcspec::conformance {

enum class FindingKind : std::uint8_t {
  Mismatch,    // "mismatch": the SUT's observation differs from the spec's
  NotEnabled,  // "not-enabled": the SUT refused an action the spec enables
  ErrorReply,  // "error-reply": the SUT answered with another error code
  Timeout,     // "timeout": no reply within the timeout
  Exited,      // "exited": the SUT closed its output or exited
  Malformed,   // "malformed": a reply line that is not a valid protocol message
  Protocol,    // "protocol": a valid message that is not the reply owed (wrong type or id)
};
inline constexpr std::string_view kFindingKindNames[] = {"mismatch", "not-enabled", "error-reply", "timeout",
                                                         "exited",   "malformed",   "protocol"};
constexpr std::string_view findingKindName(FindingKind kind) { return kFindingKindNames[static_cast<int>(kind)]; }

struct SutFailure {
  FindingKind kind = FindingKind::Protocol;
  std::string message;  // one line
  std::string detail;   // more lines (the SUT's stderr tail, the offending line), may be empty
  std::optional<ErrorCode> error_code;  // kind ErrorReply or NotEnabled: the code the SUT answered
  // The SUT said it cannot make this run: it refused in init the protocol version the run needs
  // (2 for a given world, 3 for a configuration that names inter.broker.protocol.version), or
  // answered it with an older one, or answered `given` with `unsupported`. Not a divergence from
  // the spec: the run cannot be made with this SUT (kcspec drive: exit 2).
  bool cannot_run = false;
};

struct SutOptions {
  std::vector<std::string> command;
  std::chrono::milliseconds timeout{10'000};     // per reply (and per request written)
  std::size_t max_line_bytes = kDefaultMaxLineBytes;
  std::string stderr_log;  // not empty: every SUT process's whole stderr is appended to this file
};

using SutResult = std::variant<Observation, SutFailure>;

class SutSession {
 public:
  // Throws std::runtime_error when the command cannot be started at all (a usage error). With
  // `given`, every history starts from that world: the session speaks protocol 2 and sends it
  // (`given`) after each init and reset. `replayed_steps`: the history a replay sends, whose kinds
  // the session's version must have (a SUT that does not speak it cannot make the run).
  SutSession(SutOptions options, const Config& config, std::optional<Observation> given = std::nullopt,
             std::span<const Action> replayed_steps = {});
  ~SutSession();

  // The SUT in its starting state: `reset` if it is running and initialized, else (or when
  // `fresh`) a new process and `init`; then `given` when the session has a given world. The
  // observation it reports (given_ok's, with a given world).
  SutResult begin(bool fresh = false);
  // The world every history starts from, when it is not the configuration's initial state.
  const std::optional<Observation>& given() const { return given_; }
  SutResult step(const Action& action);
  // Sends quit and lets the process go (killing it after the timeout).
  void quit();

  // The action kinds the SUT said it implements (init_ok "actions"), nullopt: all.
  const std::optional<std::vector<ActionKind>>& implementedActions() const { return implemented_; }
  // Whether the SUT's observations carry topic ids (it speaks protocol 4): if not, the driver
  // compares both sides without them (withoutTopicIds).
  bool showsTopicIds() const { return protocol_ >= kDriverProtocolTopicIdsVersion; }
  // Whether they carry /feature and the brokers' ibp_upgraded (protocol 5): if not, the driver
  // compares without them (withoutRollingUpgradeMembers).
  bool showsRollingUpgrades() const { return protocol_ >= kDriverProtocolRollingUpgradeVersion; }
  // Whether the session's protocol has the action kind (actionProtocol): an older SUT is never sent
  // a kind its version lacks.
  bool speaks(ActionKind kind) const { return protocol_ >= actionProtocol(kind); }
  // Whether observations carry ZooKeeper's session_expiring_writes (protocol 6).
  bool showsSessionExpiries() const { return protocol_ >= kDriverProtocolSessionExpiryVersion; }
  // What of `world` this SUT is compared on.
  Observation comparable(const Observation& world) const;
  std::uint64_t starts() const { return starts_; }
  std::uint64_t requests() const { return requests_; }

 private:
  SutResult start();
  SutResult sendGiven(SutResult after_init_or_reset);
  SutResult exchange(const Request& request, ReplyType expected, const std::string& what);
  SutFailure fail(FindingKind kind, std::string message, std::string detail = {});

  SutOptions options_;
  const Config& config_;
  std::string config_text_;
  std::optional<Observation> given_;
  int protocol_ = kDriverProtocolVersion;  // the version init asks for: the newest, then the one needed
  int needed_protocol_ = 1;                 // the oldest version that can run the session
  // Why needed_protocol_ is what it is when a replayed step, not the configuration, asks for it:
  // "step N (`action`)"; empty otherwise.
  std::string needing_step_;
  std::unique_ptr<ChildProcess> child_;
  bool initialized_ = false;
  std::int64_t next_id_ = 1;
  std::optional<std::vector<ActionKind>> implemented_;
  std::uint64_t starts_ = 0;
  std::uint64_t requests_ = 0;
};

}  // namespace kcspec::conformance
