#!/bin/sh
# quote.discount as a command tool: reads {"totalCents":N,"percent":P} on stdin, appends the quote
# to codemode-quotes.log in the current directory (its write effect) and prints
# {"quoteCents": N * (100 - P) / 100, "quoteId": "q-<line number>"}. POSIX sh and awk only; it
# parses only the compact JSON codemode writes.
exec awk '
  {
    if (!match($0, /"totalCents":[0-9]+/)) exit 1
    total = substr($0, RSTART + 13, RLENGTH - 13)
    if (!match($0, /"percent":[0-9]+/)) exit 1
    percent = substr($0, RSTART + 10, RLENGTH - 10)
    quote = int(total * (100 - percent) / 100)
    lines = 0
    while ((getline line < "codemode-quotes.log") > 0) lines++
    close("codemode-quotes.log")
    id = "q-" (lines + 1)
    printf "{\"quoteId\":\"%s\",\"quoteCents\":%d}\n", id, quote >> "codemode-quotes.log"
    printf "{\"quoteId\":\"%s\",\"quoteCents\":%d}\n", id, quote
    found = 1
  }
  END { if (!found) exit 1 }
'
