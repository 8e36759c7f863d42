// The in-memory ZooKeeper (zk_store.hpp).
#include "impl/zookeeper/zk_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "spec/vocabulary/assert.hpp"

namespace kcspec::impl::zk {

std::string_view codeMessage(Code code) {
  switch (code) {
    case Code::OK: return "OK";
    case Code::NONODE: return "NoNode";
    case Code::NODEEXISTS: return "NodeExists";
    case Code::BADVERSION: return "BadVersion";
    case Code::NOTEMPTY: return "Directory not empty";
    case Code::NOCHILDRENFOREPHEMERALS: return "NoChildrenForEphemerals";
    case Code::RUNTIMEINCONSISTENCY: return "RuntimeInconsistency";
    case Code::SESSIONEXPIRED: return "Session expired";
  }
  return "Unknown";
}

std::string_view exceptionSimpleName(Code code) {
  switch (code) {
    case Code::OK: return "OkException";
    case Code::NONODE: return "NoNodeException";
    case Code::NODEEXISTS: return "NodeExistsException";
    case Code::BADVERSION: return "BadVersionException";
    case Code::NOTEMPTY: return "NotEmptyException";
    case Code::NOCHILDRENFOREPHEMERALS: return "NoChildrenForEphemeralsException";
    case Code::RUNTIMEINCONSISTENCY: return "RuntimeInconsistencyException";
    case Code::SESSIONEXPIRED: return "SessionExpiredException";
  }
  return "KeeperException";
}

ZkStore::ZkStore() { nodes_.write().emplace("/", Znode{}); }

std::string ZkStore::parentOf(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  if (slash == 0 || slash == std::string_view::npos) return "/";
  return std::string(path.substr(0, slash));
}

const Znode* ZkStore::find(std::string_view path) const {
  const auto it = nodes_->find(path);
  return it == nodes_->end() ? nullptr : &it->second;
}

std::pair<Code, std::vector<std::string>> ZkStore::getChildren(std::string_view path) const {
  if (!exists(path)) return {Code::NONODE, {}};
  std::string prefix(path);
  if (prefix != "/") prefix += '/';
  std::vector<std::string> children;
  for (auto it = nodes_->lower_bound(prefix); it != nodes_->end(); ++it) {
    const std::string& p = it->first;
    if (p.compare(0, prefix.size(), prefix) != 0) break;
    if (p.size() > prefix.size() && p.find('/', prefix.size()) == std::string::npos) {
      children.push_back(p.substr(prefix.size()));
    }
  }
  return {Code::OK, children};
}

Code ZkStore::validate(const Op& op, const std::map<std::string, Znode, std::less<>>& view) const {
  const auto it = view.find(op.path);
  switch (op.kind) {
    case Op::Kind::Check:
    case Op::Kind::SetData:
      if (it == view.end()) return Code::NONODE;
      if (op.version != kMatchAnyVersion && op.version != it->second.stat.version) return Code::BADVERSION;
      return Code::OK;
    case Op::Kind::Create: {
      // A sequential node's name is chosen when it is created: it cannot exist yet.
      if (!op.sequential && it != view.end()) return Code::NODEEXISTS;
      const auto parent = view.find(parentOf(op.path));
      if (parent == view.end()) return Code::NONODE;
      if (parent->second.stat.ephemeral_owner != kNoSession) return Code::NOCHILDRENFOREPHEMERALS;
      return Code::OK;
    }
    case Op::Kind::Delete: {
      if (it == view.end()) return Code::NONODE;
      if (op.version != kMatchAnyVersion && op.version != it->second.stat.version) return Code::BADVERSION;
      auto next = view.upper_bound(op.path);
      if (next != view.end() && next->first.size() > op.path.size() &&
          next->first.compare(0, op.path.size(), op.path) == 0 && next->first[op.path.size()] == '/') {
        return Code::NOTEMPTY;
      }
      return Code::OK;
    }
  }
  return Code::OK;
}

void ZkStore::notify(WatchKind kind, WatchEvent::Type type, const std::string& path) {
  for (const auto& [watcher, watch_kind, watched] : *watches_) {
    if (watch_kind == kind && watched == path) pending_.push_back(WatchEvent{watcher, kind, type, path});
  }
}

OpResult ZkStore::applyUnchecked(const Op& op) {
  switch (op.kind) {
    case Op::Kind::Check:
      return OpResult{Code::OK, nodes_->find(op.path)->second.stat};
    case Op::Kind::Create: {
      const std::string parent = parentOf(op.path);
      if (counted_parents_->contains(parent)) ++last_zxid_;
      Stat& parent_stat = nodes_.write().find(parent)->second.stat;
      const std::string path = op.sequential ? fmt::format("{}{:010d}", op.path, parent_stat.cversion) : op.path;
      ++parent_stat.cversion;
      Znode node{op.data, Stat{0, last_zxid_, op.ephemeral_owner}};
      nodes_.write().emplace(path, node);
      notify(WatchKind::Data, WatchEvent::Type::NodeCreated, path);
      notify(WatchKind::Children, WatchEvent::Type::NodeChildrenChanged, parent);
      return OpResult{Code::OK, node.stat, path};
    }
    case Op::Kind::SetData: {
      Znode& node = nodes_.write().find(op.path)->second;
      node.data = op.data;
      ++node.stat.version;
      notify(WatchKind::Data, WatchEvent::Type::NodeDataChanged, op.path);
      return OpResult{Code::OK, node.stat};
    }
    case Op::Kind::Delete: {
      nodes_.write().erase(op.path);
      ++nodes_.write().find(parentOf(op.path))->second.stat.cversion;
      notify(WatchKind::Data, WatchEvent::Type::NodeDeleted, op.path);
      notify(WatchKind::Children, WatchEvent::Type::NodeChildrenChanged, parentOf(op.path));
      return OpResult{};
    }
  }
  return OpResult{};
}

namespace {
// Whether one op of a multi can change what a later one sees (same path, or one below another).
bool opsInteract(const std::vector<Op>& ops) {
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (std::size_t j = i + 1; j < ops.size(); ++j) {
      const std::string& a = ops[i].path;
      const std::string& b = ops[j].path;
      const std::string& shorter = a.size() <= b.size() ? a : b;
      const std::string& longer = a.size() <= b.size() ? b : a;
      if (longer.compare(0, shorter.size(), shorter) == 0) return true;
    }
  }
  return false;
}
}  // namespace

