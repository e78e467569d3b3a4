#!/usr/bin/python3
"""An Alertmanager webhook receiver for the tests and the demo: every notification it is sent
becomes one JSON line in OUT, with the path it came to (the receiver) and when it came.

  webhook-receiver.py PORT OUT      listens on 127.0.0.1:PORT until killed
"""
import http.server
import json
import sys
import time

port, out = int(sys.argv[1]), sys.argv[2]


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        body["receiver_path"], body["received_at"] = self.path, time.time()
        with open(out, "a") as f:
            f.write(json.dumps(body) + "\n")
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", port), Receiver).serve_forever()
