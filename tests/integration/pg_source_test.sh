#!/usr/bin/env bash
# The PostgreSQL source's decoder chain (pg_conn -> pgoutput -> pg_events -> native) against a
# throwaway PostgreSQL 15: a table with a column of many types, INSERT/UPDATE/DELETE/TRUNCATE,
# a rolled-back transaction, REPLICA IDENTITY FULL and DEFAULT with unchanged TOAST values,
# ALTER TABLE mid-stream, a logical message, a large transaction streamed (protocol 2) and
# committed, another streamed and rolled back; the native lines, with what differs per run
# (LSNs, xids, commit times) replaced by placeholders, compared with the reviewed golden file
# tests/integration/data/pg_source.golden byte for byte. Separately: commit LSNs increase,
# row LSNs increase inside each transaction and lie before its commit, each commit's end LSN
# is past its commit LSN; and the values of text-like columns equal what SELECT returns. The
# streamed transactions spill (a 4 kB threshold) and come out in drained batches.
# Then one transaction of 100,000 rows (about 100 MB of pgoutput messages), streamed: captured
# twice from the same WAL, spilling past the default 8 MiB and with spilling off; both give
# exactly the rows SELECT gives (digest of id, n, pad as COPY writes them), in one BEGIN ..
# COMMIT with indexes 0..99999; the peak RSS (VmHWM) with spilling is under 64 MB and under a
# quarter of the one without (not checked in a sanitized build).
# usage: pg_source_test.sh PG_SOURCE_CHECK   (RC_UPDATE_GOLDEN=1 rewrites the golden file)
set -u
CHECK=$1
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$HERE/data/pg_source.golden
. "$HERE/pg_lib.sh"
. "$HERE/../common/nap.sh"
# small decoding memory: the 100-row transactions are streamed; keepalives every second
pg_test_start "logical_decoding_work_mem = 64kB" "wal_sender_timeout = 2s" || exit 1

pg_test_sql <<'SQL' >/dev/null || exit 1
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE TABLE types (
  id int PRIMARY KEY, t_int2 smallint, t_int8 bigint, t_num numeric(12,3), t_numfree numeric, t_nan numeric,
  t_f4 real, t_f8 double precision, t_bool boolean, t_text text, t_vc varchar(10), t_ch char(3), t_bytea bytea,
  t_date date, t_ts timestamp(3), t_tstz timestamptz, t_tsinf timestamptz, t_time time, t_timetz timetz,
  t_iv interval, t_json json, t_jsonb jsonb, t_uuid uuid, t_inet inet, t_cidr cidr, t_mac macaddr, t_money money,
  t_point point, t_range int4range, t_tsv tsvector, t_arr int[], t_tarr text[], t_mood mood, t_dom posint,
  t_bit bit(4), t_vbit varbit(8), t_xml xml);
CREATE TABLE docs (id int PRIMARY KEY, title text, body text);
ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE TABLE docs_full (id int PRIMARY KEY, title text, body text);
ALTER TABLE docs_full ALTER COLUMN body SET STORAGE EXTERNAL;
ALTER TABLE docs_full REPLICA IDENTITY FULL;
CREATE TABLE big (id int PRIMARY KEY, pad text);
CREATE TABLE huge (id int PRIMARY KEY, n numeric, pad text);
SQL
"$CHECK" setup "$PG_URL" s1 p1 || exit 1

pg_test_sql <<'SQL' >/dev/null || exit 1
INSERT INTO types VALUES (1, -32768, 9223372036854775807, -123456789.125,
  1234567890123456789012345678901234567890.0123456789, 'NaN', 3.25, -1.5e-300, true,
  'tab	"quote" \ emoji 😀', 'ünïcode', 'ab', '\x00ff10', '0044-03-15 BC', '2024-02-29 23:59:59.123',
  '2024-06-01 12:00:00.000001+05:30', 'infinity', '24:00:00', '12:34:56.5+05:30',
  '1 year 2 mons 3 days 04:05:06.789', '{"a": [1, 2.50]}', '{"k": "v\"\n", "n": 1.0}',
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '192.168.0.1/24', '10.0.0.0/8', '08:00:2b:01:02:03', 12.34,
  '(1.5,-2)', '[3,7)', 'a fat cat', '{{1,NULL},{3,4}}', '{"x y",NULL,"\\"}', 'happy', 42,
  B'1010', B'101', '<a>x</a>');
