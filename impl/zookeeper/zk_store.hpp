// An in-memory ZooKeeper: hierarchical znodes holding string payloads, each with a data version
// and a creation zxid; conditional setData/delete by version; all-or-nothing multi-ops;
// ephemeral nodes owned by sessions; data and child watches.
//
// The store is a plain value (copyable, no pointers into itself). Watches do not call anyone:
// a change to a watched path appends a WatchEvent naming the watcher, and whoever owns the store
// drains them with takeWatchEvents() and turns them into controller events (docs/world.md §2).
// Watches stay registered until unregistered: kcspec coalesces instead of re-arming one-shot
// watches (an equal event already queued absorbs the change, docs/world.md §2).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace kcspec::impl::zk {

// The KeeperException codes the controller distinguishes.
// SESSIONEXPIRED is never a store's answer: a client whose session expired answers it itself
// (StoreView::expireSession).
enum class Code : std::uint8_t { OK, NONODE, NODEEXISTS, BADVERSION, NOTEMPTY, NOCHILDRENFOREPHEMERALS, RUNTIMEINCONSISTENCY, SESSIONEXPIRED };

// "NoNode", "NodeExists", … — KeeperException's getCodeMessage.
std::string_view codeMessage(Code code);
// "NoNodeException", … — the KeeperException subclass Kafka's logs name.
std::string_view exceptionSimpleName(Code code);

using SessionId = std::int32_t;
inline constexpr SessionId kNoSession = -1;
inline constexpr std::int32_t kMatchAnyVersion = -1;  // ZkVersion.MatchAnyVersion

struct Stat {
  std::int32_t version = 0;            // data version
  std::int64_t czxid = 0;              // creation order (see ZkStore::countCreationsUnder)
  SessionId ephemeral_owner = kNoSession;
  // Child version: changes of its children (creations and deletions). ZooKeeper names a
  // sequential child after its parent's cversion at the creation (`%010d`).
  std::int32_t cversion = 0;
};

struct Znode {
  std::string data;
  Stat stat;
};

// One operation of a multi (or a single write).
struct Op {
  enum class Kind : std::uint8_t { Check, Create, SetData, Delete };
  Kind kind = Kind::Check;
  std::string path;
  std::string data;                         // Create, SetData
  std::int32_t version = kMatchAnyVersion;  // Check, SetData, Delete
  SessionId ephemeral_owner = kNoSession;   // Create: the owning session of an ephemeral node
  // Create: PERSISTENT_SEQUENTIAL — `path` is a prefix, the server appends the parent's cversion
  // as ten digits (OpResult::path is the node created). Kafka's createSequentialPersistentPath.
  bool sequential = false;

  static Op check(std::string path_, std::int32_t version_) { return Op{Kind::Check, std::move(path_), {}, version_}; }
  static Op create(std::string path_, std::string data_, SessionId owner = kNoSession) {
    return Op{Kind::Create, std::move(path_), std::move(data_), kMatchAnyVersion, owner};
  }
  static Op createSequential(std::string prefix, std::string data_) {
    Op op = create(std::move(prefix), std::move(data_));
    op.sequential = true;
    return op;
  }
  static Op setData(std::string path_, std::string data_, std::int32_t version_) {
    return Op{Kind::SetData, std::move(path_), std::move(data_), version_};
  }
  static Op remove(std::string path_, std::int32_t version_) { return Op{Kind::Delete, std::move(path_), {}, version_}; }
};

struct OpResult {
  Code code = Code::OK;
  Stat stat;         // the node's stat after a successful Create/SetData
  std::string path;  // a successful Create: the node created (a sequential one's full name)
};

enum class WatchKind : std::uint8_t { Data, Children };

// A change seen by a registered watch. `watcher` is whoever registered it (a broker id).
struct WatchEvent {
  std::int32_t watcher = -1;
  WatchKind kind = WatchKind::Data;
  enum class Type : std::uint8_t { NodeCreated, NodeDeleted, NodeDataChanged, NodeChildrenChanged } type{};
  std::string path;
  friend bool operator==(const WatchEvent&, const WatchEvent&) = default;
};

