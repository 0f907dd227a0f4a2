#!/usr/bin/env bash
# Issue 26, "What it must show": the same capture from a config file and from flags gives
# byte-identical output. A throwaway MariaDB 10.11; a table changed by inserts, updates and
# deletes; then the capture of that binlog (--snapshot never --start FILE:4 --until caught-up, so
# that both runs read the same events), once with flags and once with a config file holding the
# same settings (the flags' URL reads the password from ?password-file=, the file's URL holds it),
# to stdout in Maxwell's and
# Debezium's formats: both outputs byte for byte equal, both stderr equal but for timings, and the
# password in neither.
# usage: config_capture_test.sh path/to/rowcast
RC=${1:?path to rowcast}
. "$(dirname "$0")/mariadb_lib.sh"
. "$(dirname "$0")/../common/check.sh"
my_test_start || exit 1
trap 'my_test_stop' EXIT
my_sql -e "CREATE DATABASE shop; CREATE TABLE shop.t (id INT PRIMARY KEY, v VARCHAR(20), d DECIMAL(10,2), at DATETIME(6));
  INSERT INTO shop.t VALUES (1, 'a', 1.50, '2024-01-02 03:04:05.000006'), (2, 'b', -2.25, NULL);
  UPDATE shop.t SET v = 'bb', d = 99999999.99 WHERE id = 2; DELETE FROM shop.t WHERE id = 1;
  CREATE USER 'cdc'@'%' IDENTIFIED BY 's3cret-pw'; GRANT SELECT, RELOAD, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'cdc'@'%';"
first=$(my_sql -e "SHOW BINARY LOGS" | head -1 | cut -f1)
printf 's3cret-pw' >"$W/pw"
URL="mysql://cdc@127.0.0.1:$MY_PORT/shop?password-file=$W/pw"
for to in maxwell debezium; do
    "$RC" capture "$URL" --include 'shop.*' --snapshot never --start "$first:4" --until caught-up --server-id 31 \
        --to "$to" --server shop >"$W/flags.$to" 2>"$W/flags.$to.err"
    expect_rc "$to from flags" $? 0
    cat >"$W/$to.conf" <<CONF
# the same capture as a file
url = mysql://cdc:s3cret-pw@127.0.0.1:$MY_PORT/shop
include = shop.*
snapshot = never
start = $first:4
until = caught-up
server-id = 31
to = $to
server = shop
CONF
    "$RC" capture --config "$W/$to.conf" >"$W/file.$to" 2>"$W/file.$to.err"
    expect_rc "$to from the config file" $? 0
    [ -s "$W/flags.$to" ] && ok || bad "$to: no output"
    expect_eq "$to: the config file's output = the flags' output" "$W/flags.$to" "$W/file.$to"
    mask() { sed -E 's/[0-9.]+ s, [0-9]+ events\/s/T/' "$1"; }
    expect_eq "$to: the same stderr" <(mask "$W/flags.$to.err") <(mask "$W/file.$to.err")
    ! grep -q 's3cret-pw' "$W/flags.$to" "$W/file.$to" "$W/flags.$to.err" "$W/file.$to.err" && ok || bad "$to: the password was printed"
done
grep -c . "$W/file.maxwell" | grep -qx 4 && ok || bad "maxwell: not 4 rows: $(cat "$W/file.maxwell")"
echo "config_capture: $pass passed, $fail failed"
[ "$fail" = 0 ]
