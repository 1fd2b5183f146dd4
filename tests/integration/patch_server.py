#!/usr/bin/env python3
"""A small HTTP server for tests/integration/patch_http.sh: serves one folder on the loopback
address with byte ranges (`Range: bytes=N-`, answered 206), and injects faults on request:
  --cut NAME=BYTES      the first GET of NAME sends BYTES bytes of the body, then closes the
                        connection (the headers promised the whole length)
  --short NAME=BYTES    the first GET of NAME sends BYTES bytes with no Content-Length, then
                        closes: a body that ends early with no error to see
  --corrupt NAME=TIMES  the first TIMES GETs of NAME carry one flipped byte in the middle
  --extra NAME=BYTES    every GET of NAME sends BYTES more bytes than the file has (counted in
                        its Content-Length)
  --drip NAME=RATE      every GET of NAME sends its body at RATE bytes a second
  --redirect NAME=URL   every GET of NAME is answered 302 to URL, with a short body
  --no-range            Range headers are ignored: every answer is 200 with the whole file
  --fill PATH           before the first archive's body is sent, PATH is written until its file
                        system is full (a disk that fills during a download)
  --exit-after-cut      the server exits once it has cut a connection (the network goes away)
Writes the port it bound (port 0: any free one) to PORT_FILE and logs every GET as
`GET NAME START SENT STATUS` to LOG, flushed at once (SENT: the body bytes written before the
answer ended or the client went away).
  patch_server.py ROOT PORT_FILE LOG [FAULT]..."""
import argparse
import errno
import http.server
import os
import sys
import threading
import time


def parse_faults(items, kind=int):
    faults = {}
    for item in items or []:
        name, _, value = item.partition("=")
        faults[name] = kind(value)
    return faults


def fill(path):
    """Writes zeros to path until its file system has no room left."""
    block = bytes(1 << 16)
    with open(path, "wb", buffering=0) as f:
        try:
            while True:
                f.write(block)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
        try:
            while True:
                f.write(b"\0")
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise


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
        if self.server.no_range or not spec or not spec.startswith("bytes=") or not spec[6:].endswith("-"):
            return 0
        start = int(spec[6:-1])
        return start if start < size else None

    def take(self, table, name):
        with self.server.lock:
            left = table.get(name, 0)
            if left:
                table[name] = left - 1 if table is self.server.corrupt else 0
            return left

    def fill_once(self, name):
        with self.server.lock:
            if self.server.fill and name != "archives.json":
                fill(self.server.fill)
                self.server.fill = None

    def redirect(self, name, to):
        body = b"Moved\n"
        self.send_response(302)
        self.send_header("Location", to)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True
        self.record(name, 0, len(body), 302)

    def send_body(self, data, rate):
        """Writes data (at `rate` bytes a second when given); the bytes written."""
        sent = 0
        step = max(1, rate // 10) if rate else 1 << 16
        try:
            while sent < len(data):
                chunk = data[sent:sent + step]
                self.wfile.write(chunk)
                self.wfile.flush()
                sent += len(chunk)
                if rate:
                    time.sleep(len(chunk) / rate)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return sent

    def do_GET(self):
        name = self.path.lstrip("/")
        path = os.path.join(self.server.root, name)
        if name in self.server.redirects:
            self.redirect(name, self.server.redirects[name])
            return
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
        part = body[start:] + bytes(self.server.extra.get(name, 0))
        short = self.take(self.server.short, name)
        status = 206 if start else 200
        self.send_response(status)
        if not short:
            self.send_header("Content-Length", str(len(part)))
        if start:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.fill_once(name)
        cut = self.take(self.server.cut, name) or short
        sent = self.send_body(part[:cut] if cut else part, self.server.drip.get(name, 0))
        self.close_connection = True
        self.record(name, start, sent, status)
        if cut and self.server.exit_after_cut:
            os._exit(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("port_file")
    ap.add_argument("log")
    for fault in ("--cut", "--short", "--corrupt", "--extra", "--drip", "--redirect"):
        ap.add_argument(fault, action="append")
    ap.add_argument("--no-range", action="store_true")
    ap.add_argument("--fill")
    ap.add_argument("--exit-after-cut", action="store_true")
    args = ap.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.root = args.root
    server.cut = parse_faults(args.cut)
    server.short = parse_faults(args.short)
    server.corrupt = parse_faults(args.corrupt)
    server.extra = parse_faults(args.extra)
    server.drip = parse_faults(args.drip)
    server.redirects = parse_faults(args.redirect, str)
    server.no_range = args.no_range
    server.fill = args.fill
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