INSERT INTO types (id) VALUES (2);
UPDATE types SET t_text = 'changed', t_num = 0 WHERE id = 1;
UPDATE types SET id = 3 WHERE id = 2;
DELETE FROM types WHERE id = 3;
BEGIN; INSERT INTO types (id) VALUES (99); ROLLBACK;
INSERT INTO docs VALUES (1, 'a', repeat('ab', 1100));
UPDATE docs SET title = 'b' WHERE id = 1;
INSERT INTO docs_full VALUES (1, 'a', repeat('cd', 1100));
UPDATE docs_full SET title = 'b' WHERE id = 1;
DELETE FROM docs WHERE id = 1;
SELECT pg_logical_emit_message(true, 'rowcast-test', 'skipped');
ALTER TABLE docs ADD COLUMN n int;
INSERT INTO docs VALUES (2, 'c', 'short', 7);
ALTER TABLE docs DROP COLUMN title;
ALTER TABLE docs ALTER COLUMN n TYPE bigint;
INSERT INTO docs VALUES (3, 'short', 8);
TRUNCATE docs, docs_full;
BEGIN; INSERT INTO big SELECT i, repeat('p', 1000) FROM generate_series(1, 100) i; ROLLBACK;
BEGIN; INSERT INTO big SELECT i, repeat('q', 1000) FROM generate_series(1, 100) i; COMMIT;
SQL
END_LSN=$(pg_test_sql -c 'SELECT pg_current_wal_lsn()')
"$CHECK" stream "$PG_URL" s1 p1 "$END_LSN" 4096 >"$W/raw" 2>"$W/err" || { bad "stream failed: $(cat "$W/err")"; exit 1; }
grep -q '^spilled bytes at most: [1-9]' "$W/err" || bad "the streamed transactions did not spill: $(cat "$W/err")"
# both 100-row transactions came in streamed chunks (two Stream Starts at least), one was aborted
grep -Eq '^stream chunks: ([2-9]|[1-9][0-9]+), stream aborts: 1$' "$W/err" || bad "not streamed as planned: $(cat "$W/err")"

# placeholders: LSNs L1, L2, ... and xids X1, X2, ... in order of appearance; commit times T
perl -pe 's/"(lsn|checkpoint|last_commit_lsn)":"([0-9A-F]+\/[0-9A-F]+)"/"\"$1\":\"L" . ($l{$2} \/\/= ++$nl) . "\""/ge;
  s/"txid":"(\d+)"/"\"txid\":\"X" . ($x{$1} \/\/= ++$nx) . "\""/ge;
  s/"ts_us":\d+/"ts_us":"T"/' "$W/raw" >"$W/masked"
if [ "${RC_UPDATE_GOLDEN:-}" = 1 ]; then cp "$W/masked" "$GOLDEN"; fi
[ -n "${RC_KEEP_RAW:-}" ] && cp "$W/raw" "$RC_KEEP_RAW"
cmp -s "$GOLDEN" "$W/masked" || { bad "native lines differ from $GOLDEN"; diff <(cut -c1-200 "$GOLDEN") <(cut -c1-200 "$W/masked") | head -40 >&2; }

