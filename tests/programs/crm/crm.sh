#!/bin/sh
# The corpus's CRM as three command tools (tests/programs/README.md): `crm.sh listCustomers`,
# `crm.sh listOrders` and `crm.sh price` each read one call's arguments as compact JSON on stdin
# and print one JSON value. The data is fixed, so every expectation in the corpus can be computed
# by hand. POSIX sh and awk only: a tool call costs a few milliseconds, not a Python start-up.
#
# The input schemas (crm/tools.json) admit only flat objects of strings, so a regular expression
# finds each argument. Exit status 1 (the call fails, `tool_failed`): an unknown customer for
# listOrders, a sku with no price (an unknown one, or LEGACY-1, which old orders still name).
exec awk -v method="$1" '
function arg(name) {
  if (match(input, "\"" name "\":\"[^\"]*\"")) return substr(input, RSTART + length(name) + 4, RLENGTH - length(name) - 5)
  return ""
}
function customer(id, name, tier, country, since) {
  n_customers++
  c_id[n_customers] = id; c_tier[n_customers] = tier; c_country[n_customers] = country
  c_json[n_customers] = sprintf("{\"id\":\"%s\",\"name\":\"%s\",\"email\":\"%s@example.com\",\"tier\":\"%s\",\"country\":\"%s\",\"since\":\"%s\"}", id, name, tolower(substr(name, 1, index(name, " ") - 1)), tier, country, since)
  known[id] = 1
}
function order(id, customer_id, sku, quantity, status, created) {
  n_orders++
  o_customer[n_orders] = customer_id; o_status[n_orders] = status
  o_json[n_orders] = sprintf("{\"id\":\"%s\",\"customerId\":\"%s\",\"sku\":\"%s\",\"quantity\":%d,\"status\":\"%s\",\"createdAt\":\"%s\"}", id, customer_id, sku, quantity, status, created)
}
BEGIN {
  customer("c1", "Ada Lovelace", "gold", "GB", "2021-03-14")
  customer("c2", "Grace Hopper", "gold", "US", "2020-12-09")
  customer("c3", "Alan Turing", "silver", "GB", "2022-06-23")
  customer("c4", "Katherine Johnson", "silver", "US", "2023-08-26")
  customer("c5", "Edsger Dijkstra", "bronze", "NL", "2022-05-11")
  customer("c6", "Barbara Liskov", "gold", "US", "2019-11-07")
  customer("c7", "Linus Torvalds", "bronze", "FI", "2024-01-28")
  customer("c8", "Margaret Hamilton", "silver", "US", "2023-02-17")
  order("o1001", "c1", "WIDGET", 4, "paid", "2024-01-05T10:15:00Z")
  order("o1002", "c1", "GADGET", 1, "paid", "2024-02-11T16:40:00Z")
  order("o1003", "c1", "SPROCKET", 10, "refunded", "2024-03-02T09:05:00Z")
  order("o1004", "c2", "DOOHICKEY", 1, "paid", "2024-01-20T12:00:00Z")
  order("o1005", "c2", "GIZMO", 3, "pending", "2024-04-01T08:30:00Z")
  order("o1006", "c3", "FLANGE", 2, "paid", "2024-02-14T14:14:00Z")
  order("o1007", "c3", "WIDGET", 1, "paid", "2024-03-30T18:45:00Z")
  order("o1008", "c3", "LEGACY-1", 5, "paid", "2023-11-11T11:11:00Z")
  order("o1009", "c4", "GADGET", 2, "paid", "2024-05-05T05:05:00Z")
  order("o1010", "c6", "SPROCKET", 20, "paid", "2024-01-15T13:00:00Z")
  order("o1011", "c6", "FLANGE", 1, "pending", "2024-06-01T07:20:00Z")
  order("o1012", "c6", "GIZMO", 2, "paid", "2024-06-02T19:55:00Z")
  order("o1013", "c6", "DOOHICKEY", 2, "refunded", "2024-02-28T10:00:00Z")
  order("o1014", "c7", "WIDGET", 2, "pending", "2024-07-04T21:00:00Z")
  order("o1015", "c8", "GIZMO", 6, "paid", "2024-03-03T03:03:00Z")
  order("o1016", "c8", "GADGET", 1, "paid", "2024-04-18T15:30:00Z")
  cents["WIDGET"] = 1250; cents["GADGET"] = 4999; cents["GIZMO"] = 799
  cents["DOOHICKEY"] = 15000; cents["SPROCKET"] = 325; cents["FLANGE"] = 2100
}
{ input = input $0 }
END {
  if (method == "listCustomers") {
    tier = arg("tier"); country = arg("country"); out = ""
    for (i = 1; i <= n_customers; i++)
      if ((tier == "" || c_tier[i] == tier) && (country == "" || c_country[i] == country))
        out = out (out == "" ? "" : ",") c_json[i]
    printf "{\"customers\":[%s]}\n", out
  } else if (method == "listOrders") {
    id = arg("customerId"); status = arg("status"); out = ""
    if (!(id in known)) exit 1
    for (i = 1; i <= n_orders; i++)
      if (o_customer[i] == id && (status == "" || o_status[i] == status))
        out = out (out == "" ? "" : ",") o_json[i]
    printf "{\"orders\":[%s]}\n", out
  } else if (method == "price") {
    sku = arg("sku")
    if (!(sku in cents)) exit 1
    printf "{\"sku\":\"%s\",\"cents\":%d,\"currency\":\"USD\"}\n", sku, cents[sku]
  } else {
    exit 2
  }
}
'
