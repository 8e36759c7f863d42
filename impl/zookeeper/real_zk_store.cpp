// RealZkStore on libzookeeper-mt (real_zk_store.hpp).
#include "impl/zookeeper/real_zk_store.hpp"

// THREADED: the multi-threaded client, which has the synchronous API (libzookeeper_mt).
#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "impl/zookeeper/kafka_zk_client.hpp"
#include "impl/zookeeper/zk_data.hpp"

namespace kcspec::impl::zk {

namespace {

constexpr int kMaxRetries = 3;               // a call after an expired session or a lost connection
constexpr std::size_t kMaxDataBytes = 1 << 20;  // jute.maxbuffer's default

// The Code of an operation's result; anything else (no permission, a server error) is ZkUnavailable.
Code codeOf(int rc, std::string_view path = {}) {
  switch (rc) {
    case ZOK: return Code::OK;
    case ZNONODE: return Code::NONODE;
    case ZNODEEXISTS: return Code::NODEEXISTS;
    case ZBADVERSION: return Code::BADVERSION;
    case ZNOTEMPTY: return Code::NOTEMPTY;
    case ZNOCHILDRENFOREPHEMERALS: return Code::NOCHILDRENFOREPHEMERALS;
    case ZRUNTIMEINCONSISTENCY: return Code::RUNTIMEINCONSISTENCY;
    default:
      throw ZkUnavailable(path.empty() ? fmt::format("ZooKeeper answered {} ({})", zerror(rc), rc)
                                       : fmt::format("ZooKeeper answered {} ({}) for {}", zerror(rc), rc, path));
  }
}

// Errors of the connection rather than of the operation: retried on a fresh session.
bool isSessionError(int rc) { return rc == ZSESSIONEXPIRED || rc == ZINVALIDSTATE || rc == ZCONNECTIONLOSS || rc == ZOPERATIONTIMEOUT; }

std::string parentOf(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  if (slash == 0 || slash == std::string_view::npos) return "/";
  return std::string(path.substr(0, slash));
}

FILE* quietLogStream() {
  static FILE* stream = [] {
    if (std::getenv("KCSPEC_ZK_CLIENT_LOG") != nullptr) return stderr;
    FILE* devnull = std::fopen("/dev/null", "w");
    return devnull != nullptr ? devnull : stderr;
  }();
  return stream;
}

}  // namespace

struct RealZkStore::Impl {
  struct RawEvent {
    zhandle_t* zh;
    WatchKind kind;
    int type;
    std::string path;
  };
  using Registration = std::tuple<std::int32_t, WatchKind, std::string>;

  RealZkOptions options;
  std::mutex mutex;  // guards states and raw_events (written by the client's completion thread)
  std::condition_variable changed;
  std::map<zhandle_t*, int> states;
  std::deque<RawEvent> raw_events;

  std::map<SessionId, zhandle_t*> sessions;  // kNoSession: the shared session
  std::map<std::int64_t, SessionId> session_of_client_id;
  std::vector<SessionId> expired;
  std::map<std::int64_t, std::int64_t> czxid_of;  // real czxid → creation number
  std::int64_t last_zxid = 0;
  std::set<std::string, std::less<>> counted_parents;
  std::set<Registration> watches;
  std::set<Registration> armed;
  std::map<zhandle_t*, std::int32_t> watcher_of;
  std::vector<RejectedFencedWrite> rejected;
  mutable std::map<std::string, Znode, std::less<>> cache;
  std::uint64_t requests = 0;

  static void sessionWatcher(zhandle_t* zh, int type, int state, const char*, void* context) {
    if (type != ZOO_SESSION_EVENT) return;
    auto* self = static_cast<Impl*>(context);
    std::lock_guard lock(self->mutex);
    self->states[zh] = state;
    self->changed.notify_all();
  }
  static void record(zhandle_t* zh, int type, const char* path, void* context, WatchKind kind) {
    if (type == ZOO_SESSION_EVENT || path == nullptr) return;
    auto* self = static_cast<Impl*>(context);
    std::lock_guard lock(self->mutex);
    self->raw_events.push_back(RawEvent{zh, kind, type, path});
  }
  static void dataWatcher(zhandle_t* zh, int type, int, const char* path, void* context) {
    record(zh, type, path, context, WatchKind::Data);
  }
  static void childWatcher(zhandle_t* zh, int type, int, const char* path, void* context) {
    record(zh, type, path, context, WatchKind::Children);
  }

