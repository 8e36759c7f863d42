// The ZooKeeper the cluster and KafkaZkClient talk to: the in-memory ZkStore (a value, copied
// with the cluster, the only one exploration ever uses) or, on the real-ZooKeeper path only, a
// RealZkStore the cluster points to (docs/zookeeper.md). No virtual interface: each call is one
// branch on the pointer, and copying a Store copies the in-memory store and the pointer.
//
// A Store that points to a RealZkStore shares that server with its copies (a real ZooKeeper
// cannot be copied); the in-memory part is then unused and stays empty.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/zookeeper/zk_store.hpp"

namespace kcspec::impl::zk {

class RealZkStore;  // impl/zookeeper/real_zk_store.hpp

// A non-owning handle on one of the two backends, with the operations KafkaZkClient and the
// cluster use. `find` returns a pointer valid until the next call on the backend.
// The paths whose next applied write loses its response: the client's connection drops just
// after ZooKeeper applied it (`zk-connection-loss`, kafka.md §6.3.8). Client-side state, not data.
using LostResponses = std::set<std::string, std::less<>>;
// The state znodes whose next write by a controller meets that controller's session expired
// (`zk-session-expiry`, docs/world.md convention 15). Client-side state, like LostResponses.
using SessionExpiringWrites = std::set<std::string, std::less<>>;

class StoreView {
 public:
  StoreView(ZkStore* memory, RealZkStore* real, LostResponses* lost = nullptr)
      : memory_(memory), real_(real), lost_(lost) {}

  const Znode* find(std::string_view path) const;
  bool exists(std::string_view path) const { return find(path) != nullptr; }
  std::pair<Code, std::vector<std::string>> getChildren(std::string_view path) const;

  OpResult create(std::string path, std::string data, SessionId owner = kNoSession);
  OpResult createSequential(std::string prefix, std::string data);  // persistent sequential (Op::sequential)
  OpResult setData(std::string path, std::string data, std::int32_t version);
  OpResult remove(std::string path, std::int32_t version);
  std::vector<OpResult> multi(const std::vector<Op>& ops);
  void closeSession(SessionId session);

  void countCreationsUnder(std::string parent);
  std::int64_t lastZxid() const;
  // A stated world (ZkStore::restore): the in-memory store only — a real server gives every node
  // its stat itself, so a world cannot be put there without its history.
  void restore(std::string path, std::string data, Stat stat);
  void restoreLastZxid(std::int64_t zxid);

  void watch(std::int32_t watcher, WatchKind kind, std::string path);
  void unwatch(std::int32_t watcher, WatchKind kind, const std::string& path);
  void unwatchAll(std::int32_t watcher);
  bool isWatching(std::int32_t watcher, WatchKind kind, const std::string& path) const;
  std::vector<WatchEvent> takeWatchEvents();

  bool isReal() const { return real_ != nullptr; }

  // The connection (kafka.md §6.3.8): arm a lost response for `path`, or take the armed one — true
  // once per arming, for the write that ZooKeeper applied.
  void loseNextResponse(std::string path);
  bool takeLostResponse(std::string_view path);

  // This client's session expired (docs/world.md convention 15): from now on every read and write
  // through this view answers SESSIONEXPIRED — thrown as KeeperException$SessionExpiredException,
  // which is what KafkaZkClient's callers make of it (a fenced multi has no results; a read
  // throws its response's exception). Watches are registered in the client alone and stay.
  void expireSession() { session_expired_ = true; }
  bool sessionExpired() const { return session_expired_; }

 private:
  void requireSession(std::string_view path) const;

  ZkStore* memory_;
  RealZkStore* real_;
  LostResponses* lost_;  // null: a client without a connection to lose (restoring a world)
  bool session_expired_ = false;
};

class Store {
 public:
  Store() = default;
  explicit Store(RealZkStore* real) : real_(real) {}

  StoreView view() { return StoreView(&memory_, real_, &lost_responses_); }
  StoreView view() const {  // reads only
    return StoreView(const_cast<ZkStore*>(&memory_), real_, const_cast<LostResponses*>(&lost_responses_));
  }

  const Znode* find(std::string_view path) const { return view().find(path); }
  bool exists(std::string_view path) const { return view().exists(path); }
  std::pair<Code, std::vector<std::string>> getChildren(std::string_view path) const { return view().getChildren(path); }
  void closeSession(SessionId session) { view().closeSession(session); }
  std::int64_t lastZxid() const { return view().lastZxid(); }
  void unwatchAll(std::int32_t watcher) { view().unwatchAll(watcher); }
  std::vector<WatchEvent> takeWatchEvents() { return view().takeWatchEvents(); }

  bool isReal() const { return real_ != nullptr; }
  RealZkStore* real() const { return real_; }
  // The in-memory store (empty when this Store points to a real ZooKeeper).
  const ZkStore& memory() const { return memory_; }
  const std::map<std::string, Znode, std::less<>>& nodes() const { return memory_.nodes(); }
  // The paths armed by `zk-connection-loss` and not yet written (with either backend).
  const LostResponses& lostResponses() const { return lost_responses_; }
  // The state-znode paths armed by `zk-session-expiry` and not yet met.
  const SessionExpiringWrites& sessionExpiringWrites() const { return session_expiring_writes_; }
  void armSessionExpiry(std::string path) { session_expiring_writes_.insert(std::move(path)); }
  // Takes the armings `paths` meet; whether there was one.
  bool takeSessionExpiry(const std::vector<std::string>& paths);

 private:
  ZkStore memory_;
  RealZkStore* real_ = nullptr;
  LostResponses lost_responses_;
  SessionExpiringWrites session_expiring_writes_;
};

}  // namespace kcspec::impl::zk
