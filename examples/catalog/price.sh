#!/bin/sh
# catalog.price as a command tool: reads {"sku":"..."} on stdin and prints {"cents": N}, where N is
# 100 times the sku's length. POSIX sh and awk only. codemode writes its input as compact JSON
# ({"sku":"ab"}), which is all this parses: it counts bytes, so it is exact for ASCII skus without
# escapes, which is enough for an example. Exit status 1 (the call fails) when there is no sku.
exec awk '
  match($0, /"sku":"[^"]*"/) {
    sku = substr($0, RSTART + 7, RLENGTH - 8)
    printf "{\"cents\":%d}\n", length(sku) * 100
    found = 1
  }
  END { if (!found) exit 1 }
'