  // The client's own view of the session (its I/O thread's), ahead of the session callbacks.
  static int stateOf(zhandle_t* zh) { return zoo_state(zh); }

  // Waits (bounded) until the client has delivered every notification it received before now.
  // Synchronous replies are handed over by the client's I/O thread while notifications go through
  // its completion thread, so a synchronous round trip is not enough: an asynchronous request's
  // completion is queued behind the notifications that arrived before its reply.
  struct Barrier {
    std::mutex mutex;
    std::condition_variable done_changed;
    bool done = false;
  };
  static void barrierReached(int, const ::Stat*, const void* data) {
    auto* barrier = static_cast<std::shared_ptr<Barrier>*>(const_cast<void*>(data));
    {
      std::lock_guard lock((*barrier)->mutex);
      (*barrier)->done = true;
    }
    (*barrier)->done_changed.notify_all();
    delete barrier;
  }
  void drainNotifications(zhandle_t* zh) {
    auto barrier = std::make_shared<Barrier>();
    auto* handed = new std::shared_ptr<Barrier>(barrier);
    if (zoo_aexists(zh, "/", 0, &Impl::barrierReached, handed) != ZOK) {
      delete handed;
      return;
    }
    std::unique_lock lock(barrier->mutex);
    barrier->done_changed.wait_for(lock, std::chrono::milliseconds(options.connect_timeout_ms), [&] { return barrier->done; });
  }

  zhandle_t* connect(const std::string& connect_string) {
    zoo_set_log_stream(quietLogStream());
    zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
    zhandle_t* zh = zookeeper_init(connect_string.c_str(), &Impl::sessionWatcher, options.session_timeout_ms, nullptr, this, 0);
    if (zh == nullptr) throw ZkUnavailable(fmt::format("cannot use ZooKeeper connect string '{}'", connect_string));
    std::unique_lock lock(mutex);
    const bool connected = changed.wait_for(lock, std::chrono::milliseconds(options.connect_timeout_ms), [&] {
      const auto it = states.find(zh);
      return it != states.end() && (it->second == ZOO_CONNECTED_STATE || it->second == ZOO_EXPIRED_SESSION_STATE ||
                                    it->second == ZOO_AUTH_FAILED_STATE);
    });
    const int state = connected ? states[zh] : 0;
    lock.unlock();
    if (state != ZOO_CONNECTED_STATE) {
      closeHandle(zh);
      throw ZkUnavailable(fmt::format("cannot connect to ZooKeeper at '{}' within {} ms", connect_string,
                                      options.connect_timeout_ms));
    }
    return zh;
  }

  void closeHandle(zhandle_t* zh) {
    zookeeper_close(zh);
    std::lock_guard lock(mutex);
    states.erase(zh);
    std::erase_if(raw_events, [zh](const RawEvent& e) { return e.zh == zh; });
  }

  zhandle_t* open(SessionId session) {
    zhandle_t* zh = connect(options.connect);
    sessions[session] = zh;
    if (const clientid_t* id = zoo_client_id(zh)) session_of_client_id[id->client_id] = session;
    return zh;
  }

  // The handle of a session, opened if needed; a session the server expired is reported and
  // replaced by a new one (as Kafka's ZooKeeperClient re-creates its session).
  zhandle_t* handle(SessionId session) {
    const auto it = sessions.find(session);
    if (it == sessions.end()) return open(session);
    if (stateOf(it->second) == ZOO_EXPIRED_SESSION_STATE) {
      replaceExpired(session);
      return open(session);
    }
    return it->second;
  }

  void replaceExpired(SessionId session) {
    const auto it = sessions.find(session);
    if (it == sessions.end()) return;
    if (session != kNoSession) expired.push_back(session);
    forgetArmedOf(it->second);
    closeHandle(it->second);
    sessions.erase(it);
  }

  void forgetArmedOf(zhandle_t* zh) {
    const auto w = watcher_of.find(zh);
    if (w == watcher_of.end()) return;
    std::erase_if(armed, [&](const Registration& r) { return std::get<0>(r) == w->second; });
    watcher_of.erase(w);
  }

