#!/usr/bin/python3
"""A unixctl socket that answers every request with a hostile reply, for the abuse benchmark
(faults a real ovsdb-server will not produce on request).

  fake_ovsdb.py SOCKET nested|big|members LEADER_FIXTURE
"""
import json
import os
import socket
import sys
import threading

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
else:
    sys.exit(f"unknown mode {mode}")


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
                reply = '{"id":%s,"result":%s,"error":null}' % (json.dumps(request.get("id")), result)
                conn.sendall(reply.encode())


if os.path.exists(path):
    os.unlink(path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(16)
while True:
    conn, _ = server.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
