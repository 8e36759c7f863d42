// The real-ZooKeeper backend: the same operations as the in-memory ZkStore, carried out on a
// ZooKeeper server through Debian's C client (libzookeeper-mt). Versions, conditional
// setData/delete (BADVERSION), all-or-nothing multi-ops (the /controller_epoch version check of
// every fenced controller write), ephemeral nodes owned by real sessions, real watches.
//
// How it keeps the in-memory store's contract (docs/zookeeper.md):
// - Sessions. Each kcspec SessionId (a broker's registration or controller session) is its own
//   ZooKeeper session, opened when first used; closeSession closes it (the server deletes its
//   ephemerals). Writes without an owning session go through one shared session. A session the
//   server expired is reopened on next use and reported once by takeExpiredSessions().
// - zxid. The broker epoch is the registration znode's czxid. Creations under a counted parent
//   (/brokers/ids) made through this store are numbered 1, 2, … in creation order, exactly as
//   in the in-memory store, and their real czxids are translated to those numbers; a node this
//   store did not create shows its real czxid.
// - Watches. ZooKeeper watches fire once; this store keeps the registrations (watcher, kind,
//   path) as the in-memory store does, arms a real watch for each on the watcher's controller
//   session, and re-arms it after it fired. takeWatchEvents() first makes one round trip on
//   every watching session, so every notification for a change made before the call has been
//   delivered (ZooKeeper orders notifications before later replies on a session).
//
// Not copyable (it owns connections). Every wait is bounded by the options' timeouts.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/zookeeper/zk_store.hpp"

namespace kcspec::impl::zk {

struct RealZkOptions {
  std::string connect;                // host:port[,host:port…][/chroot]
  int session_timeout_ms = 6000;      // requested; the server bounds it by 2..20 ticks
  int connect_timeout_ms = 10000;     // waiting for a session to be established
  bool create_chroot = false;         // create the chroot path (and its parents) if absent
};

// The server could not be reached, refused us, or answered something unexpected.
class ZkUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A fenced write that the /controller_epoch version check rejected (kept for reporting).
struct RejectedFencedWrite {
  std::int32_t expected_controller_epoch_zk_version = -1;
  std::string path;  // the path the fenced op wrote
};

class RealZkStore {
 public:
  explicit RealZkStore(RealZkOptions options);  // connects (throws ZkUnavailable)
  ~RealZkStore();
  RealZkStore(const RealZkStore&) = delete;
  RealZkStore& operator=(const RealZkStore&) = delete;

  // --- the in-memory store's operations (zk_store.hpp)
  const Znode* find(std::string_view path) const;  // valid until the next find of the same path
  std::pair<Code, std::vector<std::string>> getChildren(std::string_view path) const;
  OpResult create(std::string path, std::string data, SessionId owner = kNoSession);
  OpResult createSequential(std::string prefix, std::string data);  // ZOO_SEQUENCE: the server names it
  OpResult setData(std::string path, std::string data, std::int32_t version);
  OpResult remove(std::string path, std::int32_t version);
  std::vector<OpResult> multi(const std::vector<Op>& ops);
  void closeSession(SessionId session);
  void countCreationsUnder(std::string parent);
  std::int64_t lastZxid() const;
  void watch(std::int32_t watcher, WatchKind kind, std::string path);
  void unwatch(std::int32_t watcher, WatchKind kind, const std::string& path);
  void unwatchAll(std::int32_t watcher);
  bool isWatching(std::int32_t watcher, WatchKind kind, const std::string& path) const;
  std::vector<WatchEvent> takeWatchEvents();

  // --- real-only
  // Sessions the server expired since the last call (each probed with one round trip).
  std::vector<SessionId> takeExpiredSessions();
  // Fenced writes rejected by the /controller_epoch check since the last call.
  std::vector<RejectedFencedWrite> takeRejectedFencedWrites();
  // Every znode under the root (the chroot), path → data and version, for comparisons.
  std::vector<std::pair<std::string, Znode>> dump(std::size_t max_nodes) const;
  // Deletes everything under the root except /zookeeper (tests use a fresh chroot instead).
  void deleteAll();
  // Makes the server end an open session as if it had expired: a second client attaches to the
  // session (same id and password) and closes it. The session's ephemerals go, and the next use
  // of it finds it expired (takeExpiredSessions reports it). For tests and run-controller demos.
  void expireSession(SessionId session);
  // Requests sent to the server so far (reads, writes, watch registrations, round trips).
  std::uint64_t requestCount() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kcspec::impl::zk
