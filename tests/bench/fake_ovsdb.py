#!/usr/bin/python3
"""A unixctl socket that answers every request with a hostile reply, for the abuse benchmark
(faults a real ovsdb-server will not produce on request).

  fake_ovsdb.py SOCKET MODE LEADER_FIXTURE

  nested   a reply nested 100,000 deep        big      a 7.9 MB status
  members  a status listing 50,000 members    wide     240 members (a large but valid page)
  adding   100,000 "Adding server" lines      junk     7.6 MB of small unknown lines
  error    a 7 MB error string                tiny     400,000 tiny messages before each reply
  slow     the real status after 300 ms       hang     never answers
"""
import json
import os
import socket
import sys
import threading
import time

path, mode, fixture = sys.argv[1], sys.argv[2], sys.argv[3]
leader = open(fixture).read()
if mode == "nested":  # 100,000 levels deep, ~200 KB
    result = "[" * 100000 + "]" * 100000
elif mode == "big":  # a 7.9 MB status: the real one, then one long line
    result = json.dumps(leader + "X" * 7_900_000 + "\n")
elif mode == "members":  # a status listing 50,000 members
    entries = "".join(f"    {i:04x} ({i:04x} at tcp:10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}:6643)\n"
                      for i in range(1, 50001))
    result = json.dumps(leader + entries)
elif mode == "wide":
    entries = "".join(f"    {i:04x} ({i:04x} at tcp:10.0.{i >> 8 & 255}.{i & 255}:6643) next_index=2 match_index=1\n"
                      for i in range(1, 241))
    result = json.dumps(leader + entries)
elif mode == "adding":
    result = json.dumps(leader + "".join(f"Adding server a{i % 1000} (a{i % 1000} at tcp:10.0.0.1:6643) "
                                         "(adding: catchup)\n" for i in range(100000)))
elif mode == "junk":
    result = json.dumps(leader + "".join(f"Junk line {i}\n" for i in range(420000)))
elif mode in ("tiny", "slow", "hang"):
    result = json.dumps(leader)
elif mode != "error":
    sys.exit(f"unknown mode {mode}")
tiny = '{"id":null,"method":"n","params":[]}' * 400000


def serve(conn):
    decoder = json.JSONDecoder()
    buffer = ""
    with conn:
        while True:
            data = conn.recv(65536)
            if not data:
                return
            buffer += data.decode()
            while buffer:
                try:
                    request, end = decoder.raw_decode(buffer)
                except ValueError:
                    break
                buffer = buffer[end:]
                rid = json.dumps(request.get("id"))
                if mode == "hang":
                    time.sleep(3600)
                if mode == "slow":
                    time.sleep(0.3)
                if mode == "tiny":
                    conn.sendall(tiny.encode())
                if mode == "error":
                    reply = '{"id":%s,"result":null,"error":%s}' % (rid, json.dumps("E" * 7_000_000))
                else:
                    reply = '{"id":%s,"result":%s,"error":null}' % (rid, result)
                conn.sendall(reply.encode())


if os.path.exists(path):
    os.unlink(path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(16)
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
