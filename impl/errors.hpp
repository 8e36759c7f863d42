// Kafka's throwables as the controller raises and logs them. Each carries the fully qualified
// Java class name Kafka's logs print ("<class>: <message>", kafka.md §7.1) and its message.
// `Failure` is the value form (Kafka's Left(Throwable) in Either results).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "impl/zookeeper/zk_store.hpp"

namespace kcspec::impl {

struct Failure {
  std::string exception_class;
  std::string message;
  friend bool operator==(const Failure&, const Failure&) = default;
};

// Base of every throwable the controller code raises on purpose.
class KafkaThrowable : public std::runtime_error {
 public:
  KafkaThrowable(std::string exception_class, std::string message)
      : std::runtime_error(message), failure_{std::move(exception_class), std::move(message)} {}
  const Failure& failure() const { return failure_; }

 private:
  Failure failure_;
};

inline constexpr std::string_view kControllerMovedExceptionClass = "org.apache.kafka.common.errors.ControllerMovedException";

// org.apache.kafka.common.errors.ControllerMovedException: a fenced write found a newer
// controller (kafka.md §6.3). Escapes state machines; KafkaController.process answers maybeResign.
struct ControllerMovedException : KafkaThrowable {
  explicit ControllerMovedException(std::string message)
      : KafkaThrowable(std::string(kControllerMovedExceptionClass), std::move(message)) {}
};

struct IllegalStateException : KafkaThrowable {
  explicit IllegalStateException(std::string message)
      : KafkaThrowable("java.lang.IllegalStateException", std::move(message)) {}
};

struct StateChangeFailedException : KafkaThrowable {
  explicit StateChangeFailedException(std::string message)
      : KafkaThrowable("kafka.common.StateChangeFailedException", std::move(message)) {}
};

// Scala's NoSuchElementException from `map(key)` / `option.get` on a missing entry.
struct NoSuchElementException : KafkaThrowable {
  explicit NoSuchElementException(std::string message)
      : KafkaThrowable("java.util.NoSuchElementException", std::move(message)) {}
};

// kafka.admin.AdminOperationException: maybeRemoveFromZkReassignment's wrapping of a KeeperException.
struct AdminOperationException : KafkaThrowable {
  explicit AdminOperationException(std::string message)
      : KafkaThrowable("kafka.admin.AdminOperationException", std::move(message)) {}
};

struct KafkaException : KafkaThrowable {
  explicit KafkaException(std::string message) : KafkaThrowable("org.apache.kafka.common.KafkaException", std::move(message)) {}
};

// org.apache.zookeeper.KeeperException$<Code>Exception: "KeeperErrorCode = <Code>[ for <path>]".
inline Failure keeperFailure(zk::Code code, std::string_view path = {}) {
  std::string message = "KeeperErrorCode = " + std::string(zk::codeMessage(code));
  if (!path.empty()) message += " for " + std::string(path);
  return Failure{"org.apache.zookeeper.KeeperException$" + std::string(zk::exceptionSimpleName(code)), message};
}

struct KeeperException : KafkaThrowable {
  KeeperException(zk::Code code_, std::string_view path)
      : KafkaThrowable(keeperFailure(code_, path).exception_class, keeperFailure(code_, path).message), code(code_) {}
  zk::Code code;
};

}  // namespace kcspec::impl
