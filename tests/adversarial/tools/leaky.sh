#!/bin/sh
# A command tool that fails loudly: its stderr and stdout carry the secret it was given and a host
# path. codemode must show neither anywhere.
echo "GITHUB_TOKEN=$1 at /private/codemode-secret/cache.git" >&2
echo "fatal: GITHUB_TOKEN=$1 at /private/codemode-secret/cache.git"
exit 3
