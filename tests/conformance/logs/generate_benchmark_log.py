#!/usr/bin/env python3
"""Writes a large, clean Kafka 3.8 state-change.log for measuring `kcspec check-log`.

Every line follows a template of kafka.md §7 (default log4j layout, TRACE on): topics are
created (Appendix B.1), their leaders move by preferred/controlled-shutdown elections (B.3-style
P3 lines with rising epochs, C1/C2/C3 batches, R2 ISR removals) and some are deleted (B.4); the
controller fails over every few thousand topics (a new epoch). `kcspec check-log` reports no
findings on the result.

    generate_benchmark_log.py OUT.log [--mb 200]

Then compare:  time grep -c . OUT.log   and   time kcspec check-log OUT.log
"""
import argparse
import sys


def isr38(ids):
    return 'List(' + ', '.join(f'BrokerState(brokerId={i}, brokerEpoch=-1)' for i in ids) + ')'


def lai38(leader, le, isr, pe):
    return (f'LeaderAndIsr(leader={leader}, leaderEpoch={le}, isrWithBrokerEpoch={isr38(isr)}, '
            f'leaderRecoveryState=RECOVERED, partitionEpoch={pe})')


def lips(t, p, ce, leader, le, isr, pe, replicas, is_new):
    return (f"LeaderAndIsrPartitionState(topicName='{t}', partitionIndex={p}, controllerEpoch={ce}, leader={leader}, "
            f"leaderEpoch={le}, isr=[{', '.join(map(str, isr))}], partitionEpoch={pe}, "
            f"replicas=[{', '.join(map(str, replicas))}], addingReplicas=[], removingReplicas=[], "
            f"isNew={'true' if is_new else 'false'}, leaderRecoveryState=0)")


def lice(leader, isr, le, zk, ce):
    return (f'(Leader:{leader},ISR:{",".join(map(str, isr))},LeaderRecoveryState:RECOVERED,'
            f'LeaderEpoch:{le},ZkVersion:{zk},ControllerEpoch:{ce})')


class Writer:
    def __init__(self, out):
        self.out = out
        self.ms = 0
        self.cid = 1
        self.epoch = 1
        self.bytes = 0
        self.buf = []

    def line(self, level, msg):
        self.ms += 3
        s, ms = divmod(self.ms, 1000)
        m, s = divmod(s, 60)
        h, m = divmod(m, 60)
        text = (f'[2024-07-23 {h % 24:02d}:{m:02d}:{s:02d},{ms:03d}] {level} '
                f'[Controller id={self.cid} epoch={self.epoch}] {msg} (state.change.logger)\n')
        self.buf.append(text)
        self.bytes += len(text)
        if len(self.buf) >= 4096:
            self.flush()

    def flush(self):
        self.out.write(''.join(self.buf))
        self.buf = []

    def c3(self, brokers, n):
        self.line('INFO', f'Sending UpdateMetadata request to brokers HashSet({", ".join(map(str, brokers))}) for {n} partitions')


def topic_lifecycle(w, t, partitions, delete):
    brokers = [1, 2, 3, 4, 5]
    assign = {p: [brokers[(p + i) % 5] for i in range(3)] for p in range(partitions)}
    for p, r in assign.items():
        w.line('INFO', f'Changed partition {t}-{p} state from NonExistentPartition to NewPartition with assigned replicas {",".join(map(str, r))}')
    w.c3([], 0)
    for p, r in assign.items():
        for b in r:
            w.line('TRACE', f'Changed state of replica {b} for partition {t}-{p} from NonExistentReplica to NewReplica')
    w.c3([], 0)
    for p, r in assign.items():
        w.line('INFO', f'Changed partition {t}-{p} from NewPartition to OnlinePartition with state {lai38(r[0], 0, r, 0)}')
        for b in r:
            kind = 'become-leader' if b == r[0] else 'become-follower'
            w.line('TRACE', f'Sending {kind} LeaderAndIsr request {lips(t, p, w.epoch, r[0], 0, r, 0, r, True)} to broker {b} for partition {t}-{p}')
    for b in brokers:
        w.line('INFO', f'Sending LeaderAndIsr request to broker {b} with 1 become-leader and 2 become-follower partitions')
    w.c3(brokers, partitions)
    for p, r in assign.items():
        for b in r:
            w.line('TRACE', f'Changed state of replica {b} for partition {t}-{p} from NewReplica to OnlineReplica')
    w.c3([], 0)
    # Two leader moves per partition (Online -> Online), epochs rising.
    for p, r in assign.items():
        for step in (1, 2):
            leader = r[step % 3]
            w.line('INFO', f'Changed partition {t}-{p} from OnlinePartition to OnlinePartition with state {lai38(leader, step, r, step)}')
            w.line('TRACE', f'Sending become-leader LeaderAndIsr request {lips(t, p, w.epoch, leader, step, r, step, r, False)} to broker {leader} for partition {t}-{p}')
    w.c3(brokers, partitions)
    if not delete:
        return
    for p in assign:
        w.line('TRACE', f'Changed partition {t}-{p} state from OnlinePartition to OfflinePartition')
        w.line('TRACE', f'Changed partition {t}-{p} state from OfflinePartition to NonExistentPartition')
    w.c3(brokers, partitions)
    for p, r in assign.items():
        isr = list(r)
        for i, b in enumerate(r):
            if len(isr) > 1:
                isr.remove(b)
            w.line('INFO', f'Partition {t}-{p} state changed to {lice(-1, isr, 3 + i, 3 + i, w.epoch)} after removing replica {b} from the ISR as part of transition to OfflineReplica')
        for target, source in (('OfflineReplica', 'OnlineReplica'), ('ReplicaDeletionStarted', 'OfflineReplica'),
                               ('ReplicaDeletionSuccessful', 'ReplicaDeletionStarted'),
                               ('NonExistentReplica', 'ReplicaDeletionSuccessful')):
            for b in r:
                w.line('TRACE', f'Changed state of replica {b} for partition {t}-{p} from {source} to {target}')
    w.c3([], 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('out')
    parser.add_argument('--mb', type=float, default=200.0, help='approximate size in MiB (default 200)')
    args = parser.parse_args()
    target = int(args.mb * 1024 * 1024)
    with open(args.out, 'w') as out:
        w = Writer(out)
        n = 0
        while w.bytes < target:
            topic_lifecycle(w, f'topic.{n:06d}', partitions=1 + n % 8, delete=(n % 3 == 0))
            n += 1
            if n % 2000 == 0:  # controller failover: a new epoch, possibly another broker
                w.epoch += 1
                w.cid = 1 + w.epoch % 3
        w.flush()
    print(f'{args.out}: {w.bytes} bytes, {n} topics, controller epoch up to {w.epoch}', file=sys.stderr)


if __name__ == '__main__':
    main()
