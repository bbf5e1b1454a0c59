#!/usr/bin/env python3
"""The SPDX 2.3 document of an image's root directory, on stdout (scripts/lib/image.sh).

Every file but the document itself, with its SHA-256 and the package it came from: codemode for the
paths given with --codemode (one ending in / names a directory), else the Debian package dpkg says
owns it, with its version and architecture. Deterministic: files in path order, ids from paths,
the namespace from the listing, the time given (the commit's).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("root", help="the image's root directory")
parser.add_argument("--version", required=True, help="codemode's version (git describe)")
parser.add_argument("--created", required=True, help="the document's time, UTC")
parser.add_argument("--document", required=True, help="the document's own path in the image")
parser.add_argument("--name", required=True, help="the document's name, before the version")
parser.add_argument("--namespace", required=True, help="the namespace, before the listing's hash")
parser.add_argument("--tool", required=True, help="the creator tool")
parser.add_argument("--program", default="spdx", help="the name errors are reported under")
parser.add_argument("--codemode", action="append", required=True,
                    help="a path of codemode's own files in the image (repeatable)")
args = parser.parse_args()


def is_codemode(path):
    return any(path.startswith(p) if p.endswith("/") else path == p for p in args.codemode)


def debian_package(path):
    # dpkg records a library under /lib or /usr/lib (merged /usr): ask for each spelling.
    candidates = [path, os.path.realpath(path)]
    for p in list(candidates):
        if p.startswith("/usr/"):
            candidates.append(p[4:])
        else:
            candidates.append("/usr" + p)
    for p in candidates:
        found = subprocess.run(["dpkg-query", "-S", p], capture_output=True, text=True)
        if found.returncode == 0:
            name = found.stdout.split(":")[0].strip()
            arch = found.stdout.split(":")[1].split()[0] if found.stdout.count(":") > 1 else ""
            query = name + (":" + arch if arch else "")
            version, architecture = subprocess.run(
                ["dpkg-query", "-W", "-f", "${Version} ${Architecture}", query],
                capture_output=True, text=True, check=True).stdout.split()
            return name, version, architecture
    sys.exit(args.program + ": no Debian package owns " + path)


files, packages, relationships = [], {}, []
for directory, _, names in sorted(os.walk(args.root)):
    for name in sorted(names):
        full = os.path.join(directory, name)
        path = "/" + os.path.relpath(full, args.root)
        if path == args.document:
            continue
        with open(full, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        file_id = "SPDXRef-File-" + hashlib.sha256(path.encode()).hexdigest()[:16]
        files.append({"fileName": "." + path, "SPDXID": file_id,
                      "checksums": [{"algorithm": "SHA256", "checksumValue": digest}],
                      "licenseConcluded": "NOASSERTION", "copyrightText": "NOASSERTION"})
        if is_codemode(path):
            package, package_version, architecture = "codemode", args.version, None
        else:
            package, package_version, architecture = debian_package(path)
        package_id = "SPDXRef-Package-" + package.replace("+", "plus").replace("_", "-")
        if package_id not in packages:
            entry = {"name": package, "SPDXID": package_id, "versionInfo": package_version,
                     "downloadLocation": "NOASSERTION", "filesAnalyzed": False,
                     "licenseConcluded": "NOASSERTION", "licenseDeclared": "NOASSERTION",
                     "copyrightText": "NOASSERTION"}
            if package != "codemode":
                entry["supplier"] = "Organization: Debian"
                entry["externalRefs"] = [{"referenceCategory": "PACKAGE-MANAGER",
                                          "referenceType": "purl",
                                          "referenceLocator": "pkg:deb/debian/%s@%s?arch=%s"
                                                              % (package, package_version,
                                                                 architecture)}]
            packages[package_id] = entry
        relationships.append({"spdxElementId": package_id, "relationshipType": "CONTAINS",
                              "relatedSpdxElement": file_id})
listing = "".join(f["fileName"] + " " + f["checksums"][0]["checksumValue"] + "\n" for f in files)
document = {
    "spdxVersion": "SPDX-2.3", "dataLicense": "CC0-1.0", "SPDXID": "SPDXRef-DOCUMENT",
    "name": args.name + " " + args.version,
    "documentNamespace": args.namespace + hashlib.sha256(listing.encode()).hexdigest(),
    "creationInfo": {"created": args.created, "creators": ["Tool: " + args.tool]},
    "packages": sorted(packages.values(), key=lambda p: p["SPDXID"]),
    "files": files,
    "relationships": [{"spdxElementId": "SPDXRef-DOCUMENT", "relationshipType": "DESCRIBES",
                       "relatedSpdxElement": p} for p in sorted(packages)] + relationships,
}
json.dump(document, sys.stdout, indent=1, sort_keys=True)
sys.stdout.write("\n")