  // Runs `call(zh)` on the session's handle; a session error is retried on a fresh handle.
  template <class Call>
  int run(SessionId session, Call call) {
    int rc = ZOK;
    for (int attempt = 0; attempt <= kMaxRetries; ++attempt) {
      zhandle_t* zh = handle(session);
      ++requests;
      rc = call(zh);
      if (!isSessionError(rc)) return rc;
      waitSettled(zh);
      if (rc == ZSESSIONEXPIRED || stateOf(zh) == ZOO_EXPIRED_SESSION_STATE) replaceExpired(session);
    }
    throw ZkUnavailable(fmt::format("ZooKeeper at '{}': {} after {} attempts", options.connect, zerror(rc), kMaxRetries + 1));
  }

  // After a connection error: wait (bounded) until the client is connected again or expired.
  void waitSettled(zhandle_t* zh) {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, std::chrono::milliseconds(options.connect_timeout_ms), [&] {
      const auto it = states.find(zh);
      return it == states.end() || it->second == ZOO_CONNECTED_STATE || it->second == ZOO_EXPIRED_SESSION_STATE;
    });
  }

  std::int64_t creationNumber(std::int64_t real_czxid) const {
    const auto it = czxid_of.find(real_czxid);
    return it == czxid_of.end() ? real_czxid : it->second;
  }

  SessionId ownerOf(std::int64_t client_id) const {
    if (client_id == 0) return kNoSession;
    const auto it = session_of_client_id.find(client_id);
    return it == session_of_client_id.end() ? -2 : it->second;
  }

  void arm(const Registration& registration) {
    const auto& [watcher, kind, path] = registration;
    const SessionId session = controllerSession(watcher);
    int rc = ZOK;
    if (kind == WatchKind::Data) {
      ::Stat stat{};
      rc = run(session, [&stat, &path = path, this](zhandle_t* h) {
        return zoo_wexists(h, path.c_str(), &Impl::dataWatcher, this, &stat);
      });
      if (rc == ZOK || rc == ZNONODE) armed.insert(registration);
    } else {
      String_vector children{};
      rc = run(session, [&children, &path = path, this](zhandle_t* h) {
        return zoo_wget_children(h, path.c_str(), &Impl::childWatcher, this, &children);
      });
      if (rc == ZOK) {
        deallocate_String_vector(&children);
        armed.insert(registration);
      }
    }
    watcher_of[handle(session)] = watcher;
  }
};

RealZkStore::RealZkStore(RealZkOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  const std::string& connect = impl_->options.connect;
  const std::size_t slash = connect.find('/');
  if (slash != std::string::npos && impl_->options.create_chroot) {
    const std::string chroot = connect.substr(slash);
    zhandle_t* root = impl_->connect(connect.substr(0, slash));
    for (std::size_t next = 1; next != std::string::npos;) {
      next = chroot.find('/', next + 1);
      const std::string prefix = chroot.substr(0, next);
      const int rc = zoo_create(root, prefix.c_str(), "", 0, &ZOO_OPEN_ACL_UNSAFE, 0, nullptr, 0);
      if (rc != ZOK && rc != ZNODEEXISTS) {
        impl_->closeHandle(root);
        throw ZkUnavailable(fmt::format("cannot create the chroot {}: {}", prefix, zerror(rc)));
      }
    }
    impl_->closeHandle(root);
  }
  impl_->open(kNoSession);
}

RealZkStore::~RealZkStore() {
  for (const auto& [session, zh] : impl_->sessions) impl_->closeHandle(zh);
}

const Znode* RealZkStore::find(std::string_view path_view) const {
  const std::string path(path_view);
  for (int attempt = 0; attempt < kMaxRetries; ++attempt) {
    ::Stat stat{};
    int rc = impl_->run(kNoSession, [&](zhandle_t* zh) { return zoo_exists(zh, path.c_str(), 0, &stat); });
    if (rc == ZNONODE) break;
    if (rc != ZOK) codeOf(rc, path);
    std::string buffer(std::min<std::size_t>(static_cast<std::size_t>(std::max(stat.dataLength, 0)) + 1, kMaxDataBytes), '\0');
    int length = static_cast<int>(buffer.size());
    rc = impl_->run(kNoSession, [&](zhandle_t* zh) { return zoo_get(zh, path.c_str(), 0, buffer.data(), &length, &stat); });
    if (rc == ZNONODE) break;
    if (rc != ZOK) codeOf(rc, path);
    if (stat.dataLength > length && static_cast<std::size_t>(stat.dataLength) < kMaxDataBytes) continue;  // grew meanwhile
    buffer.resize(static_cast<std::size_t>(std::max(length, 0)));
    Znode& node = impl_->cache[path];
    node = Znode{std::move(buffer),
                 Stat{stat.version, impl_->creationNumber(stat.czxid), impl_->ownerOf(stat.ephemeralOwner), stat.cversion}};
    return &node;
  }
  impl_->cache.erase(path);
  return nullptr;
}

