#!/usr/bin/python3
"""Abuse benchmark of one running exporter (scripts/abuse-benchmark.sh starts it). Every load
is bounded in connections and seconds and targets 127.0.0.1 only. Prints figures; exits 1 when
a target of the README's "Under abuse" table is missed.

  abuse_bench.py slowloris URL PID N           N connections that never finish their headers
  abuse_bench.py password-flood URL PID USER:PASS CLIENTS
  abuse_bench.py hostile URL PID               scrape while the fake ovsdb-server misbehaves
"""
import base64
import os
import socket
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlparse


def process(pid):
    """Threads, open fds and resident memory of the exporter; None once it died."""
    try:
        status = open(f"/proc/{pid}/status").read()
    except OSError:
        return None
    field = lambda name: int(next(l for l in status.splitlines() if l.startswith(name)).split()[1])
    return {"threads": field("Threads:"), "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "rss_mib": round(field("VmRSS:") / 1024, 1)}


def scrape(url, auth=None, timeout=30):
    """Seconds a fresh-connection GET takes, and its status (0 when it failed)."""
    request = urllib.request.Request(url)
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            r.read()
            code = r.status
    except urllib.error.HTTPError as e:
        code = e.code
    except OSError:
        code = 0
    return time.monotonic() - start, code


def scrapes(url, n, auth=None):
    results = [scrape(url, auth) for _ in range(n)]
    times = [t for t, _ in results]
    return {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
            "ok": sum(1 for _, c in results if c == 200), "of": n}


def slowloris(url, pid, n, hold=20):
    """n connections held open, each trickling a header line every 2 s and reconnecting when
    dropped, for `hold` seconds; legitimate scrapes meanwhile."""
    u = urlparse(url)
    stop = time.monotonic() + hold
    opened = [0]

    def attacker():
        while time.monotonic() < stop:
            try:
                s = socket.create_connection((u.hostname, u.port), timeout=5)
                opened[0] += 1
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
                while time.monotonic() < stop:
                    time.sleep(2)
                    s.sendall(b"X-Slow: 1\r\n")
            except OSError:
                time.sleep(0.2)  # refused or dropped: come back, as an attacker would
            finally:
                try:
                    s.close()
                except Exception:
                    pass

    before = process(pid)
    threads = [threading.Thread(target=attacker, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    time.sleep(3)  # let them settle in
    during = scrapes(url, 5)
    held = process(pid)
    for t in threads:
        t.join()
    time.sleep(4)
    after = process(pid)
    return {"connections": n, "scrape": during, "before": before, "held": held, "after": after,
            "connects": opened[0]}


def password_flood(url, pid, right, clients, seconds=10):
    user = right.split(":")[0]
    stop = time.monotonic() + seconds
    codes = {}

    def flooder(i):
        while time.monotonic() < stop:
            _, code = scrape(url, f"{user}:wrong{i}", timeout=10)
            codes[code] = codes.get(code, 0) + 1

    scrape(url, right)  # a scraper that already authenticated (as Prometheus would have)
    threads = [threading.Thread(target=flooder, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1)
    during = scrapes(url, 10, auth=right)
    cpu_before = cpu_seconds(pid)
    time.sleep(3)
    cpu = round((cpu_seconds(pid) - cpu_before) / 3 * 100)
    for t in threads:
        t.join()
    return {"clients": clients, "scrape": during, "cpu_percent": cpu, "flood_codes": codes,
            "after": process(pid)}


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    mode, url, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    failed = []
    if mode == "slowloris":
        n = int(sys.argv[4])
        r = slowloris(url, pid, n)
        limit = 1.0 if n <= 100 else 10.0
        print(f"slowloris {n}: scrape median {r['scrape']['median_s']} s, max {r['scrape']['max_s']} s, "
              f"{r['scrape']['ok']}/{r['scrape']['of']} ok (target < {limit} s); "
              f"exporter before {r['before']}, held {r['held']}, after {r['after']}")
        if r["scrape"]["max_s"] >= limit or r["scrape"]["ok"] != r["scrape"]["of"]:
            failed.append("slowloris")
        if r["after"]["threads"] > r["before"]["threads"] + 2 or r["after"]["fds"] > r["before"]["fds"] + 4:
            failed.append("slowloris: threads or fds not back at baseline")
    elif mode == "password-flood":
        r = password_flood(url, pid, sys.argv[4], int(sys.argv[5]))
        print(f"password flood, {r['clients']} clients: right-password scrape median {r['scrape']['median_s']} s, "
              f"max {r['scrape']['max_s']} s, {r['scrape']['ok']}/{r['scrape']['of']} ok (target median < 0.5 s); "
              f"exporter CPU {r['cpu_percent']}%; flood answered {r['flood_codes']}; after {r['after']}")
        if r["scrape"]["median_s"] >= 0.5 or r["scrape"]["ok"] != r["scrape"]["of"]:
            failed.append("password flood")
    elif mode == "hostile":
        results = [scrape(url) for _ in range(20)]
        state = process(pid)
        if state is None:
            print(f"hostile ({sys.argv[4]}): the exporter DIED")
            sys.exit(1)
        body = urllib.request.urlopen(url, timeout=30).read()
        # ovn_raft_up and the reasons counted (every reason is exported, most at 0)
        up = [l for l in body.decode().splitlines() if l.startswith("ovn_raft_up")
              or ("exporter_errors_total{" in l and not l.endswith(" 0"))]
        print(f"hostile ({sys.argv[4] if len(sys.argv) > 4 else ''}): {sum(1 for _, c in results if c == 200)}/20 "
              f"scrapes answered, max {round(max(t for t, _ in results), 3)} s, page {len(body)} bytes, "
              f"exporter {state} (target RSS < 64 MiB); {' '.join(up)}")
        if state["rss_mib"] >= 64 or any(c != 200 for _, c in results):
            failed.append("hostile")
    if failed:
        print("MISSED: " + ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