# positions: read from the unmasked lines
perl -ne 'sub v { my ($h, $l) = split m{/}, $_[0]; hex($h) * 2**32 + hex($l) }
  my ($op) = /"op":"(\w+)"/; my ($lsn) = /"lsn":"([^"]+)"/; my ($end) = /"checkpoint":"([^"]+)"/;
  if ($op eq "begin") { $row = 0; $commit = v($lsn); die "commit LSN $lsn not increasing\n" if $commit <= $last; next }
  if ($op eq "commit") { die "commit LSN differs from begin\n" if v($lsn) != $commit;
    die "end LSN $end not past $lsn\n" if v($end) <= $commit; $last = $commit; next }
  my $v = v($lsn); die "row LSN $lsn decreasing or not before the commit\n" if $v < $row || $v >= $commit; $row = $v;
  END { print "positions ok\n" }' "$W/raw" >"$W/pos" 2>&1
[ "$(cat "$W/pos")" = "positions ok" ] || bad "positions: $(cat "$W/pos")"

# values: the text-like columns of row 1's last image against SELECT (same order)
cols="t_text t_vc t_ch t_uuid t_inet t_cidr t_mac t_money t_point t_range t_tsv t_arr t_tarr t_mood t_iv t_xml t_timetz"
sel=$(pg_test_sql -F $'\x1f' -c "SELECT $(echo "$cols" | tr " " ",") FROM types WHERE id = 1")
got=$(grep '"table":"types"' "$W/raw" | grep '"op":"update"' | head -1 | jq -r --arg cols "$cols" '
  . as $e | ($cols | split(" ")) as $want
  | [$want[] as $c | $e.columns | map(.name) | index($c) | $e.after[.]] | join("\u001f")')
[ "$sel" = "$got" ] || { bad "values differ from SELECT"; diff <(echo "$sel" | tr '\037' '\n') <(echo "$got" | tr '\037' '\n') >&2; }

# one transaction of 100,000 rows: slots s2 and s3 see the same WAL. The keepalives are checked
# above: here a sanitized build holding 100 MB (spilling off) on a loaded machine can be busy
# past the 2 s wal_sender_timeout, and the server then closes the connection (CI, session 23)
pg_test_sql -c "ALTER SYSTEM SET wal_sender_timeout = '60s'" -c "SELECT pg_catalog.pg_reload_conf()" >/dev/null || exit 1
reloaded() { [ "$(pg_test_sql -c "SHOW wal_sender_timeout")" = 1min ]; }
for _ in $(seq 200); do reloaded && break; nap 0.05; done
reloaded || bad "wal_sender_timeout not reloaded in 10 s"
"$CHECK" setup "$PG_URL" s2 p1 && "$CHECK" setup "$PG_URL" s3 p1 || exit 1
pg_test_sql -c "INSERT INTO huge SELECT i, i * 1.5, repeat(md5(i::text), 30) FROM generate_series(1, 100000) i" >/dev/null || exit 1
END_LSN=$(pg_test_sql -c 'SELECT pg_current_wal_lsn()')
want=$(pg_test_sql -c 'COPY (SELECT id, n, pad FROM huge ORDER BY id) TO STDOUT' | sha256sum)
for run in spill off; do
    slot=s2 arg=()
    [ "$run" = off ] && slot=s3 arg=(off)
    "$CHECK" stream "$PG_URL" "$slot" p1 "$END_LSN" "${arg[@]}" >"$W/huge" 2>"$W/err.$run" || { bad "huge stream ($run) failed: $(cat "$W/err.$run")"; continue; }
    got=$(jq -r 'select(.op == "insert") | [.after[0], .after[1], .after[2]] | @tsv' "$W/huge" | sha256sum)
    [ "$got" = "$want" ] || bad "huge ($run): the captured rows differ from SELECT"
    shape=$(jq -r '[.op, .pos.txid, (.pos.index // .pos.count // "")] | @tsv' "$W/huge" | awk -F'\t' '
      NR == 1 { ok = $1 == "begin"; tx = $2; next }
      $1 == "insert" { ok = ok && $2 == tx && $3 == n; n++; next }
      { ok = ok && $1 == "commit" && $2 == tx && $3 == n; c++ }
      END { print (ok && c == 1 && n == 100000) ? "one transaction" : "wrong shape" }')
    [ "$shape" = "one transaction" ] || bad "huge ($run): not one BEGIN, 100000 inserts indexed 0..99999, one COMMIT"
    sed -n 's/^peak RSS: \([0-9]*\) kB.*/\1/p' "$W/err.$run" >"$W/rss.$run"
    echo "pg_source: 100,000-row transaction, spilling $run: peak RSS $(cat "$W/rss.$run") kB, $(grep spilled "$W/err.$run")"
done
grep -q '^spilled bytes at most: [1-9]' "$W/err.spill" || bad "huge: did not spill: $(cat "$W/err.spill")"
grep -q '^spilled bytes at most: 0$' "$W/err.off" || bad "huge: spilled with spilling off"
if grep -q '(sanitized)' "$W/err.spill"; then
    echo "pg_source: peak RSS not checked (sanitized build)"
else
    on=$(cat "$W/rss.spill") off=$(cat "$W/rss.off")
    [ "${on:-99999999}" -lt 65536 ] || bad "huge: peak RSS with spilling ${on} kB, not under 64 MB"
    [ $((${on:-99999999} * 4)) -lt "${off:-0}" ] || bad "huge: peak RSS with spilling ${on} kB is not under a quarter of ${off} kB without"
fi

[ "$fail" = 0 ] && echo "pg_source: all passed"
exit "$fail"
