#!/usr/bin/env python3
"""A tiny system under test for `kcspec drive` (docs/driver-protocol.md), in Python.

It implements just enough of Kafka's ZooKeeper-mode controller for topic creation on a cluster
whose brokers never fail: the first controller election (onControllerFailover), `create-topic`,
the TopicChange event (onNewPartitionCreation) and brokers applying LeaderAndIsr and
UpdateMetadata requests. It passes the driver, in both modes, on docs/examples/topic-creation.config
(and on any configuration where every broker is alive at start and the only perturbation is topic
creation):

    kcspec drive --mode exhaustive --steps 20 --config docs/examples/topic-creation.config -- \
        python3 docs/examples/sut_topic_creation.py
    kcspec drive --mode random --config docs/examples/topic-creation.config -- \
        python3 docs/examples/sut_topic_creation.py

It lists the four action kinds it implements in init_ok, so the driver never sends another.
The observation it reports is the compact JSON form: members at their default are left out.
"""
import json
import sys

PROTOCOL = 1
ACTIONS = ["elect-controller", "create-topic", "process-event", "deliver-request"]


class BadConfig(Exception):
    pass


def parse_config(text):
    """The part of the configuration format this SUT needs (spec/vocabulary/config_text.hpp)."""
    config = {"brokers": [], "alive": [], "topics": [], "topic_creations": 0}
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        key, args = words[0], words[1:]
        if key == "brokers":
            config["brokers"] = sorted(int(w) for w in args)
        elif key == "alive-at-start":
            config["alive"] = sorted(int(w) for w in args)
        elif key == "topic":
            config["topics"].append({"name": args[0], "partitions": [], "exists": False, "unclean": False})
        elif key == "partition":
            config["topics"][-1]["partitions"].append([int(b) for b in args[2].split(",")])
        elif key == "exists-at-start":
            config["topics"][-1]["exists"] = args[0] == "true"
        elif key == "unclean.leader.election.enable":
            config["topics"][-1]["unclean"] = args[0] == "true"
        elif key == "bound" and args[0] == "topic-creations":
            config["topic_creations"] = int(args[1])
        elif key == "bound" and int(args[1]) != 0:
            raise BadConfig(f"init.config:{number}: this SUT supports no perturbation but topic creation")
        elif key in ("name", "delete.topic.enable", "auto.leader.rebalance.enable", "bound"):
            pass
        else:
            raise BadConfig(f"init.config:{number}: this SUT does not support `{key}`")
    if config["alive"] != config["brokers"]:
        raise BadConfig("init.config: this SUT needs every broker alive at start")
    return config


