#!/usr/bin/env python3
"""Compare upstream Debezium JSON events (schemas on) with the fields a Debezium test suite asserts.

usage: dbz_fields_check.py EXPECTED --mode MODE --op r|c [--skip-table T]... [--nth] EVENTS

EXPECTED (tests/integration/data/pg_dbz_suite.expected) holds, per settings mode:
  [MODE MODE...]                 the modes the lines below apply to
  TABLE#PK.FIELD SCHEMA = VALUE  a field of the row with that pk ("after"), its Connect schema and value
  TABLE#PK.FIELD absent          a column the connector leaves out: neither in the schema nor the value
  ! TABLE#PK.FIELD REASON        a field where rowcast differs on purpose or has not built it: a
                                 difference there is counted, not failed
  # ...                          a comment (the Debezium method the values come from)
TABLE is the table's name (SCHEMA.TABLE outside public; DB.TABLE for MySQL, whose source has no
schema), FIELD the column's; either may be a JSON string. PK is the row's column pk, or with --nth
the row's place among the table's events of that op (1: the first written). SCHEMA is TYPE[?][:NAME[/VERSION]][<ITEM>|<KEY,VALUE>][{EXTRA}]: ? is optional, the name
and version of a logical type, an array's items or a map's keys and values, and EXTRA a JSON object
of other schema keys ("parameters", "default"). A key the expected schema does not name must be
absent from rowcast's. VALUE is JSON as Kafka's JsonConverter writes it, or {"$in": [...]} (one of),
{"$range": [LO, HI]}, {"$json": X} (a string holding JSON equal to X), {"$any": null} (any value:
the field's schema alone is compared), or a list of these.
Prints one line per difference and the counts; exits 1 on a difference not listed with "!".
"""
import argparse
import json
import re
import sys

DEC = json.JSONDecoder()


def parse_schema(s, i=0):
    m = re.compile(r"[a-z0-9]+").match(s, i)
    if not m:
        raise ValueError("schema type expected at %r" % s[i:])
    sch = {"type": m.group(0), "optional": False}
    i = m.end()
    if s.startswith("?", i):
        sch["optional"] = True
        i += 1
    if s.startswith(":", i):
        m = re.compile(r"[^/<>{},]+").match(s, i + 1)
        sch["name"] = m.group(0)
        i = m.end()
        if s.startswith("/", i):
            m = re.compile(r"\d+").match(s, i + 1)
            sch["version"] = int(m.group(0))
            i = m.end()
    if s.startswith("<", i):
        first, i = parse_schema(s, i + 1)
        if s.startswith(",", i):
            sch["keys"] = first
            sch["values"], i = parse_schema(s, i + 1)
        else:
            sch["items"] = first
        if not s.startswith(">", i):
            raise ValueError("'>' expected at %r" % s[i:])
        i += 1
    if s.startswith("{", i):
        extra, i = DEC.raw_decode(s, i)
        sch.update(extra)
    return sch, i


def parse_key(s):
    """TABLE#PK.FIELD, each name plain or a JSON string; returns (table, pk, field, rest)."""
    if s.startswith('"'):
        table, i = DEC.raw_decode(s)
    else:
        i = s.index("#")
        table = s[:i]
    m = re.compile(r"#(\d+)\.").match(s, i)
    if not m:
        raise ValueError("#PK. expected in %r" % s)
    i = m.end()
    if s.startswith('"', i):
        field, i = DEC.raw_decode(s, i)
    else:
        j = s.find(" ", i)
        j = len(s) if j < 0 else j
        field, i = s[i:j], j
    return table, int(m.group(1)), field, s[i:].strip()


