# N native insert events of table d.t (id, v), one per line; id cycles over K keys (default
# N), v is the line number, so order per key can be checked: awk -v N=1000 [-v K=50] -f gen_rows.awk
BEGIN {
    if (!K) K = N
    for (i = 1; i <= N; i++)
        printf "{\"op\":\"insert\",\"source\":{\"kind\":\"mysql\",\"server\":\"s\",\"db\":\"d\",\"table\":\"t\"},\"columns\":[{\"name\":\"id\",\"type\":\"int\",\"pk\":true},{\"name\":\"v\",\"type\":\"int\"}],\"after\":[%d,%d]}\n", (i - 1) % K + 1, i
}
