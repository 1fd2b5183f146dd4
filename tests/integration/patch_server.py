#!/usr/bin/env python3
"""A small HTTP server for tests/integration/patch_http.sh: serves one folder on the loopback
address with byte ranges (`Range: bytes=N-`, answered 206), and injects faults on request:
  --cut NAME=BYTES      the first GET of NAME sends BYTES bytes of the body, then closes the
                        connection (the headers promised the whole length)
  --corrupt NAME=TIMES  the first TIMES GETs of NAME carry one flipped byte in the middle
  --exit-after-cut      the server exits once it has cut a connection (the network goes away)
Writes the port it bound (port 0: any free one) to PORT_FILE and logs every GET as
`GET NAME START SENT STATUS` to LOG, flushed at once.
  patch_server.py ROOT PORT_FILE LOG [--cut NAME=BYTES]... [--corrupt NAME=TIMES]... [--exit-after-cut]"""
import argparse
import http.server
import os
import sys
import threading


def parse_faults(items):
    faults = {}
    for item in items or []:
        name, _, count = item.partition("=")
        faults[name] = int(count)
    return faults


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the test reads LOG instead
        pass

    def record(self, name, start, sent, status):
        with self.server.lock:
            self.server.log.write("GET %s %d %d %d\n" % (name, start, sent, status))
            self.server.log.flush()

    def range_start(self, size):
        spec = self.headers.get("Range")
        if not spec or not spec.startswith("bytes=") or not spec[6:].endswith("-"):
            return 0
        start = int(spec[6:-1])
        return start if start < size else None

    def take(self, table, name):
        with self.server.lock:
            left = table.get(name, 0)
            if left:
                table[name] = left - 1 if table is self.server.corrupt else 0
            return left

    def do_GET(self):
        name = self.path.lstrip("/")
        path = os.path.join(self.server.root, name)
        if "/" in name or not os.path.isfile(path):
            self.send_error(404)
            self.record(name, 0, 0, 404)
            return
        with open(path, "rb") as f:
            body = bytearray(f.read())
        start = self.range_start(len(body))
        if start is None:
            self.send_error(416)
            self.record(name, 0, 0, 416)
            return
        if self.take(self.server.corrupt, name):
            body[len(body) // 2] ^= 0x5A
        part = body[start:]
        status = 206 if start else 200
        self.send_response(status)
        self.send_header("Content-Length", str(len(part)))
        if start:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        cut = self.take(self.server.cut, name)
        sent = part[:cut] if cut else part
        self.wfile.write(sent)
        self.wfile.flush()
        self.close_connection = True
        self.record(name, start, len(sent), status)
        if cut and self.server.exit_after_cut:
            os._exit(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("port_file")
    ap.add_argument("log")
    ap.add_argument("--cut", action="append")
    ap.add_argument("--corrupt", action="append")
    ap.add_argument("--exit-after-cut", action="store_true")
    args = ap.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.root = args.root
    server.cut = parse_faults(args.cut)
    server.corrupt = parse_faults(args.corrupt)
    server.exit_after_cut = args.exit_after_cut
    server.lock = threading.Lock()
    server.log = open(args.log, "a")
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.rename(tmp, args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
