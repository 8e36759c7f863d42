// Fingerprints and encodings of states: lossless on every state of a small exploration, equal
// for equal states, different for different ones; the visited set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <set>

#include "breadth_first_sample.hpp"
#include "two_brokers.hpp"  // tests/common/
#include "proofs/explorer/explorer.hpp"
#include "proofs/explorer/spec_system.hpp"
#include "proofs/explorer/state_codec.hpp"
#include "proofs/explorer/visited_set.hpp"
#include "spec/rules/step.hpp"
#include "spec/vocabulary/action_text.hpp"
#include "spec/vocabulary/presets.hpp"

namespace kcspec::explorer {
namespace {

Config everyPerturbationOnce() {
  Config config = test::twoBrokers(
      Bounds{.crashes = 1, .controller_failovers = 1, .partition_additions = 1, .isr_shrinks = 1});
  config.topics[0].reassignment_targets = {{0, BrokerList{2}}};
  config.topics[0].added_partitions = {BrokerList{2, 1}};
  return config;
}

// A SpecSystem whose encode checks that every state it encodes decodes to itself, and that
// every fingerprint names one state only (a test-sized space has no 64-bit collision).
class CheckingSystem : public SpecSystem {
 public:
  using SpecSystem::SpecSystem;
  void encode(const State& state, std::string& out) const {
    const std::size_t begin = out.size();
    SpecSystem::encode(state, out);
    const State back = decode(std::string_view(out).substr(begin));
    if (!(back == state)) failures.fetch_add(1);
    std::lock_guard lock(mutex);
    const auto [it, inserted] = seen.emplace(fingerprint(state), out.substr(begin));
    if (!inserted && it->second != out.substr(begin)) failures.fetch_add(1);
  }
  // The explorer encodes through these members (system.hpp's fast paths).
  Fingerprint encodeFingerprinted(const State& state, std::string& out) const {
    const std::size_t begin = out.size();
    encode(state, out);
    return hashEncoding(std::string_view(out).substr(begin));
  }
  Fingerprint stepEncoded(const State& state, std::string_view, const Action& action, PropertyMask& violated, State&,
                          std::string& out, const SuccessorHook<State>* then = nullptr) const {
    State successor = next(state, action, violated);
    if (then != nullptr) (*then)(successor);
    return encodeFingerprinted(successor, out);
  }
  mutable std::atomic<int> failures{0};
  mutable std::mutex mutex;
  mutable std::map<Fingerprint, std::string> seen;
};

// The number of fields of an aggregate: the most initializers `T{…}` accepts (each initializer
// converts to anything, so no brace elision happens).
struct AnyField {
  template <class T>
  operator T() const {  // used in unevaluated contexts only
    std::abort();
  }
};
template <class T, std::size_t... I>
constexpr bool initializableWith(std::index_sequence<I...>) {
  return requires { T{(void(I), AnyField{})...}; };
}
template <class T, std::size_t N = 0>
constexpr std::size_t fieldCount() {
  if constexpr (initializableWith<T>(std::make_index_sequence<N + 1>{})) {
    return fieldCount<T, N + 1>();
  } else {
    return N;
  }
}

// A field added to a vocabulary struct must be walked (fingerprinted and encoded): otherwise two
// states that differ only there would be merged. Fix: proofs/explorer/state_codec.cpp and
// kWalkedFields in state_codec.hpp.
#define KCSPEC_EXPECT_WALKED(Type) \
  static_assert(fieldCount<Type>() == kWalkedFields<Type>, #Type " has a field state_codec.cpp does not walk")
KCSPEC_EXPECT_WALKED(TopicPartition);
KCSPEC_EXPECT_WALKED(LeaderAndIsr);
KCSPEC_EXPECT_WALKED(LeaderIsrAndControllerEpoch);
KCSPEC_EXPECT_WALKED(PartitionStateZnode);
KCSPEC_EXPECT_WALKED(TopicZnodes);
KCSPEC_EXPECT_WALKED(BrokerRegistration);
KCSPEC_EXPECT_WALKED(ReassignPartitionsZnode);
KCSPEC_EXPECT_WALKED(PreferredReplicaElectionZnode);
KCSPEC_EXPECT_WALKED(ZooKeeperData);
KCSPEC_EXPECT_WALKED(PartitionContext);
KCSPEC_EXPECT_WALKED(ControllerContextData);
KCSPEC_EXPECT_WALKED(ControllerEvent);
KCSPEC_EXPECT_WALKED(ControllerData);
KCSPEC_EXPECT_WALKED(HostedReplica);
KCSPEC_EXPECT_WALKED(LeaderAndIsrPartitionState);
KCSPEC_EXPECT_WALKED(UpdateMetadataPartitionState);
KCSPEC_EXPECT_WALKED(StopReplicaPartitionState);
KCSPEC_EXPECT_WALKED(ControlRequest);
KCSPEC_EXPECT_WALKED(StopReplicaResponse);
KCSPEC_EXPECT_WALKED(BrokerData);
KCSPEC_EXPECT_WALKED(Observation);
#undef KCSPEC_EXPECT_WALKED
static_assert(fieldCount<Bounds>() == kBoundNames.size() + 1);  // the per-kind bounds and the overall one, all walked
static_assert(fieldCount<spec::ClusterState>() == 2);  // the world and the budget, both walked
// ReplicaAssignment has constructors (not an aggregate): its three lists are walked by name.

// Two threads, every violated property kept going, down to `max_depth`.
ExploreOptions exploredToDepth(int max_depth, Reduction reduction = Reduction::None) {
  ExploreOptions options;
  options.threads = 2;
  options.max_depth = max_depth;
  options.stop_at_violation = false;
  options.reduction = reduction;
  return options;
}

TEST(StateCodec, EveryExploredStateRoundTrips) {
  const CheckingSystem system(everyPerturbationOnce());
  const auto result = explore(system, exploredToDepth(12));
  EXPECT_GT(result.states, 1000u);
  EXPECT_EQ(system.failures.load(), 0);
  EXPECT_EQ(system.seen.size(), result.states);  // one encoding per state, one state per fingerprint
}

TEST(StateCodec, FingerprintFollowsEquality) {
  const Config config = everyPerturbationOnce();
  const SpecSystem system(config);
  const spec::ClusterState initial = spec::initialState(config);
  const spec::ClusterState copy = initial;
  EXPECT_EQ(system.fingerprint(initial), system.fingerprint(copy));
  std::set<Fingerprint> successors;
  const auto actions = spec::enabledActions(config, initial);
  for (const Action& action : actions) successors.insert(system.fingerprint(spec::next(config, initial, action)));
  EXPECT_EQ(successors.size(), actions.size());  // here every action leads somewhere else
  EXPECT_EQ(successors.count(system.fingerprint(initial)), 0u);
  // The budget is part of the state.
  spec::ClusterState spent = initial;
  spent.budget.crashes = 0;
  EXPECT_NE(system.fingerprint(spent), system.fingerprint(initial));
  // A single field deep inside the world changes it (broker 2, partition t-1 and replica 1 are
  // slots of this configuration).
  spec::ClusterState changed = initial;
  changed.world.brokers[2].controller.context.partitions[1].replica_states[1] = ReplicaState::OfflineReplica;
  EXPECT_NE(system.fingerprint(changed), system.fingerprint(initial));
  // The full walk (fingerprintWorld) sees every slot, even those no state of this configuration uses.
  spec::ClusterState outside = initial;
  outside.world.brokers[5].controller.context.partitions[9].replica_states[6] = ReplicaState::OfflineReplica;
  EXPECT_NE(fingerprintWorld(outside.world, outside.budget), fingerprintWorld(initial.world, initial.budget));
}

TEST(StateCodec, ShapeNamesTheConfigurationsSlots) {
  const StateShape shape(everyPerturbationOnce());
  EXPECT_EQ(std::vector<std::uint8_t>(shape.brokers().begin(), shape.brokers().end()), (std::vector<std::uint8_t>{1, 2}));
  EXPECT_EQ(shape.topics().size(), 1u);
  // t-0 from the assignment and t-1 from the one added partition.
  EXPECT_EQ(std::vector<std::uint8_t>(shape.partitions().begin(), shape.partitions().end()), (std::vector<std::uint8_t>{0, 1}));
  EXPECT_EQ(shape.partitionsOfATopic().size(), 2u);
  const StateShape every;
  EXPECT_EQ(every.brokers().size(), static_cast<std::size_t>(kMaxBrokers));
  EXPECT_EQ(every.partitions().size(), static_cast<std::size_t>(kMaxPartitions));
}

// The explorer's fast paths give what the plain members give, on every transition of a small
// exploration: stepEncoded (a step on a scratch copy, encoding only the changed parts) agrees
// with next, encode and fingerprint and leaves the scratch copy equal to the state; nextInto
// (copying only the configuration's brokers into a reused state) agrees with next; decodeInto
// and decodeOver (filling a reused state) agree with decode; encodeFingerprinted with encode and
// fingerprint.
class FastPathCheckingSystem : public SpecSystem {
 public:
  using SpecSystem::SpecSystem;
  void nextInto(const State& state, const Action& action, PropertyMask& violated, State& successor) const {
    PropertyMask plain_violated = violated;
    const State plain = next(state, action, plain_violated);
    SpecSystem::nextInto(state, action, violated, successor);
    if (!(plain == successor) || plain_violated != violated) failures.fetch_add(1);
    checked.fetch_add(1);
  }
  void decodeInto(std::string_view bytes, State& state) const {
    SpecSystem::decodeInto(bytes, state);
    if (!(decode(bytes) == state)) failures.fetch_add(1);
    decoded.fetch_add(1);
  }
  void decodeOver(std::string_view bytes, std::string_view previous, State& state) const {
    if (!(decode(previous) == state)) failures.fetch_add(1);  // the explorer keeps its promise
    SpecSystem::decodeOver(bytes, previous, state);
    if (!(decode(bytes) == state)) failures.fetch_add(1);
    decoded.fetch_add(1);
    decoded_over.fetch_add(1);
  }
  Fingerprint encodeFingerprinted(const State& state, std::string& out) const {
    const std::size_t begin = out.size();
    const Fingerprint fingerprint = SpecSystem::encodeFingerprinted(state, out);
    std::string plain;
    encode(state, plain);
    if (plain != out.substr(begin) || fingerprint != this->fingerprint(state)) failures.fetch_add(1);
    return fingerprint;
  }
  Fingerprint stepEncoded(const State& state, std::string_view encoding, const Action& action, PropertyMask& violated,
                          State& scratch, std::string& out, const SuccessorHook<State>* then = nullptr) const {
    // The explorer keeps its promises: the encoding is the state's, the scratch state equals it.
    std::string state_plain;
    encode(state, state_plain);
    if (state_plain != encoding || !(scratch == state)) failures.fetch_add(1);
    // nextInto into a copy of the scratch state gives what next gives (it checks itself).
    State stepped = scratch;
    PropertyMask into_violated = violated;
    nextInto(state, action, into_violated, stepped);
    PropertyMask plain_violated = violated;
    State plain = next(state, action, plain_violated);
    if (then != nullptr) {  // the chain of persistent deliveries, on the plain copy and then in place
      (*then)(plain);
      chained.fetch_add(1);
    }
    const std::size_t begin = out.size();
    const Fingerprint fingerprint = SpecSystem::stepEncoded(state, encoding, action, violated, scratch, out, then);
    std::string plain_bytes;
    encode(plain, plain_bytes);
    if (plain_bytes != out.substr(begin) || fingerprint != this->fingerprint(plain) || violated != plain_violated ||
        into_violated != plain_violated || !(scratch == state)) {
      failures.fetch_add(1);
    }
    stepped_encoded.fetch_add(1);
    return fingerprint;
  }
  mutable std::atomic<int> failures{0};
  mutable std::atomic<std::uint64_t> checked{0};
  mutable std::atomic<std::uint64_t> decoded{0};
  mutable std::atomic<std::uint64_t> decoded_over{0};
  mutable std::atomic<std::uint64_t> stepped_encoded{0};
  mutable std::atomic<std::uint64_t> chained{0};  // steps whose successor's chain was followed
};

TEST(StateCodec, FastPathsAgreeWithThePlainMembers) {
  const FastPathCheckingSystem system(everyPerturbationOnce());
  const auto result = explore(system, exploredToDepth(12));
  EXPECT_GT(result.transitions, 1000u);
  EXPECT_EQ(system.checked.load(), result.transitions);
  EXPECT_EQ(system.stepped_encoded.load(), result.transitions);  // every successor through the segmented path
  // Every state is decoded (the first of each thread's batch by decode(), not checked here), most
  // of them over the state decoded before.
  EXPECT_GT(system.decoded.load(), result.states * 9 / 10);
  EXPECT_GT(system.decoded_over.load(), result.states / 2);
  EXPECT_EQ(system.failures.load(), 0);
}

// With partial-order reduction the successor is the end of its chain of persistent deliveries,
// taken in place on the scratch copy (SpecSystem::advance): the segmented path still encodes what
// next and the chain give, and leaves the scratch copy equal to the state.
TEST(StateCodec, FastPathsAgreeWithThePlainMembersAlongChains) {
  const FastPathCheckingSystem system(everyPerturbationOnce());
  const auto result = explore(system, exploredToDepth(10, Reduction::Por));
  EXPECT_GT(result.chained_steps, 1000u);
  EXPECT_EQ(system.stepped_encoded.load(), result.transitions);
  EXPECT_EQ(system.chained.load(), result.transitions);  // every successor's chain, empty or not
  EXPECT_EQ(system.failures.load(), 0);
}

// The same on presets whose controller sends while deliveries are pending, so that a chain takes
// off requests its first step appended (a queue of the same length, other requests: only a
// comparison tells).
TEST(StateCodec, FastPathsAgreeWithThePlainMembersAlongChainsOnPresets) {
  for (const std::string_view name : {"crash-isr", "two-perturbations"}) {
    SCOPED_TRACE(std::string(name));
    const FastPathCheckingSystem system(*preset(name));
    const auto result = explore(system, exploredToDepth(14, Reduction::Por));
    EXPECT_GT(result.chained_steps, 1000u);
    EXPECT_EQ(system.chained.load(), result.transitions);
    EXPECT_EQ(system.failures.load(), 0);
  }
}

// The segmented encoding on its own: a successor's encoding after a step that changed one part
// reuses the parent's bytes for the others, and decoding over a previous state changes only the
// parts whose bytes differ.
TEST(StateCodec, SegmentsAreReusedOnlyForUnchangedParts) {
  const Config config = everyPerturbationOnce();
  const StateShape shape(config);
  const spec::ClusterState parent = spec::initialState(config);
  std::string parent_bytes;
  encodeWorld(parent.world, parent.budget, shape, parent_bytes);
  spec::ClusterState child = parent;
  child.world.brokers[2].controller.context.partitions[1].replica_states[1] = ReplicaState::OfflineReplica;
  child.budget.crashes = 0;
  std::string plain, reused;
  encodeWorld(child.world, child.budget, shape, plain);
  SegmentMask changed = 0;
  encodeWorldAfter(parent.world, parent.budget, parent_bytes, child.world, child.budget, shape, reused, changed);
  EXPECT_EQ(reused, plain);
  EXPECT_NE(plain, parent_bytes);
  // Decoding the child over the parent gives the child; decoding the parent over it, the parent.
  Observation world = parent.world;
  Bounds budget = parent.budget;
  decodeWorldOver(plain, parent_bytes, shape, world, budget);
  EXPECT_EQ(world, child.world);
  EXPECT_EQ(budget, child.budget);
  decodeWorldOver(parent_bytes, plain, shape, world, budget);
  EXPECT_EQ(world, parent.world);
  EXPECT_EQ(budget, parent.budget);
  // A part whose bytes equal the previous ones is not decoded: a value planted in broker 1
  // (unchanged between parent and child) survives a decode over the parent's bytes.
  world.brokers[1].known_controller_epoch = 77;
  decodeWorldOver(plain, parent_bytes, shape, world, budget);
  EXPECT_EQ(world.brokers[1].known_controller_epoch, 77);
  EXPECT_EQ(world.brokers[2].controller.context.partitions[1].replica_states[1], ReplicaState::OfflineReplica);
}

// A request queue's segment after the two common steps: the head delivered (the parent's blocks
// without the first) and requests added (the parent's blocks, then the new ones). Both give the
// plain encoding, mark only that queue as changed, and decode over the parent without decoding
// the requests the parent already had: a value planted in one of them survives.
TEST(StateCodec, QueueSegmentsTakeTheHeadOffAndAppendWithoutReencoding) {
  const Config config = everyPerturbationOnce();
  const SpecSystem system(config);
  const StateShape shape(config);
  const std::vector<SpecSystem::State> states = testing::breadthFirstSample(system, 3000);
  const SpecSystem::State* parent = nullptr;
  std::size_t position = 0;  // the broker's position in the shape
  for (const SpecSystem::State& state : states) {
    for (std::size_t i = 0; i < shape.brokers().size() && parent == nullptr; ++i) {
      if (state.world.brokers[shape.brokers()[i]].inbox.size() >= 2) {
        parent = &state;
        position = i;
      }
    }
    if (parent != nullptr) break;
  }
  ASSERT_NE(parent, nullptr) << "no sampled state has two requests queued at one broker";
  const std::uint8_t broker = shape.brokers()[position];
  const SegmentMask queue_bit = SegmentMask{1} << (1 + 3 * position);
  std::string parent_bytes;
  encodeWorld(parent->world, parent->budget, shape, parent_bytes);

  spec::ClusterState delivered = *parent;
  delivered.world.brokers[broker].inbox.erase_at(0);
  spec::ClusterState added = *parent;
  added.world.brokers[broker].inbox.push_back(parent->world.brokers[broker].inbox[0]);
  for (const spec::ClusterState* child : {&delivered, &added}) {
    std::string plain, reused;
    encodeWorld(child->world, child->budget, shape, plain);
    SegmentMask changed = 0;
    encodeWorldAfter(parent->world, parent->budget, parent_bytes, child->world, child->budget, shape, reused, changed);
    EXPECT_EQ(reused, plain);
    // (The budget's segment, after the world's, is always encoded again and counts as changed.)
    const SegmentMask world_segments = (SegmentMask{1} << (1 + 3 * shape.brokers().size())) - 1;
    EXPECT_EQ(changed & world_segments, queue_bit);
    Observation world = parent->world;
    Bounds budget = parent->budget;
    const bool head_taken = child == &delivered;
    // Planted in the parent's second request: after the head is taken off it is the first.
    world.brokers[broker].inbox[1].controller_epoch = 999;
    decodeWorldOver(plain, parent_bytes, shape, world, budget);
    EXPECT_EQ(world.brokers[broker].inbox.size(), child->world.brokers[broker].inbox.size());
    EXPECT_EQ(world.brokers[broker].inbox[head_taken ? 0 : 1].controller_epoch, 999);
    world.brokers[broker].inbox[head_taken ? 0 : 1].controller_epoch =
        child->world.brokers[broker].inbox[head_taken ? 0 : 1].controller_epoch;
    EXPECT_EQ(world, child->world);
  }
}

// The segmented step compares only a delivery's own broker's queue and other fields
// (brokerDataSegments): a delivery changes nothing else, in any sampled state, and the encoding
// that compares only those parts is the plain one.
TEST(StateCodec, ADeliveryChangesOnlyItsBrokersDataSegments) {
  const Config config = everyPerturbationOnce();
  const SpecSystem system(config);
  const StateShape shape(config);
  std::size_t deliveries = 0;
  for (const SpecSystem::State& state : testing::breadthFirstSample(system, 3000)) {
    std::string parent_bytes;
    encodeWorld(state.world, state.budget, shape, parent_bytes);
    for (const Action& action : spec::enabledActions(config, state)) {
      if (action.kind != ActionKind::DeliverRequest) continue;
      ++deliveries;
      const spec::ClusterState child = spec::next(config, state, action);
      std::string plain, compared_all, compared_own;
      encodeWorld(child.world, child.budget, shape, plain);
      SegmentMask changed = 0;
      encodeWorldAfter(state.world, state.budget, parent_bytes, child.world, child.budget, shape, compared_all, changed);
      const SegmentMask own = brokerDataSegments(shape, action.broker);
      // (The budget's segment, after the world's, is always encoded again and counts as changed.)
      const SegmentMask world_segments = (SegmentMask{1} << (1 + 3 * shape.brokers().size())) - 1;
      EXPECT_EQ(changed & world_segments & ~own, 0u) << printAction(config, action);
      encodeWorldAfter(state.world, state.budget, parent_bytes, child.world, child.budget, shape, compared_own, changed, own);
      EXPECT_EQ(compared_own, plain) << printAction(config, action);
    }
  }
  EXPECT_GT(deliveries, 1000u);
}

// What encodeRequestsAfter takes from the lengths alone (spec/rules/step.hpp takeStep): a
// delivery to b takes b's head off and touches no other queue; every other step leaves a queue as
// it was, appends at its end or empties it. Checked for every enabled action of every state along
// seeded random walks of every preset (every perturbation kind among them), as deep as a walk goes.
TEST(StateCodec, AStepChangesAQueueOnlyAtItsEnds) {
  std::uint64_t checked = 0, taken = 0, appended = 0, emptied = 0;
  for (const std::string_view name : kPresetNames) {
    SCOPED_TRACE(std::string(name));
    const Config config = *preset(name);
    std::uint64_t random = 0x9E3779B97F4A7C15ull;
    for (int walk = 0; walk < 24; ++walk) {
      spec::ClusterState state = spec::initialState(config);
      for (int depth = 0; depth < 120; ++depth) {
        const std::vector<Action> actions = spec::enabledActions(config, state);
        if (actions.empty()) break;
        for (const Action& action : actions) {
          const spec::ClusterState after = spec::next(config, state, action);
          for (std::size_t b = 0; b < kMaxBrokers; ++b) {
            const auto& was = state.world.brokers[b].inbox;
            const auto& is = after.world.brokers[b].inbox;
            ++checked;
            if (is == was) continue;
            const bool delivery = action.kind == ActionKind::DeliverRequest && action.broker == static_cast<BrokerId>(b);
            if (delivery) {
              const bool head_taken = is.size() + 1 == was.size() && std::equal(is.begin(), is.end(), was.begin() + 1);
              EXPECT_TRUE(head_taken) << printAction(config, action) << ": broker " << b << "'s queue";
              ++taken;
              continue;
            }
            const bool appended_at_end = is.size() > was.size() && std::equal(was.begin(), was.end(), is.begin());
            EXPECT_TRUE(appended_at_end || is.empty())
                << printAction(config, action) << ": broker " << b << "'s queue, " << was.size() << " requests before, "
                << is.size() << " after";
            ++(appended_at_end ? appended : emptied);
          }
        }
        random = random * 6364136223846793005ull + 1442695040888963407ull;
        state = spec::next(config, state, actions[(random >> 33) % actions.size()]);
      }
    }
  }
  EXPECT_GT(taken, 10'000u);
  EXPECT_GT(appended, 10'000u);
  EXPECT_GT(emptied, 100u);
  EXPECT_GT(checked, 1'000'000u);
}

// sameWorld (equality over the configuration's slots) says what operator== says, for states
// of the configuration; a difference in any of its slots is seen.
TEST(StateCodec, SameWorldFollowsEquality) {
  const Config config = everyPerturbationOnce();
  const SpecSystem system(config);
  const StateShape shape(config);
  const std::vector<SpecSystem::State> states = testing::breadthFirstSample(system, 300);
  ASSERT_GE(states.size(), 300u);
  int different = 0;
  for (std::size_t i = 0; i + 1 < states.size(); ++i) {
    for (std::size_t j : {i, i + 1, states.size() - 1 - i}) {
      const bool equal = states[i].world == states[j].world;
      EXPECT_EQ(sameWorld(states[i].world, states[j].world, shape), equal) << i << " vs " << j;
      different += equal ? 0 : 1;
    }
  }
  EXPECT_GT(different, 100);
  // One field changed in the last configured broker's last configured partition slot.
  Observation changed = states.back().world;
  const std::uint8_t broker = shape.brokers().back();
  const std::uint8_t partition = shape.partitions().back();
  changed.brokers[broker].replicas[partition].leader_epoch += 1;
  EXPECT_FALSE(sameWorld(changed, states.back().world, shape));
  changed = states.back().world;
  changed.zk.last_zxid += 1;
  EXPECT_FALSE(sameWorld(changed, states.back().world, shape));
}

TEST(StateCodec, EncodingIsCompact) {
  const Config config = everyPerturbationOnce();
  const SpecSystem system(config);
  std::string bytes;
  system.encode(spec::initialState(config), bytes);
  EXPECT_LT(bytes.size(), 1024u);  // a 50 kB value, mostly empty slots
}

TEST(VisitedSet, InsertFindGrowAndKeepParents) {
  VisitedSet set(16);
  // State i's parent is state i / 2 (state 0 has none); slots move when the table grows, and
  // `slots` follows them through the map insert() reports.
  std::vector<VisitedSet::Slot> slots;
  std::size_t growths = 0;
  const auto on_grow = [&](const std::vector<VisitedSet::Slot>& map) {
    ++growths;
    for (VisitedSet::Slot& slot : slots) slot = map[slot];
  };
  for (std::uint32_t i = 0; i < 10000; ++i) {
    const Fingerprint fingerprint = hashBytes(std::to_string(i));
    const VisitedSet::Slot parent = i == 0 ? VisitedSet::kNoSlot : slots[i / 2];
    const auto inserted = set.insert(fingerprint, parent, on_grow);
    EXPECT_TRUE(inserted.inserted);
    slots.push_back(inserted.slot);
  }
  EXPECT_EQ(set.size(), 10000u);
  EXPECT_GT(growths, 10u);
  // At most 7/8 full, and at least 7/9 once grown: 12-byte slots make 13.7 to 15.4 bytes a state.
  EXPECT_GE(set.capacity() * 7, set.size() * 8);
  EXPECT_LE(set.capacity() * 7, set.size() * 9 + 9 * 8);
  EXPECT_LE(set.bytes(), 16 * set.size());
  for (std::uint32_t i = 0; i < 10000; ++i) {
    const Fingerprint fingerprint = hashBytes(std::to_string(i));
    ASSERT_EQ(set.find(fingerprint), std::optional<VisitedSet::Slot>(slots[i]));
    EXPECT_EQ(set.fingerprintAt(slots[i]), fingerprint);
    EXPECT_EQ(set.parentAt(slots[i]), i == 0 ? VisitedSet::kNoSlot : slots[i / 2]);
    const auto again = set.insert(fingerprint, VisitedSet::kNoSlot, on_grow);
    EXPECT_FALSE(again.inserted);
    EXPECT_EQ(again.slot, slots[i]);
  }
  EXPECT_FALSE(set.find(hashBytes("absent")).has_value());
  // Fingerprint 0 is stored (as 1).
  const auto zero = set.insert(0, VisitedSet::kNoSlot, on_grow);
  EXPECT_TRUE(zero.inserted);
  EXPECT_EQ(set.find(0), std::optional<VisitedSet::Slot>(zero.slot));
}

}  // namespace
}  // namespace kcspec::explorer
