# fetch.py N PORTFILE: waits for PORTFILE, then gets / and a file from the
# server there N times in all (the client of the web server row, never
# recorded).
import os
import sys
import time
import urllib.request

n, portfile = int(sys.argv[1]), sys.argv[2]
for _ in range(3000):
    if os.path.exists(portfile):
        break
    time.sleep(0.01)
port = int(open(portfile).read())
for i in range(n):
    path = "/" if i % 2 else "/page.txt"
    urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path)).read()
