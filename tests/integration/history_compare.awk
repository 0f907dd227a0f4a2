# Compares two histories, one table a line (my_ddl_corpus_test.sh's history_of): the first file
# read from information_schema, the second kept from the DDL statements. Prints "< IS" and
# "> history" for every table that differs (or is in one only), and "unknown-collation DB TABLE"
# for a table that differs only where the history has collation 0, unknown (a database created
# without a charset: docs/sources/mysql-schema.md): not a mismatch, counted apart.
# usage: awk -f history_compare.awk IS HISTORY
function key(l, f) { split(l, f, "\t"); return f[2] "\t" f[3] }
# l with the collation fields set to 0 where h (the same table in the history) has 0
function unknown_as(l, h,   a, b, n, i, x, y, k, c, j, s) {
    n = split(l, a, / \| /)
    if (split(h, b, / \| /) != n) return l
    for (i = 1; i <= n; i++) {
        k = split(a[i], x, "\t")
        split(b[i], y, "\t")
        c = i == 1 ? 4 : 6
        if (y[c] == "0") x[c] = "0"
        s = x[1]
        for (j = 2; j <= k; j++) s = s "\t" x[j]
        a[i] = s
    }
    s = a[1]
    for (i = 2; i <= n; i++) s = s " | " a[i]
    return s
}
NR == FNR { is[key($0)] = $0; next }
{
    k = key($0)
    seen[k] = 1
    if (!(k in is)) { print "> " $0; next }
    if (is[k] == $0) next
    if (unknown_as(is[k], $0) == $0) { print "unknown-collation\t" k; next }
    print "< " is[k]
    print "> " $0
}
END { for (k in is) if (!(k in seen)) print "< " is[k] }
