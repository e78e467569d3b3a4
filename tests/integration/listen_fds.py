#!/usr/bin/env python3
"""Passes a listening socket to a program as systemd does (sd_listen_fds(3)): binds and
listens on HOST:PORT, then starts PROGRAM with the socket as descriptor 3, LISTEN_FDS=1 and
LISTEN_PID its own pid. Like systemd, it keeps the socket open: once PROGRAM exits it is
started again on the same socket (RUNS times), so a restart refuses no connection.

  listen_fds.py [--pid=wrong|--fd=idle|--fd=twice] [--runs=N] HOST PORT PROGRAM [ARGS...]

--pid=wrong sets LISTEN_PID to another pid; --fd=idle passes a socket that is bound but does
not listen; --fd=twice passes the same socket as descriptors 3 and 4 (LISTEN_FDS=2)."""
import os
import socket
import sys

args = sys.argv[1:]
options = {}
while args and args[0].startswith("--"):
    key, _, value = args.pop(0)[2:].partition("=")
    options[key] = value
host, port, program = args[0], int(args[1]), args[2:]
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((host, port))
if options.get("fd") != "idle":
    s.listen(64)
status = 0
for _ in range(int(options.get("runs", "1"))):
    pid = os.fork()
    if pid == 0:
        os.dup2(s.fileno(), 3, inheritable=True)
        os.set_inheritable(3, True)  # dup2 onto itself leaves the flag as it was
        if options.get("fd") == "twice":
            os.dup2(3, 4, inheritable=True)
        env = dict(os.environ)
        env["LISTEN_FDS"] = "2" if options.get("fd") == "twice" else "1"
        env["LISTEN_PID"] = str(os.getppid() if options.get("pid") == "wrong" else os.getpid())
        os.execve(program[0], program, env)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    print(f"listen_fds: {program[0]} exited {status}", flush=True)
sys.exit(status if status >= 0 else 128 - status)
