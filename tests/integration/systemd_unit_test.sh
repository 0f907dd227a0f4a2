#!/usr/bin/env bash
# packaging/rowcast@.service: `systemd-analyze verify` passes for an instance (its ExecStart
# pointed at the rowcast built, as `cmake --install` points it at the one installed), and the
# settings docs/operations.md relies on are there: the command line, the restart policy and the
# exit statuses a restart cannot cure (docs/cli.md: 1 usage, 2 a row that stops the run, 4
# fenced), SIGTERM with a stop timeout longer than the default --flush-timeout (30 s), the
# state directory, the hardening. Skipped (77) without systemd-analyze.
# usage: systemd_unit_test.sh path/to/rowcast   (from the repository root)
set -u
RC=${1:?path to rowcast}
command -v systemd-analyze >/dev/null || { echo "systemd_unit: no systemd-analyze: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/common/check.sh
UNIT=packaging/rowcast@.service
RC_ABS=$(cd "$(dirname "$RC")" && pwd)/$(basename "$RC")
sed "s#^ExecStart=/usr/bin/rowcast #ExecStart=$RC_ABS #" "$UNIT" >"$T/rowcast@.service"
grep -q "^ExecStart=$RC_ABS " "$T/rowcast@.service" && ok || bad "no ExecStart=/usr/bin/rowcast line to point at the build"
(cd "$T" && SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no "$T/rowcast@shop.service") >"$T/verify" 2>&1
expect_rc verify $? 0
[ -s "$T/verify" ] && bad "systemd-analyze verify said: $(cat "$T/verify")" || ok

# setting NAME VALUE: the unit sets NAME=VALUE exactly (one line)
setting() { [ "$(grep -c "^$1=$2\$" "$UNIT")" = 1 ] && ok || bad "$UNIT: no line $1=$2 (has: $(grep "^$1=" "$UNIT"))"; }
setting ExecStart '/usr/bin/rowcast capture --config /etc/rowcast/%i.conf'
setting Restart on-failure
setting RestartPreventExitStatus '1 2 4'
setting SuccessExitStatus '130 143'
setting KillSignal SIGTERM
setting StateDirectory 'rowcast/%i'
setting ProtectSystem strict
setting NoNewPrivileges yes
setting PrivateTmp yes
setting ProtectHome yes
stop=$(sed -n 's/^TimeoutStopSec=//p' "$UNIT")
[ "${stop:-0}" -gt 30 ] && ok || bad "TimeoutStopSec=$stop does not leave the default --flush-timeout (30 s) its time"
grep -q '^#LoadCredential=' "$UNIT" && ok || bad "no LoadCredential= example"
# the exit statuses it names are the ones docs/cli.md gives those meanings
for s in 1 2 3 4; do grep -q "^| $s |" docs/cli.md || grep -q "exit status $s" docs/cli.md docs/sinks.md || bad "docs name no exit status $s"; done
ok

echo "systemd_unit: $pass passed, $fail failed"
[ "$fail" = 0 ]
