# Splits a SQL file into statements as docs/sources/mysql-schema.md's corpus test describes
# (the split of ../shared/testdata/peers/SOURCES.md, "Fifth set"): at the delimiter (`;`, or
# the one a DELIMITER line sets) outside quotes and comments, and at a line starting with a
# statement keyword when the statement before was left unterminated. `-- `/`#` comments and
# plain /* */ comments are dropped; /*! ... */ and /*M! ... */ are code and kept.
# Prints the statements to run (table statements, CREATE/DROP INDEX, CREATE/ALTER/DROP
# DATABASE, USE, SET NAMES / FOREIGN_KEY_CHECKS), each followed by a line holding only RS_MARK
# (gawk: -v RS_MARK=...), and the number of every statement read to /dev/stderr as "read N".
# usage: gawk -v RS_MARK=';;;;' -f ddl_split.awk FILE
BEGIN { delim = ";"; stmt = ""; nread = 0; kept = 0 }
function flush(   s, u) {
    s = stmt
    stmt = ""
    gsub(/^[ \t\r\n\f\v]+|[ \t\r\n\f\v]+$/, "", s)
    if (s == "") return
    nread++
    u = toupper(s)
    gsub(/[ \t\r\n]+/, " ", u)
    if (u ~ /^(CREATE (OR REPLACE )?(TEMPORARY )?TABLE|ALTER (ONLINE )?(IGNORE )?TABLE|RENAME TABLES? |DROP (TEMPORARY )?TABLES? |TRUNCATE |CREATE (UNIQUE |FULLTEXT |SPATIAL |OR REPLACE )*INDEX|DROP INDEX|(CREATE|ALTER|DROP) (DATABASE|SCHEMA)|USE |SET NAMES|SET FOREIGN_KEY_CHECKS)/) {
        kept++
        printf "%s\n%s\n", s, RS_MARK
    }
}
{
    line = $0
    # a DELIMITER line (outside any statement text)
    if (!inq && !inc && stmt ~ /^[ \t\r\n]*$/ && toupper(line) ~ /^[ \t]*DELIMITER[ \t]+/) {
        sub(/^[ \t]*[Dd][Ee][Ll][Ii][Mm][Ii][Tt][Ee][Rr][ \t]+/, "", line)
        sub(/[ \t\r]+.*$/, "", line)
        delim = line
        next
    }
    # an unterminated statement followed by a line starting a new one
    if (!inq && !inc && stmt !~ /^[ \t\r\n]*$/ && toupper(line) ~ /^(CREATE|ALTER|DROP|RENAME|TRUNCATE|INSERT|SET|USE|GRANT|REVOKE|DELIMITER)[ \t(]/)
        flush()
    n = length(line)
    i = 1
    while (i <= n) {
        c = substr(line, i, 1)
        if (inc) { # inside /* */ (dropped) or /*! */ (kept)
            if (c == "*" && substr(line, i + 1, 1) == "/") {
                if (inc == 2) stmt = stmt "*/"
                inc = 0; i += 2; continue
            }
            if (inc == 2) stmt = stmt c
            i++; continue
        }
        if (inq) {
            stmt = stmt c
            if (c == "\\" && inq != "`") { stmt = stmt substr(line, i + 1, 1); i += 2; continue }
            if (c == inq) inq = ""
            i++; continue
        }
        if (c == "'" || c == "\"" || c == "`") { inq = c; stmt = stmt c; i++; continue }
        if (c == "#" || (c == "-" && substr(line, i, 2) == "--" && (i + 2 > n || substr(line, i + 2, 1) ~ /[ \t]/ || substr(line, i + 2, 2) == "\302\240" || substr(line, i + 2, 3) == "\343\200\200"))) break
        if (c == "/" && substr(line, i + 1, 1) == "*") {
            if (substr(line, i + 2, 1) == "!" || substr(line, i + 2, 2) == "M!") { inc = 2; stmt = stmt "/*"; i += 2 }
            else { inc = 1; stmt = stmt " "; i += 2 }
            continue
        }
        if (substr(line, i, length(delim)) == delim) { flush(); i += length(delim); continue }
        stmt = stmt c
        i++
    }
    stmt = stmt "\n"
}
END { flush(); print "read " nread " kept " kept > "/dev/stderr" }