std::pair<Code, std::vector<std::string>> RealZkStore::getChildren(std::string_view path_view) const {
  const std::string path(path_view);
  String_vector children{};
  const int rc = impl_->run(kNoSession, [&](zhandle_t* zh) { return zoo_get_children(zh, path.c_str(), 0, &children); });
  if (rc != ZOK) return {codeOf(rc, path), {}};
  std::vector<std::string> out;
  for (std::int32_t i = 0; i < children.count; ++i) out.emplace_back(children.data[i]);
  deallocate_String_vector(&children);
  std::sort(out.begin(), out.end());  // the in-memory store's order
  return {Code::OK, out};
}

OpResult RealZkStore::create(std::string path, std::string data, SessionId owner) {
  return multi({Op::create(std::move(path), std::move(data), owner)}).front();
}

OpResult RealZkStore::createSequential(std::string prefix, std::string data) {
  return multi({Op::createSequential(std::move(prefix), std::move(data))}).front();
}

OpResult RealZkStore::setData(std::string path, std::string data, std::int32_t version) {
  return multi({Op::setData(std::move(path), std::move(data), version)}).front();
}

OpResult RealZkStore::remove(std::string path, std::int32_t version) {
  return multi({Op::remove(std::move(path), version)}).front();
}

std::vector<OpResult> RealZkStore::multi(const std::vector<Op>& ops) {
  SessionId session = kNoSession;
  for (const Op& op : ops) {
    if (op.kind == Op::Kind::Create && op.ephemeral_owner != kNoSession) session = op.ephemeral_owner;
  }
  std::vector<zoo_op_t> zoo_ops(ops.size());
  std::vector<zoo_op_result_t> zoo_results(ops.size());
  std::vector<::Stat> stats(ops.size());
  // The name the server gave each created node (a sequential one's differs from the op's path).
  constexpr std::size_t kPathBufferSize = 1024;
  std::vector<std::string> created(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    switch (op.kind) {
      case Op::Kind::Check: zoo_check_op_init(&zoo_ops[i], op.path.c_str(), op.version); break;
      case Op::Kind::Create: {
        const int flags = (op.ephemeral_owner != kNoSession ? ZOO_EPHEMERAL : 0) | (op.sequential ? ZOO_SEQUENCE : 0);
        created[i].assign(kPathBufferSize, '\0');
        zoo_create_op_init(&zoo_ops[i], op.path.c_str(), op.data.data(), static_cast<int>(op.data.size()),
                           &ZOO_OPEN_ACL_UNSAFE, flags, created[i].data(), static_cast<int>(created[i].size()));
        break;
      }
      case Op::Kind::SetData:
        zoo_set_op_init(&zoo_ops[i], op.path.c_str(), op.data.data(), static_cast<int>(op.data.size()), op.version, &stats[i]);
        break;
      case Op::Kind::Delete: zoo_delete_op_init(&zoo_ops[i], op.path.c_str(), op.version); break;
    }
  }
  const int rc = impl_->run(session, [&](zhandle_t* zh) {
    return zoo_multi(zh, static_cast<int>(ops.size()), zoo_ops.data(), zoo_results.data());
  });
  std::vector<OpResult> results(ops.size());
  if (rc != ZOK) {
    // All or nothing: report the first failing op's code, the others RUNTIMEINCONSISTENCY, as
    // the in-memory store does (the server reports OK for the ops before the failing one).
    bool failing_seen = false;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const int err = zoo_results[i].err;
      if (!failing_seen && err != ZOK && err != ZRUNTIMEINCONSISTENCY) {
        results[i].code = codeOf(err);
        failing_seen = true;
      } else {
        results[i].code = Code::RUNTIMEINCONSISTENCY;
      }
    }
    if (!failing_seen) codeOf(rc);  // not an operation's error: throws
    if (ops.size() >= 2 && ops[0].kind == Op::Kind::Check && ops[0].path == paths::kControllerEpoch &&
        results[0].code == Code::BADVERSION) {
      impl_->rejected.push_back(RejectedFencedWrite{ops[0].version, ops[1].path});
    }
    return results;
  }
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    if (op.kind == Op::Kind::SetData) {
      results[i].stat = Stat{stats[i].version, impl_->creationNumber(stats[i].czxid), impl_->ownerOf(stats[i].ephemeralOwner)};
    } else if (op.kind == Op::Kind::Create) {
      // The client writes the created node's name, terminated (relative to the chroot).
      const std::string path = created[i].c_str()[0] != '\0' ? std::string(created[i].c_str()) : op.path;
      ::Stat stat{};
      const int exists = impl_->run(kNoSession, [&](zhandle_t* zh) { return zoo_exists(zh, path.c_str(), 0, &stat); });
      if (exists == ZOK && impl_->counted_parents.contains(parentOf(path))) impl_->czxid_of[stat.czxid] = ++impl_->last_zxid;
      results[i].stat = Stat{0, exists == ZOK ? impl_->creationNumber(stat.czxid) : impl_->last_zxid, op.ephemeral_owner};
      results[i].path = path;
    }
  }
  return results;
}

