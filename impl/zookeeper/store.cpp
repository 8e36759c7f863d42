// StoreView: one branch per call between the two backends (store.hpp).
#include "impl/zookeeper/store.hpp"

#include "impl/errors.hpp"
#include "impl/zookeeper/real_zk_store.hpp"
#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl::zk {

void StoreView::requireSession(std::string_view path) const {
  if (session_expired_) throw KeeperException(Code::SESSIONEXPIRED, path);
}

const Znode* StoreView::find(std::string_view path) const {
  requireSession(path);
  return real_ ? real_->find(path) : memory_->find(path);
}

std::pair<Code, std::vector<std::string>> StoreView::getChildren(std::string_view path) const {
  requireSession(path);
  return real_ ? real_->getChildren(path) : memory_->getChildren(path);
}

OpResult StoreView::create(std::string path, std::string data, SessionId owner) {
  requireSession(path);
  return real_ ? real_->create(std::move(path), std::move(data), owner) : memory_->create(std::move(path), std::move(data), owner);
}

OpResult StoreView::createSequential(std::string prefix, std::string data) {
  requireSession(prefix);
  return real_ ? real_->createSequential(std::move(prefix), std::move(data))
               : memory_->createSequential(std::move(prefix), std::move(data));
}

OpResult StoreView::setData(std::string path, std::string data, std::int32_t version) {
  requireSession(path);
  return real_ ? real_->setData(std::move(path), std::move(data), version)
               : memory_->setData(std::move(path), std::move(data), version);
}

OpResult StoreView::remove(std::string path, std::int32_t version) {
  requireSession(path);
  return real_ ? real_->remove(std::move(path), version) : memory_->remove(std::move(path), version);
}

// A multi whose session expired has no results: KafkaZkClient throws KeeperException.create(code),
// naming no path.
std::vector<OpResult> StoreView::multi(const std::vector<Op>& ops) {
  requireSession({});
  return real_ ? real_->multi(ops) : memory_->multi(ops);
}

bool Store::takeSessionExpiry(const std::vector<std::string>& paths) {
  bool met = false;
  for (const std::string& path : paths) met |= session_expiring_writes_.erase(path) > 0;
  return met;
}

void StoreView::loseNextResponse(std::string path) {
  KCSPEC_ASSERT(lost_ != nullptr);
  lost_->insert(std::move(path));
}

bool StoreView::takeLostResponse(std::string_view path) {
  if (lost_ == nullptr) return false;
  const auto it = lost_->find(path);
  if (it == lost_->end()) return false;
  lost_->erase(it);
  return true;
}

void StoreView::closeSession(SessionId session) {
  if (real_) {
    real_->closeSession(session);
  } else {
    memory_->closeSession(session);
  }
}

void StoreView::countCreationsUnder(std::string parent) {
  if (real_) {
    real_->countCreationsUnder(std::move(parent));
  } else {
    memory_->countCreationsUnder(std::move(parent));
  }
}

std::int64_t StoreView::lastZxid() const { return real_ ? real_->lastZxid() : memory_->lastZxid(); }

void StoreView::restore(std::string path, std::string data, Stat stat) {
  KCSPEC_ASSERT(real_ == nullptr);
  memory_->restore(std::move(path), std::move(data), stat);
}

void StoreView::restoreLastZxid(std::int64_t zxid) {
  KCSPEC_ASSERT(real_ == nullptr);
  memory_->restoreLastZxid(zxid);
}

void StoreView::watch(std::int32_t watcher, WatchKind kind, std::string path) {
  if (real_) {
    real_->watch(watcher, kind, std::move(path));
  } else {
    memory_->watch(watcher, kind, std::move(path));
  }
}

void StoreView::unwatch(std::int32_t watcher, WatchKind kind, const std::string& path) {
  if (real_) {
    real_->unwatch(watcher, kind, path);
  } else {
    memory_->unwatch(watcher, kind, path);
  }
}

void StoreView::unwatchAll(std::int32_t watcher) {
  if (real_) {
    real_->unwatchAll(watcher);
  } else {
    memory_->unwatchAll(watcher);
  }
}

bool StoreView::isWatching(std::int32_t watcher, WatchKind kind, const std::string& path) const {
  return real_ ? real_->isWatching(watcher, kind, path) : memory_->isWatching(watcher, kind, path);
}

std::vector<WatchEvent> StoreView::takeWatchEvents() { return real_ ? real_->takeWatchEvents() : memory_->takeWatchEvents(); }

}  // namespace kcspec::impl::zk
