# The benchmark's transformation written in jq: Canal flat messages (Canal's own flavour) to
# upstream Debezium JSON as rowcast writes it with
#   --from canal --to debezium -o debezium.flavor=upstream -o debezium.compat=1.6
#   -o debezium.decimal.handling.mode=string
# for the column types of gen-canal.awk only (integers below 2^53, DATETIME without fraction,
# DECIMAL as its string). One output line per row.
def val($t):
  if . == null then null
  elif ($t | test("^(tinyint|smallint|mediumint|int|bigint)")) then tonumber
  elif ($t | startswith("datetime")) then (strptime("%Y-%m-%d %H:%M:%S") | mktime * 1000)
  else . end;
def typed($types): with_entries(.key as $k | .value |= val($types[$k]));
. as $m
| $m.mysqlType as $t
| range(0; $m.data | length) as $i
| ($m.data[$i] | typed($t)) as $row
| {before: (if $m.type == "UPDATE" then ($m.data[$i] + $m.old[$i] | typed($t))
            elif $m.type == "DELETE" then $row else null end),
   after: (if $m.type == "DELETE" then null else $row end),
   source: {version: "rowcast", connector: "mysql", name: "rowcast", ts_ms: $m.es, snapshot: "false",
            db: $m.database, sequence: null, table: $m.table, server_id: 0, gtid: null, file: "",
            pos: 0, row: $i, thread: null, query: null},
   op: ({"INSERT": "c", "UPDATE": "u", "DELETE": "d"}[$m.type]),
   ts_ms: $m.ts,
   transaction: null}