void RealZkStore::closeSession(SessionId session) {
  const auto it = impl_->sessions.find(session);
  if (it == impl_->sessions.end()) return;
  impl_->forgetArmedOf(it->second);
  impl_->closeHandle(it->second);
  impl_->sessions.erase(it);
}

void RealZkStore::countCreationsUnder(std::string parent) { impl_->counted_parents.insert(std::move(parent)); }

std::int64_t RealZkStore::lastZxid() const { return impl_->last_zxid; }

void RealZkStore::watch(std::int32_t watcher, WatchKind kind, std::string path) {
  Impl::Registration registration{watcher, kind, std::move(path)};
  impl_->watches.insert(registration);
  if (!impl_->armed.contains(registration)) impl_->arm(registration);
}

void RealZkStore::unwatch(std::int32_t watcher, WatchKind kind, const std::string& path) {
  impl_->watches.erase(std::make_tuple(watcher, kind, path));
}

void RealZkStore::unwatchAll(std::int32_t watcher) {
  std::erase_if(impl_->watches, [watcher](const Impl::Registration& r) { return std::get<0>(r) == watcher; });
}

bool RealZkStore::isWatching(std::int32_t watcher, WatchKind kind, const std::string& path) const {
  return impl_->watches.contains(std::make_tuple(watcher, kind, path));
}

std::vector<WatchEvent> RealZkStore::takeWatchEvents() {
  // One round trip per watching session: notifications for earlier changes arrive before its
  // reply (ZooKeeper's ordering), and are delivered before its completion (the client's queue).
  std::vector<zhandle_t*> watching;
  for (const auto& [zh, watcher] : impl_->watcher_of) watching.push_back(zh);
  for (zhandle_t* zh : watching) impl_->drainNotifications(zh);
  std::deque<Impl::RawEvent> raw;
  {
    std::lock_guard lock(impl_->mutex);
    raw.swap(impl_->raw_events);
  }
  std::vector<WatchEvent> out;
  for (const Impl::RawEvent& event : raw) {
    const auto watcher = impl_->watcher_of.find(event.zh);
    if (watcher == impl_->watcher_of.end()) continue;
    const Impl::Registration registration{watcher->second, event.kind, event.path};
    impl_->armed.erase(registration);
    if (!impl_->watches.contains(registration)) continue;
    WatchEvent::Type type{};
    if (event.kind == WatchKind::Children) {
      if (event.type != ZOO_CHILD_EVENT) continue;  // the watched node itself was deleted
      type = WatchEvent::Type::NodeChildrenChanged;
    } else if (event.type == ZOO_CREATED_EVENT) {
      type = WatchEvent::Type::NodeCreated;
    } else if (event.type == ZOO_DELETED_EVENT) {
      type = WatchEvent::Type::NodeDeleted;
    } else if (event.type == ZOO_CHANGED_EVENT) {
      type = WatchEvent::Type::NodeDataChanged;
    } else {
      continue;
    }
    out.push_back(WatchEvent{watcher->second, event.kind, type, event.path});
  }
  // Re-arm every registration whose watch fired (or could not be armed), on open sessions only.
  for (const Impl::Registration& registration : std::set<Impl::Registration>(impl_->watches)) {
    if (impl_->armed.contains(registration)) continue;
    if (!impl_->sessions.contains(controllerSession(std::get<0>(registration)))) continue;
    impl_->arm(registration);
  }
  return out;
}

