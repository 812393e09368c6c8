# serve.py N PORTFILE: python3's http.server handler serving N requests on
# a port of 127.0.0.1 it picks and writes to PORTFILE, then exiting (the
# web server row of bench/run.sh, recorded and replayed).
import http.server
import os
import socketserver
import sys

n, portfile = int(sys.argv[1]), sys.argv[2]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


with socketserver.TCPServer(("127.0.0.1", 0), Quiet) as s:
    with open(portfile + ".new", "w") as f:
        f.write(str(s.server_address[1]))
    os.rename(portfile + ".new", portfile)
    for _ in range(n):
        s.handle_request()
