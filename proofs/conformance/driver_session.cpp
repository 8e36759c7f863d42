// SutSession: the driver protocol's requests over a ChildProcess, one reply per request.
#include "proofs/conformance/driver_session.hpp"

#include "spec/vocabulary/broker_ibp.hpp"

#include "spec/vocabulary/topic_ids.hpp"

#include <fmt/format.h>

#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/config_text.hpp"

namespace kcspec::conformance {
namespace {

// Control and non-ASCII bytes as \xNN, so a garbage line prints as one readable line.
std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

// printable(), of the first 300 bytes of a long line, then "… (N bytes)" (the ellipsis added
// after the escaping, so that it prints as itself).
std::string printableShortened(std::string_view line) {
  constexpr std::size_t kShown = 300;
  if (line.size() <= kShown) return printable(line);
  return fmt::format("{}… ({} bytes)", printable(line.substr(0, kShown)), line.size());
}

// Why a SUT that does not speak the protocol a run asks for cannot make it: `needing_step`, when a
// replayed step asks for it, or else the configuration (or the given world).
std::string whyProtocol(const Config& config, int protocol, const std::string& needing_step) {
  if (!needing_step.empty()) {
    return fmt::format("; the scenario's {} is an action of protocol {}", needing_step, protocol);
  }
  if (protocol == kDriverProtocolSessionExpiryVersion) {
    return fmt::format("; the configuration bounds zk-session-expiries ({}), and a session expiring in the middle "
                       "of an event is part of protocol {}",
                       config.bounds.zk_session_expiries, kDriverProtocolSessionExpiryVersion);
  }
  if (protocol == kDriverProtocolRollingUpgradeVersion) {
    return fmt::format("; the configuration names an upgrade inter.broker.protocol.version ({}), and a rolling "
                       "upgrade is part of protocol {}",
                       metadataVersionName(*config.upgrade_inter_broker_protocol_version),
                       kDriverProtocolRollingUpgradeVersion);
  }
  if (protocol == kDriverProtocolIbpVersion) {
    return fmt::format("; the configuration names inter.broker.protocol.version {}, and a configuration that names "
                       "one (with the request versions it gives) is part of protocol {}",
                       metadataVersionName(config.inter_broker_protocol_version), kDriverProtocolIbpVersion);
  }
  return fmt::format("; `given`, which starts a run from a given world, is a request of protocol {}",
                     kDriverProtocolGivenVersion);
}

}  // namespace

SutSession::SutSession(SutOptions options, const Config& config, std::optional<Observation> given,
                       std::span<const Action> replayed_steps)
    : options_(std::move(options)),
      config_(config),
      config_text_(printConfig(config)),
      given_(std::move(given)),
      needed_protocol_(neededProtocol(config, given_.has_value(), replayed_steps)) {
  if (needed_protocol_ > neededProtocol(config, given_.has_value())) {
    for (std::size_t i = 0; i < replayed_steps.size(); ++i) {  // bounded by the history
      if (actionProtocol(replayed_steps[i].kind) != needed_protocol_) continue;
      needing_step_ = fmt::format("step {} (`{}`)", i + 1, printAction(config, replayed_steps[i]));
      break;
    }
  }
  // Start once here so that a command that cannot run is a usage error, not a finding.
  child_ = std::make_unique<ChildProcess>(options_.command, options_.max_line_bytes, 4096, options_.stderr_log);
  ++starts_;
}

Observation SutSession::comparable(const Observation& world) const {
  Observation out = showsRollingUpgrades() ? world : withoutRollingUpgradeMembers(world);
  if (!showsSessionExpiries()) out.zk.session_expiring_writes = PartitionSet{};
  return showsTopicIds() ? out : withoutTopicIds(std::move(out));
}

SutSession::~SutSession() {
  if (child_) child_->kill();
}

SutFailure SutSession::fail(FindingKind kind, std::string message, std::string detail) {
  // The process is no longer trusted: the next begin() starts a fresh one.
  if (child_) {
    child_->kill();
    const std::string tail = child_->stderrTail();
    if (!tail.empty()) detail += (detail.empty() ? "" : "\n") + std::string("SUT stderr (last lines):\n") + tail;
    if (kind == FindingKind::Exited) message += fmt::format(" (the SUT {})", child_->exitDescription());
  }
  child_.reset();
  initialized_ = false;
  return SutFailure{kind, std::move(message), std::move(detail)};
}

SutResult SutSession::exchange(const Request& request, ReplyType expected, const std::string& what) {
  ++requests_;
  const std::string line = encodeRequest(request);
  const std::int64_t id = std::visit([](const auto& r) { return r.id; }, request);
  if (!child_->writeLine(line, options_.timeout)) {
    if (!child_->running()) return fail(FindingKind::Exited, fmt::format("the SUT exited before reading {}", what));
    return fail(FindingKind::Timeout, fmt::format("the SUT did not read {} within {} ms", what, options_.timeout.count()));
  }
  const LineResult got = child_->readLine(options_.timeout);
  switch (got.status) {
    case LineStatus::Timeout:
      return fail(FindingKind::Timeout, fmt::format("no reply to {} within {} ms", what, options_.timeout.count()));
    case LineStatus::Closed:
      child_->finish(std::chrono::milliseconds(1000));
      return fail(FindingKind::Exited, fmt::format("the SUT closed its output instead of answering {}", what),
                  got.line.empty() ? "" : "unterminated output: " + printableShortened(got.line));
    case LineStatus::TooLong:
      return fail(FindingKind::Malformed,
                  fmt::format("the reply to {} is longer than {} bytes", what, options_.max_line_bytes),
                  "it starts: " + printable(got.line));
    case LineStatus::Line:
      break;
  }
  ParsedReply parsed = parseReply(got.line, options_.max_line_bytes);
  if (const auto* error = std::get_if<ReplyError>(&parsed)) {
    return fail(FindingKind::Malformed, fmt::format("malformed reply to {}: {}", what, error->message),
                "the line: " + printableShortened(got.line));
  }
  Reply& reply = std::get<Reply>(parsed);
  if (reply.id != id) {
    return fail(FindingKind::Protocol, fmt::format("the reply to {} carries id {}, expected {}", what, reply.id, id),
                "the line: " + printableShortened(got.line));
  }
  if (reply.type == ReplyType::Error) {
    const FindingKind kind = reply.code == ErrorCode::NotEnabled ? FindingKind::NotEnabled : FindingKind::ErrorReply;
    SutFailure failure{kind, fmt::format("the SUT answered {} with error {}: {}", what, errorCodeName(reply.code), reply.message), "",
                       reply.code};
    // An error reply leaves the process usable, but its state is not the spec's any more.
    return failure;
  }
  if (reply.type != expected) {
    return fail(FindingKind::Protocol,
                fmt::format("the SUT answered {} with {}, expected {}", what, kReplyTypeNames[static_cast<int>(reply.type)],
                            kReplyTypeNames[static_cast<int>(expected)]),
                "the line: " + printableShortened(got.line));
  }
  if (reply.type == ReplyType::InitOk) {
    if (reply.protocol != protocol_ && protocol_ == kDriverProtocolVersion && reply.protocol < protocol_ &&
        reply.protocol >= needed_protocol_) {
      protocol_ = reply.protocol;  // an older SUT that answers for its own version: taken at it, without what it lacks
    } else if (reply.protocol != protocol_) {
      SutFailure failure = fail(FindingKind::Protocol,
                                fmt::format("the SUT answered init for protocol {} with init_ok of protocol {}",
                                            protocol_, reply.protocol),
                                "the line: " + printableShortened(got.line));
      if (needed_protocol_ > 1 && reply.protocol < needed_protocol_) {
        failure.message += whyProtocol(config_, needed_protocol_, needing_step_);
        failure.cannot_run = true;
      }
      return failure;
    }
    implemented_ = reply.actions;
  }
  if (!reply.observation) return Observation{};  // quit_ok
  return std::move(*reply.observation);
}

SutResult SutSession::start() {
  if (!child_) {
    try {
      child_ = std::make_unique<ChildProcess>(options_.command, options_.max_line_bytes, 4096, options_.stderr_log);
    } catch (const std::exception& e) {
      return SutFailure{FindingKind::Exited, fmt::format("the SUT could not be restarted: {}", e.what()), ""};
    }
    ++starts_;
  }
  SutResult result = exchange(InitRequest{next_id_++, protocol_, config_text_}, ReplyType::InitOk, "init");
  auto* failure = std::get_if<SutFailure>(&result);
  if (failure != nullptr && failure->error_code == ErrorCode::UnsupportedProtocol && protocol_ > needed_protocol_) {
    // A SUT of an older version: the run goes on at the version it needs, without topic ids.
    protocol_ = needed_protocol_;
    result = exchange(InitRequest{next_id_++, protocol_, config_text_}, ReplyType::InitOk, "init");
    failure = std::get_if<SutFailure>(&result);
  }
  initialized_ = std::holds_alternative<Observation>(result);
  if (failure != nullptr && protocol_ > 1 && failure->error_code == ErrorCode::UnsupportedProtocol) {
    failure->message += whyProtocol(config_, protocol_, needing_step_);
    failure->cannot_run = true;
  }
  return sendGiven(std::move(result));
}

// After a successful init or reset in a session with a given world: `given`, whose reply is the
// starting observation.
SutResult SutSession::sendGiven(SutResult after_init_or_reset) {
  if (!given_ || !std::holds_alternative<Observation>(after_init_or_reset)) return after_init_or_reset;
  SutResult result = exchange(GivenRequest{next_id_++, comparable(*given_)}, ReplyType::GivenOk, "given");
  if (auto* failure = std::get_if<SutFailure>(&result); failure && failure->kind == FindingKind::ErrorReply) {
    // Its state is not the given world: the next begin() starts over with init.
    initialized_ = false;
    failure->cannot_run = failure->error_code == ErrorCode::Unsupported;
  }
  return result;
}

SutResult SutSession::begin(bool fresh) {
  if (fresh && child_) {
    child_->kill();
    child_.reset();
    initialized_ = false;
  }
  if (!child_ || !initialized_) return start();
  SutResult result = exchange(ResetRequest{next_id_++}, ReplyType::ResetOk, "reset");
  if (const auto* failure = std::get_if<SutFailure>(&result); failure && failure->kind == FindingKind::ErrorReply) {
    initialized_ = false;
  }
  return sendGiven(std::move(result));
}

SutResult SutSession::step(const Action& action) {
  const std::string text = printAction(config_, action);
  if (!child_) return SutFailure{FindingKind::Exited, "the SUT is not running", ""};
  return exchange(StepRequest{next_id_++, text}, ReplyType::StepOk, fmt::format("step \"{}\"", text));
}

void SutSession::quit() {
  if (!child_) return;
  ++requests_;
  if (child_->writeLine(encodeRequest(QuitRequest{next_id_++}), options_.timeout)) {
    (void)child_->readLine(std::min(options_.timeout, std::chrono::milliseconds(2000)));
  }
  child_->finish(std::min(options_.timeout, std::chrono::milliseconds(2000)));
  child_.reset();
  initialized_ = false;
}

}  // namespace kcspec::conformance