def load(path, mode):
    fields, known, modes = [], {}, []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            modes = line.strip("[] ").split()
            continue
        if mode not in modes:
            continue
        try:
            if line.startswith("! "):
                table, pk, field, reason = parse_key(line[2:])
                known[(table, pk, field)] = reason
                continue
            table, pk, field, rest = parse_key(line)
            if rest == "absent":
                fields.append((table, pk, field, None, None, n))
                continue
            sch_text, value_text = rest.split(" = ", 1)
            sch, end = parse_schema(sch_text.strip())
            if end != len(sch_text.strip()):
                raise ValueError("junk after the schema: %r" % sch_text[end:])
            fields.append((table, pk, field, sch, json.loads(value_text), n))
        except ValueError as e:
            sys.exit("%s:%d: %s" % (path, n, e))
    return fields, known


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def value_ok(want, got):
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(value_ok(w, g) for w, g in zip(want, got))
    if isinstance(want, dict) and len(want) == 1:
        (k, v), = want.items()
        if k == "$in":
            return any(same(x, got) for x in v)
        if k == "$any":
            return True
        if k == "$range":
            return isinstance(got, (int, float)) and not isinstance(got, bool) and v[0] <= got <= v[1]
        if k == "$json":
            try:
                return isinstance(got, str) and same(json.loads(got), v)
            except ValueError:
                return False
    return same(want, got)


SCHEMA_KEYS = ("type", "optional", "name", "version", "parameters", "default")


def schema_diff(want, got, where="schema"):
    for k in SCHEMA_KEYS:
        if k in want or k in got:
            if not same(want.get(k), got.get(k)):
                return "%s.%s %s, Debezium %s" % (where, k, json.dumps(got.get(k)), json.dumps(want.get(k)))
    for k in ("items", "keys", "values"):
        if k in want:
            d = schema_diff(want[k], got.get(k, {}), where + "." + k)
            if d:
                return d
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("expected")
    ap.add_argument("events")
    ap.add_argument("--mode", required=True)
    ap.add_argument("--op", required=True)
    ap.add_argument("--skip-table", action="append", default=[])
    ap.add_argument("--nth", action="store_true")
    a = ap.parse_args()
    fields, known = load(a.expected, a.mode)
    rows, seen = {}, {}
    for line in open(a.events, encoding="utf-8"):
        ev = json.loads(line)
        p = ev.get("payload") or {}
        if p.get("op") != a.op or not p.get("after"):
            continue
        src = p["source"]
        if "schema" not in src:
            table = src["db"] + "." + src["table"]
        else:
            table = src["table"] if src["schema"] == "public" else src["schema"] + "." + src["table"]
        after = next(f for f in ev["schema"]["fields"] if f["field"] == "after")
        seen[table] = seen.get(table, 0) + 1
        pk = seen[table] if a.nth else p["after"].get("pk")
        rows[(table, pk)] = (p["after"], {f["field"]: f for f in after["fields"]})
    equal = diff_known = diff = skipped = 0
    tables = set()
    for table, pk, field, sch, value, n in fields:
        if table in a.skip_table:
            skipped += 1
            continue
        tables.add(table)
        reason = known.get((table, pk, field))
        row = rows.get((table, pk))
        if row is None:
            problem = "no event (op %s) for the row" % a.op
        elif sch is None:
            problem = "written, where Debezium leaves the column out" if field in row[1] or field in row[0] else None
        elif field not in row[1]:
            problem = "field not written"
        else:
            got_v, got_s = row[0].get(field), row[1][field]
            problem = schema_diff(sch, got_s)
            if not problem and not value_ok(value, got_v):
                problem = "value %s, Debezium %s" % (json.dumps(got_v), json.dumps(value))
        if problem is None:
            equal += 1
            if reason:
                print("%s %s#%d.%s: equal, though listed as known (%s)" % (a.mode, table, pk, field, reason))
        elif reason:
            diff_known += 1
        else:
            diff += 1
            print("DIFF %s/%s line %d %s#%d.%s: %s" % (a.mode, a.op, n, table, pk, field, problem))
    print("%s/%s: %d tables, %d fields compared, %d equal, %d different with reason, %d different, %d skipped"
          % (a.mode, a.op, len(tables), equal + diff_known + diff, equal, diff_known, diff, skipped))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
