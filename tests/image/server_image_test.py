#!/usr/bin/env python3
"""scripts/server-image against a real daemon: builds the MCP server's image from the build's CLI
and worker, checks its configuration and SPDX document, then runs it and speaks MCP over its
stdio (initialize, tools/list, a code call returning 42). Removes its container and image.

Usage: server_image_test.py SERVER_FILE SOURCE_DIR CLI WORKER TMP_PARENT
  SERVER_FILE  the docker fixture's server address file (scripts/docker start DIR: DIR/server)
"""
import hashlib
import io
import json
import os
import queue
import secrets
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading

DOCKER = "/usr/bin/docker"
TAG = "codemode:server-test"
READ_SECONDS = 30  # one MCP answer; a code call starts a worker in the container


def fail(message):
    sys.exit("server_image_test: " + message)


def main():
    server_file, source_dir, cli, worker, tmp_parent = sys.argv[1:6]
    with open(server_file) as f:
        host = f.read().strip()
    os.makedirs(tmp_parent, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="server-image-", dir=tmp_parent)
    # The docker CLI with nothing inherited: no DOCKER_HOST, no user's config (as the scripts).
    os.mkdir(os.path.join(scratch, "docker-config"))
    env = {"DOCKER_CONFIG": os.path.join(scratch, "docker-config"), "PATH": "/usr/bin:/bin"}
    docker = [DOCKER, "--host", host]
    name = "codemode-server-test-" + secrets.token_hex(8)

    def run(args, timeout=60, check=True, **kwargs):
        done = subprocess.run(docker + args, env=env, capture_output=True, timeout=timeout,
                              **kwargs)
        if check and done.returncode != 0:
            fail("docker %s: %s" % (" ".join(args), done.stderr.decode(errors="replace")))
        return done

    try:
        test(run, docker, env, host, source_dir, cli, worker, scratch, name)
    finally:
        run(["rm", "--force", name], check=False)
        run(["rm", "--force", name + "-files"], check=False)
        run(["rmi", "--force", TAG], check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    left = run(["ps", "--all", "--quiet", "--filter", "name=codemode-server-test-"]).stdout
    if left.strip():
        fail("containers left: " + left.decode())
    print("server_image_test: ok")


def test(run, docker, env, host, source_dir, cli, worker, scratch, name):
    out = os.path.join(scratch, "image.json")
    build = subprocess.run(
        [os.path.join(source_dir, "scripts/server-image"), "--host", host, "--cli", cli,
         "--worker", worker, "--tag", TAG, "--out", out],
        env={"PATH": "/usr/bin:/bin", "TMPDIR": scratch}, capture_output=True, timeout=300)
    if build.returncode != 0:
        fail("server-image failed: " + build.stderr.decode(errors="replace"))
    with open(out) as f:
        built = json.load(f)
    for key in ("image", "provenance"):
        if not built.get(key, "").startswith("sha256:") or len(built[key]) != 71:
            fail("server-image printed %r" % built)

    config = json.loads(run(["image", "inspect", "--format", "{{json .Config}}",
                             built["image"]]).stdout)
    expected = {"User": "65532:65532", "Entrypoint": ["/usr/bin/codemode", "mcp"],
                "Cmd": ["--config", "/etc/codemode/codemode.json", "--mode", "code"]}
    for key, value in expected.items():
        if config.get(key) != value:
            fail("image %s is %r, not %r" % (key, config.get(key), value))
    if config["Labels"].get("dev.codemode.server.provenance") != built["provenance"]:
        fail("provenance label %r" % config["Labels"])

    # The SPDX document in the image is the provenance, and lists the binaries and libc.
    run(["create", "--name", name + "-files", built["image"]])
    archive = run(["cp", name + "-files:/usr/share/codemode/sbom.spdx.json", "-"]).stdout
    run(["rm", "--force", name + "-files"])
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        document = tar.extractfile("sbom.spdx.json").read()
    if "sha256:" + hashlib.sha256(document).hexdigest() != built["provenance"]:
        fail("the SPDX document's digest is not the provenance")
    spdx = json.loads(document)
    names = {f["fileName"] for f in spdx["files"]}
    release = subprocess.run([cli, "--version"], capture_output=True, text=True,
                             check=True).stdout.split("\n")[0].split(" ")[1].rsplit(".", 1)[0]
    for path in ("./usr/bin/codemode", "./usr/libexec/codemode/%s/codemode-worker" % release,
                 "./etc/codemode/codemode.json", "./lib/x86_64-linux-gnu/libc.so.6"):
        if path not in names:
            fail("the SPDX document does not list " + path)

    # The server over stdio, with no network, as a client runs it.
    # The image's own CMD: the CLI finds its worker in ../libexec/codemode/M.N, as installed.
    server = subprocess.Popen(
        docker + ["run", "-i", "--rm", "--network=none", "--name", name, built["image"]],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Readers on threads, so that every wait for an answer is bounded (queue.get's timeout).
    lines = queue.Queue()
    stderr = []

    def read_stdout():
        for line in server.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read_stdout, daemon=True).start()
    stderr_reader = threading.Thread(target=lambda: stderr.extend(server.stderr), daemon=True)
    stderr_reader.start()

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def answer(request_id):
        while True:
            try:
                line = lines.get(timeout=READ_SECONDS)
            except queue.Empty:
                fail("no answer to request %d within %d s; stderr: %s"
                     % (request_id, READ_SECONDS, b"".join(stderr).decode(errors="replace")))
            if line is None:
                fail("the server closed stdout; stderr: "
                     + b"".join(stderr).decode(errors="replace"))
            message = json.loads(line)
            if message.get("id") == request_id:
                if "result" not in message:
                    fail("request %d: %r" % (request_id, message))
                return message["result"]

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "server_image_test", "version": "1"}}})
        result = answer(1)
        if result.get("protocolVersion") != "2025-06-18":
            fail("initialize: protocolVersion %r" % result.get("protocolVersion"))
        if result.get("serverInfo", {}).get("name") != "codemode":
            fail("initialize: serverInfo %r" % result.get("serverInfo"))
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})

        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        tools = [tool["name"] for tool in answer(2)["tools"]]
        if tools != ["code"]:
            fail("tools/list: %r" % tools)

        send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
              "params": {"name": "code", "arguments": {"code": "return 6*7"}}})
        result = answer(3)
        if result.get("isError") or result.get("structuredContent") != {"result": 42}:
            fail("tools/call code: %r" % result)

        # The end of stdin stops a stdio server.
        server.stdin.close()
        if server.wait(timeout=READ_SECONDS) != 0:
            fail("the server exited %d; stderr: %s"
                 % (server.returncode, b"".join(stderr).decode(errors="replace")))
        # The default config names the process profile: the container is the outer layer, and
        # code mode's own default, the isolated profile, would not start under its filter.
        stderr_reader.join(timeout=READ_SECONDS)
        started = [json.loads(line) for line in b"".join(stderr).decode().splitlines()
                   if '"mcp_server_started"' in line]
        if len(started) != 1 or started[0].get("sandbox") != "codemode.process":
            fail("start line %r" % started)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
