// Histories as explorer encodings, for systems whose states cannot be serialized field by field
// (the reference implementation keeps its world in maps, strings and class members): a state is
// encoded as the actions that reach it from the initial state, and decoded by replaying them.
// Deterministic systems make this lossless; each action takes 2–5 bytes.
//
// Replaying from the start would cost the whole depth per decode. The explorer decodes its
// frontier in BFS order, which is the lexicographic order of the paths (a level's states come
// in the order of their parents, and a parent's successors in action order), so consecutive
// decodes share long prefixes: PathReplayCache keeps the states along the last path decoded and
// replays only the part after the common prefix. Over a level, each edge of the BFS tree is
// replayed about once per worker thread batch.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spec/vocabulary/action.hpp"

namespace kcspec::explorer {

// Appends a prefix-free encoding of `action`: the kind (and error flag), a mask of the fields
// that differ from their defaults, then those fields, one byte each.
void encodeAction(const Action& action, std::string& out);
// Decodes the action at bytes[position] and moves `position` past it (a malformed encoding
// stops the program: encodings never leave the process).
Action decodeAction(std::string_view bytes, std::size_t& position);
std::vector<Action> decodeActions(std::string_view bytes);

// A process-wide unique id for a system instance (the replay cache's key: a cached prefix is
// only reused by the system, configuration and mutants that made it).
std::uint64_t newSystemId();

// The states along the last path replayed (one per prefix). Use one per thread (thread_local).
// Nodes past the current path are kept, not destroyed, so that a later path reuses their
// storage: a step is `copy(parent, child)` into an old node, then `apply(child, action)`.
template <class Node>
class PathReplayCache {
 public:
  // The node `path` reaches: `initial()` makes the start node, `apply(Node&, const Action&)` takes
  // one action, `copy(const Node& from, Node& to)` makes `to` equal to `from` (`to` is a node of
  // this cache: an earlier path's). The reference stays valid until the next call.
  template <class MakeInitial, class Apply, class Copy>
  const Node& replay(std::uint64_t owner, std::string_view path, MakeInitial&& initial, Apply&& apply, Copy&& copy) {
    if (owner != owner_ || nodes_.empty()) {
      owner_ = owner;
      path_.clear();
      ends_.clear();
      nodes_.clear();
      nodes_.push_back(initial());
    }
    const std::size_t limit = std::min(path.size(), path_.size());
    std::size_t common = 0;
    while (common < limit && path[common] == path_[common]) ++common;
    // The actions both paths share: those whose encodings end within the common bytes (the
    // encoding is prefix-free, so equal bytes up to an action's end mean equal actions).
    const std::size_t shared = static_cast<std::size_t>(std::upper_bound(ends_.begin(), ends_.end(), common) - ends_.begin());
    ends_.resize(shared);
    path_.assign(path);
    std::size_t position = shared == 0 ? 0 : ends_.back();
    std::size_t current = shared;  // nodes_[current]: the node after `shared` actions
    while (position < path.size()) {
      const Action action = decodeAction(path, position);
      if (current + 1 == nodes_.size()) {
        nodes_.push_back(nodes_[current]);
      } else {
        copy(nodes_[current], nodes_[current + 1]);
      }
      ++current;
      apply(nodes_[current], action);
      ends_.push_back(position);
    }
    return nodes_[current];
  }

  template <class MakeInitial, class Apply>
  const Node& replay(std::uint64_t owner, std::string_view path, MakeInitial&& initial, Apply&& apply) {
    return replay(owner, path, initial, apply, [](const Node& from, Node& to) { to = from; });
  }

 private:
  std::uint64_t owner_ = 0;
  std::string path_;
  std::vector<std::size_t> ends_;  // ends_[k]: where action k+1's encoding ends in path_
  std::vector<Node> nodes_;        // nodes_[k]: the node after k actions (valid for k ≤ ends_.size())
};

}  // namespace kcspec::explorer
