"""Ports for tests that run side by side: the protocol of ports.h and scripts/lib.sh.

A process owns block N (ports 20000 + 200 N .. +199, N < 60) while it holds an flock on
/tmp/ovn-raft-ports/N.lock; one whose environment names a block (OVN_RAFT_PORT_BLOCK, set by
the script that owns it) takes from that one. take_ports(n) hands out the next n ports.
"""
import fcntl
import os

FIRST_PORT, BLOCK_SIZE, BLOCKS, LOCK_DIR = 20000, 200, 60, "/tmp/ovn-raft-ports"
_block = None
_lock = None  # kept open for the life of the process: the lock is the ownership


def _own_block():
    global _lock
    named = os.environ.get("OVN_RAFT_PORT_BLOCK", "")
    if named.isdigit() and int(named) < BLOCKS:
        return int(named)
    os.makedirs(LOCK_DIR, exist_ok=True)
    for block in range(BLOCKS):
        f = open(os.path.join(LOCK_DIR, f"{block}.lock"), "a+")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            continue
        os.set_inheritable(f.fileno(), True)
        _lock = f
        open(os.path.join(LOCK_DIR, f"{block}.next"), "w").close()
        return block
    raise RuntimeError(f"every port block under {LOCK_DIR} is owned")


def take_ports(count=1):
    """The first of `count` consecutive ports of this process's block."""
    global _block
    if _block is None:
        _block = _own_block()
    with open(os.path.join(LOCK_DIR, f"{_block}.next"), "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        offset = int(f.read().strip() or 0)
        if offset + count > BLOCK_SIZE:
            raise RuntimeError(f"port block {_block} is used up")
        f.truncate(0)
        f.write(str(offset + count))
    return FIRST_PORT + _block * BLOCK_SIZE + offset