class Cluster:
    """The world as the observation shows it (docs/driver-protocol.md, "Observation")."""

    def __init__(self, config):
        self.config = config
        self.creations_left = config["topic_creations"]
        self.zk = {"brokers": {}, "topics": {}, "controller": -1, "controller_epoch": 0,
                   "controller_epoch_zk_version": -1, "last_zxid": 0}
        self.brokers = {}
        for b in config["alive"]:  # registered in id order: the broker epoch is the creation order
            self.zk["last_zxid"] += 1
            self.zk["brokers"][str(b)] = {"registered": True, "broker_epoch": self.zk["last_zxid"]}
            self.brokers[str(b)] = {"alive": True, "broker_epoch": self.zk["last_zxid"], "known_controller_epoch": 0,
                                    "inbox": [], "metadata_cache": {}, "metadata_live_brokers": [], "replicas": {},
                                    "controller": {"active": False, "context": {}, "events": []}}
        for t, topic in enumerate(config["topics"]):
            if topic["exists"]:
                self.write_topic(t)

    # --- ZooKeeper
    def write_topic(self, t):
        topic = self.config["topics"][t]
        self.zk["topics"][str(t)] = {"exists": True, "partitions": [{"replicas": r} for r in topic["partitions"]],
                                     "states": {}, "unclean_leader_election_enable": topic["unclean"]}

    def active(self):
        return str(self.zk["controller"]) if self.zk["controller"] >= 0 else None

    # --- the controller's request batch: one LeaderAndIsr per broker, then one UpdateMetadata per live broker
    def send_batch(self, controller, partitions):
        ctx = self.brokers[controller]["controller"]["context"]
        live = sorted(int(b) for b in ctx["live_broker_epochs"])
        for b in live:
            entries = []
            for key in partitions:
                p = ctx["partitions"][key]
                if b in p["assignment"]["replicas"]:
                    entries.append({"partition": key, "leadership": p["leadership"], "assignment": p["assignment"],
                                    "is_new": True})
            if entries:
                self.request(controller, b, {"kind": "LeaderAndIsr", "leader_and_isr": entries})
        self.send_update_metadata(controller, partitions)

    def send_update_metadata(self, controller, partitions):
        ctx = self.brokers[controller]["controller"]["context"]
        live = sorted(int(b) for b in ctx["live_broker_epochs"])
        entries = []
        for key in partitions:
            p = ctx["partitions"][key]
            lead = p["leadership"]
            entries.append({"partition": key, "controller_epoch": lead["controller_epoch"], "leader": lead["leader"],
                            "leader_epoch": lead["leader_epoch"], "isr": lead["isr"],
                            "zk_version": lead["partition_epoch"], "replicas": p["assignment"]["replicas"]})
        for b in live:
            self.request(controller, b, {"kind": "UpdateMetadata", "update_metadata": entries, "live_brokers": live})

    def request(self, controller, b, body):
        ctx = self.brokers[controller]["controller"]["context"]
        message = {"controller_id": int(controller), "controller_epoch": ctx["epoch"],
                   "broker_epoch": ctx["live_broker_epochs"][str(b)]}
        message.update(body)
        self.brokers[str(b)]["inbox"].append(message)

    # --- NewPartition -> OnlinePartition for new partitions; their replicas -> OnlineReplica
    def bring_online(self, controller, topics):
        ctx = self.brokers[controller]["controller"]["context"]
        keys = []
        for t in topics:
            for p, replicas in enumerate(self.config["topics"][t]["partitions"]):
                key = f"{t}-{p}"
                live_replicas = [r for r in replicas if str(r) in ctx["live_broker_epochs"]]
                leadership = {"leader": live_replicas[0], "leader_epoch": 0, "isr": live_replicas, "partition_epoch": 0,
                              "controller_epoch": ctx["epoch"]}
                self.zk["topics"][str(t)]["states"][str(p)] = leadership
                ctx["partitions"][key] = {"assignment": {"replicas": replicas}, "leadership": leadership,
                                          "state": "OnlinePartition",
                                          "replica_states": {str(r): "OnlineReplica" for r in replicas}}
                keys.append(key)
        if keys:  # an empty batch sends nothing
            self.send_batch(controller, keys)

    # --- the actions
    def enabled(self, kind, arg):
        if kind == "elect-controller":
            return arg in self.brokers and self.zk["controller"] < 0
        if kind == "create-topic":
            return self.creations_left > 0 and arg is not None and str(arg) not in self.zk["topics"]
        if kind == "process-event":
            return arg == self.active() and bool(self.brokers[arg]["controller"]["events"])
        if kind == "deliver-request":
            return arg in self.brokers and bool(self.brokers[arg]["inbox"])
        return False

    def apply(self, kind, arg):
        if kind == "elect-controller":
            self.elect(arg)
        elif kind == "create-topic":
            self.creations_left -= 1
            self.write_topic(arg)
            if self.active() is not None:
                self.brokers[self.active()]["controller"]["events"].append({"kind": "TopicChange"})
        elif kind == "process-event":
            event = self.brokers[arg]["controller"]["events"].pop(0)
            if event.get("zk_triggered"):
                return  # ReplicaLeaderElection(None, PREFERRED, ZkTriggered): no znode here, nothing to do
            ctx = self.brokers[arg]["controller"]["context"]
            new = [int(t) for t in sorted(self.zk["topics"], key=int) if int(t) not in ctx["all_topics"]]
            ctx["all_topics"] = sorted(ctx["all_topics"] + new)
            self.bring_online(arg, new)
        elif kind == "deliver-request":
            self.deliver(arg)

    def elect(self, b):
        self.zk["controller"] = int(b)
        self.zk["controller_epoch"] += 1
        self.zk["controller_epoch_zk_version"] = 1 if self.zk["controller_epoch_zk_version"] < 0 else \
            self.zk["controller_epoch_zk_version"] + 1
        live = {k: v["broker_epoch"] for k, v in self.zk["brokers"].items() if v["registered"]}
        existing = sorted(int(t) for t in self.zk["topics"])
        module = self.brokers[b]["controller"]
        module["active"] = True
        module["context"] = {"epoch": self.zk["controller_epoch"],
                             "epoch_zk_version": self.zk["controller_epoch_zk_version"],
                             "live_broker_epochs": live, "all_topics": existing, "partitions": {}}
        self.send_update_metadata(b, [])  # every live broker learns of the new controller
        self.bring_online(b, existing)
        # Failover step 14 ends by queueing ReplicaLeaderElection(None, PREFERRED, ZkTriggered).
        module["events"].append({"kind": "ReplicaLeaderElection", "zk_triggered": True})

    def deliver(self, b):
        broker = self.brokers[b]
        request = broker["inbox"].pop(0)
        broker["known_controller_epoch"] = request["controller_epoch"]
        if request["kind"] == "UpdateMetadata":
            broker["metadata_live_brokers"] = request["live_brokers"]
            for entry in request["update_metadata"]:
                broker["metadata_cache"][entry["partition"]] = {k: v for k, v in entry.items() if k != "partition"}
        else:
            for entry in request["leader_and_isr"]:
                lead = entry["leadership"]
                leader = lead["leader"] == int(b)
                broker["replicas"][entry["partition"]] = {"present": True, "is_leader": leader,
                                                          "leader_epoch": lead["leader_epoch"],
                                                          "partition_epoch": lead["partition_epoch"],
                                                          "isr": lead["isr"] if leader else []}

    def observation(self):
        return {"zookeeper": self.zk, "brokers": self.brokers}


