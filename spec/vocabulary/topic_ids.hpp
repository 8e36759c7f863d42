// Topic ids as the modeled world has them (docs/world.md convention 13): where a new one comes
// from, and what a reader of an older driver protocol sees without them.
//
// Kafka draws a topic id at random (Uuid.randomUuid()), so a new id is one that nothing holds. An
// id that no part of the world holds any more — no znode, context, log, cache, request, response
// or event — cannot be told from a new random one, so kcspec gives the least such number: the
// world stays free of a counter that would grow with every creation, and ids stay small. This is
// the model of the random source, shared by both versions as the broker epochs' source
// (`last_zxid`) is; what a controller does with ids is rule code, written in each.
#pragma once

#include "spec/vocabulary/observation.hpp"

namespace kcspec {

// The least topic id (from 1) that no part of `world` holds for `topic`.
TopicId freshTopicId(const Observation& world, TopicIndex topic);

// `world` with every topic id (and the flags that say a message names topics by id) at its
// default: what the driver compares with a SUT of protocol 3 or older (docs/driver-protocol.md,
// "Versions"), which neither reports topic ids nor is asked for them.
Observation withoutTopicIds(Observation world);

// `world` with each topic's ids renamed 1, 2, … in the order one fixed walk of the world meets
// them: two worlds that differ only by a renaming of ids (one-to-one, by topic) give the same
// result. Every rule reads an id only to compare it with another (or with none) and draws a new
// one with freshTopicId, so such worlds have the same futures, renamed alike: the partial-order
// reduction's independent actions commute up to it (docs/proofs.md, "Partial-order reduction").
Observation withTopicIdsRenumbered(Observation world);

}  // namespace kcspec