// A value shared by copies until one of them changes it: copying is a reference count, and the
// first write to a shared value copies it. (The explorer copies the world on every transition,
// and most steps leave ZooKeeper as it was.) Only the owner of a copy reaches it, so a count of
// one means nobody else can see a write.
template <class T>
class CopyOnWrite {
 public:
  CopyOnWrite() : value_(std::make_shared<T>()) {}
  CopyOnWrite(const CopyOnWrite&) = default;  // no move: a moved-from value must stay usable
  CopyOnWrite& operator=(const CopyOnWrite&) = default;

  const T& operator*() const { return *value_; }
  const T* operator->() const { return value_.get(); }
  T& write() {
    if (value_.use_count() != 1) value_ = std::make_shared<T>(std::as_const(*value_));
    return *value_;
  }

 private:
  std::shared_ptr<T> value_;
};

class ZkStore {
 public:
  ZkStore();

  // --- reads
  const Znode* find(std::string_view path) const;
  bool exists(std::string_view path) const { return find(path) != nullptr; }
  // Child names in ascending order; NONODE when the parent is absent.
  std::pair<Code, std::vector<std::string>> getChildren(std::string_view path) const;

  // --- writes (each one a transaction of its own)
  OpResult create(std::string path, std::string data, SessionId owner = kNoSession);
  // A persistent sequential node: `prefix` + the parent's cversion as ten digits.
  OpResult createSequential(std::string prefix, std::string data);
  OpResult setData(std::string path, std::string data, std::int32_t version);
  OpResult remove(std::string path, std::int32_t version);
  // All or nothing: on failure the first failing op carries its code, the others
  // RUNTIMEINCONSISTENCY (as ZooKeeper reports), and nothing changes.
  std::vector<OpResult> multi(const std::vector<Op>& ops);
  // Closing a session removes its ephemeral nodes (and fires their watches).
  void closeSession(SessionId session);

  // Children created under `parent` advance the creation counter and take it as their czxid
  // (kcspec's zxid is the creation order of broker registrations, docs/world.md); every other
  // node records the counter's current value.
  void countCreationsUnder(std::string parent) {
    if (!counted_parents_->contains(parent)) counted_parents_.write().insert(std::move(parent));
  }
  std::int64_t lastZxid() const { return last_zxid_; }

  // --- a stated world (issue 28): the store as it stands after some history, put back without
  // replaying it. `restore` puts one node with the stat it had (data version, czxid, owning
  // session) under an existing, persistent parent; it is no transaction: no watch fires and the
  // creation counter does not move. `restoreLastZxid` sets that counter. The parent's cversion
  // counts the restored child (so a sequential creation after it gets a new name).
  void restore(std::string path, std::string data, Stat stat);
  void restoreLastZxid(std::int64_t zxid);

  // --- watches
  void watch(std::int32_t watcher, WatchKind kind, std::string path);
  void unwatch(std::int32_t watcher, WatchKind kind, const std::string& path);
  void unwatchAll(std::int32_t watcher);
  bool isWatching(std::int32_t watcher, WatchKind kind, const std::string& path) const;
  std::vector<WatchEvent> takeWatchEvents();

  const std::map<std::string, Znode, std::less<>>& nodes() const { return *nodes_; }

 private:
  static std::string parentOf(std::string_view path);
  Code validate(const Op& op, const std::map<std::string, Znode, std::less<>>& view) const;
  OpResult applyUnchecked(const Op& op);
  void notify(WatchKind kind, WatchEvent::Type type, const std::string& path);

  CopyOnWrite<std::map<std::string, Znode, std::less<>>> nodes_;
  std::int64_t last_zxid_ = 0;
  CopyOnWrite<std::set<std::string, std::less<>>> counted_parents_;
  CopyOnWrite<std::set<std::tuple<std::int32_t, WatchKind, std::string>>> watches_;
  std::vector<WatchEvent> pending_;
};

}  // namespace kcspec::impl::zk