void RealZkStore::expireSession(SessionId session) {
  const auto it = impl_->sessions.find(session);
  if (it == impl_->sessions.end()) return;
  zhandle_t* original = it->second;
  const clientid_t* id = zoo_client_id(original);
  if (id == nullptr) return;
  const clientid_t credentials = *id;
  // The original client may reconnect and take the session back before the twin closes it:
  // retry (bounded) until the original client has seen its session expire.
  constexpr int kAttempts = 5;
  constexpr int kWaitPerAttemptMs = 2000;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    zhandle_t* twin = zookeeper_init(impl_->options.connect.c_str(), &Impl::sessionWatcher, impl_->options.session_timeout_ms,
                                     &credentials, impl_.get(), 0);
    if (twin == nullptr) throw ZkUnavailable("cannot attach a second client to the session");
    {
      std::unique_lock lock(impl_->mutex);
      impl_->changed.wait_for(lock, std::chrono::milliseconds(impl_->options.connect_timeout_ms), [&] {
        const auto state = impl_->states.find(twin);
        return state != impl_->states.end() && state->second != 0 && state->second != ZOO_CONNECTING_STATE;
      });
    }
    impl_->closeHandle(twin);  // closing it ends the session on the server
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitPerAttemptMs);
    while (std::chrono::steady_clock::now() < deadline) {
      ::Stat stat{};
      zoo_exists(original, "/", 0, &stat);  // makes the client reconnect and learn the expiry
      std::unique_lock lock(impl_->mutex);
      if (impl_->changed.wait_for(lock, std::chrono::milliseconds(50),
                                  [&] { return zoo_state(original) == ZOO_EXPIRED_SESSION_STATE; })) {
        return;
      }
    }
  }
  throw ZkUnavailable(fmt::format("the server did not expire session {} after {} attempts", session, kAttempts));
}

std::uint64_t RealZkStore::requestCount() const { return impl_->requests; }

std::vector<SessionId> RealZkStore::takeExpiredSessions() {
  std::vector<SessionId> open;
  for (const auto& [session, zh] : impl_->sessions) {
    if (session != kNoSession) open.push_back(session);
  }
  for (SessionId session : open) {
    zhandle_t* zh = impl_->sessions.at(session);
    ::Stat stat{};
    int rc = zoo_exists(zh, "/", 0, &stat);
    if (rc == ZCONNECTIONLOSS || rc == ZOPERATIONTIMEOUT) {
      impl_->waitSettled(zh);
      rc = zoo_exists(zh, "/", 0, &stat);
    }
    if (rc == ZSESSIONEXPIRED || rc == ZINVALIDSTATE || impl_->stateOf(zh) == ZOO_EXPIRED_SESSION_STATE) {
      impl_->replaceExpired(session);
    }
  }
  std::vector<SessionId> out;
  out.swap(impl_->expired);
  return out;
}

std::vector<RejectedFencedWrite> RealZkStore::takeRejectedFencedWrites() {
  std::vector<RejectedFencedWrite> out;
  out.swap(impl_->rejected);
  return out;
}

std::vector<std::pair<std::string, Znode>> RealZkStore::dump(std::size_t max_nodes) const {
  std::vector<std::pair<std::string, Znode>> out;
  std::deque<std::string> pending{"/"};
  while (!pending.empty() && out.size() < max_nodes) {
    const std::string path = pending.front();
    pending.pop_front();
    if (path == "/zookeeper") continue;
    if (const Znode* node = find(path)) out.emplace_back(path, *node);
    for (const std::string& child : getChildren(path).second) pending.push_back(path == "/" ? "/" + child : path + "/" + child);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

void RealZkStore::deleteAll() {
  std::vector<std::pair<std::string, Znode>> nodes = dump(100000);
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [path, node] : nodes) {
    if (path != "/") remove(path, kMatchAnyVersion);
  }
}

}  // namespace kcspec::impl::zk