def parse_action(config, text):
    words = text.split()
    if len(words) != 2 or words[0] not in ACTIONS:
        return None, None
    kind, arg = words
    if kind == "create-topic":
        names = [t["name"] for t in config["topics"]]
        return kind, (names.index(arg) if arg in names else None)
    return kind, arg


def main():
    cluster = None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
            kind, mid = message["type"], message["id"]
        except (ValueError, KeyError, TypeError):
            reply({"type": "error", "id": 0, "code": "bad_message", "message": "not a request"})
            continue
        if kind == "init":
            if message.get("protocol") != PROTOCOL:
                reply({"type": "error", "id": mid, "code": "unsupported_protocol", "message": "I speak protocol 1"})
                continue
            try:
                cluster = Cluster(parse_config(message["config"]))
            except (BadConfig, ValueError, IndexError) as e:
                reply({"type": "error", "id": mid, "code": "bad_config", "message": str(e)})
                continue
            reply({"type": "init_ok", "id": mid, "protocol": PROTOCOL, "actions": ACTIONS,
                   "observation": cluster.observation()})
        elif kind == "reset":
            cluster = Cluster(cluster.config)
            reply({"type": "reset_ok", "id": mid, "observation": cluster.observation()})
        elif kind == "step":
            action, arg = parse_action(cluster.config, message["action"])
            if action is None:
                reply({"type": "error", "id": mid, "code": "unsupported", "message": message["action"]})
            elif not cluster.enabled(action, arg):
                reply({"type": "error", "id": mid, "code": "not_enabled", "message": message["action"]})
            else:
                cluster.apply(action, arg)
                reply({"type": "step_ok", "id": mid, "observation": cluster.observation()})
        elif kind == "quit":
            reply({"type": "quit_ok", "id": mid})
            return
        else:
            reply({"type": "error", "id": mid, "code": "bad_message", "message": f"unknown type {kind}"})


def reply(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