OpResult ZkStore::create(std::string path, std::string data, SessionId owner) {
  return multi({Op::create(std::move(path), std::move(data), owner)}).front();
}

OpResult ZkStore::createSequential(std::string prefix, std::string data) {
  return multi({Op::createSequential(std::move(prefix), std::move(data))}).front();
}

OpResult ZkStore::setData(std::string path, std::string data, std::int32_t version) {
  return multi({Op::setData(std::move(path), std::move(data), version)}).front();
}

OpResult ZkStore::remove(std::string path, std::int32_t version) {
  return multi({Op::remove(std::move(path), version)}).front();
}

std::vector<OpResult> ZkStore::multi(const std::vector<Op>& ops) {
  // Validate against a scratch copy only when an earlier op could affect a later one.
  std::vector<OpResult> results(ops.size());
  std::optional<std::map<std::string, Znode, std::less<>>> scratch;
  if (opsInteract(ops)) scratch = *nodes_;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const Code code = validate(ops[i], scratch ? *scratch : *nodes_);
    if (code != Code::OK) {
      for (std::size_t j = 0; j < ops.size(); ++j) results[j].code = j == i ? code : Code::RUNTIMEINCONSISTENCY;
      return results;
    }
    if (scratch) {  // mirror the op on the scratch copy so the next one sees it
      switch (ops[i].kind) {
        case Op::Kind::Check: break;
        // (A sequential node is mirrored under its prefix: no later op can name it anyway.)
        case Op::Kind::Create: scratch->emplace(ops[i].path, Znode{{}, Stat{0, 0, ops[i].ephemeral_owner}}); break;
        case Op::Kind::SetData: ++scratch->find(ops[i].path)->second.stat.version; break;
        case Op::Kind::Delete: scratch->erase(ops[i].path); break;
      }
    }
  }
  for (std::size_t i = 0; i < ops.size(); ++i) results[i] = applyUnchecked(ops[i]);
  return results;
}

void ZkStore::closeSession(SessionId session) {
  KCSPEC_ASSERT(session != kNoSession);
  std::vector<std::string> owned;
  for (const auto& [path, node] : *nodes_) {
    if (node.stat.ephemeral_owner == session) owned.push_back(path);
  }
  for (const std::string& path : owned) remove(path, kMatchAnyVersion);
}

void ZkStore::restore(std::string path, std::string data, Stat stat) {
  const auto parent = nodes_->find(parentOf(path));
  KCSPEC_ASSERT(parent != nodes_->end() && parent->second.stat.ephemeral_owner == kNoSession);  // what create requires
  KCSPEC_ASSERT(!exists(path) && stat.version >= 0);
  ++nodes_.write().find(parentOf(path))->second.stat.cversion;
  nodes_.write().emplace(std::move(path), Znode{std::move(data), stat});
}

void ZkStore::restoreLastZxid(std::int64_t zxid) {
  KCSPEC_ASSERT(zxid >= 0);
  last_zxid_ = zxid;
}

void ZkStore::watch(std::int32_t watcher, WatchKind kind, std::string path) {
  if (!isWatching(watcher, kind, path)) watches_.write().emplace(watcher, kind, std::move(path));
}

void ZkStore::unwatch(std::int32_t watcher, WatchKind kind, const std::string& path) {
  if (isWatching(watcher, kind, path)) watches_.write().erase(std::make_tuple(watcher, kind, path));
}

void ZkStore::unwatchAll(std::int32_t watcher) {
  const auto watched_by = [watcher](const auto& w) { return std::get<0>(w) == watcher; };
  if (std::any_of(watches_->begin(), watches_->end(), watched_by)) std::erase_if(watches_.write(), watched_by);
}

bool ZkStore::isWatching(std::int32_t watcher, WatchKind kind, const std::string& path) const {
  return watches_->contains(std::make_tuple(watcher, kind, path));
}

std::vector<WatchEvent> ZkStore::takeWatchEvents() {
  std::vector<WatchEvent> out;
  out.swap(pending_);
  return out;
}

}  // namespace kcspec::impl::zk
