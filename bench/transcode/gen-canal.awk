# Generates N Canal flat messages (Canal's own flavour: every value a string) of one orders
# table for the transcode benchmark: 70% INSERT (every tenth with three rows), 20% UPDATE
# (with "old"), 10% DELETE. Deterministic. usage: awk -v N=200000 -f gen-canal.awk
function row(id,   p, q, d) {
    p = sprintf("%d.%02d", (id * 7919) % 100000, id % 100)
    q = (id * 31) % 2000 - 1000
    d = sprintf("20%02d-%02d-%02d %02d:%02d:%02d", id % 25, id % 12 + 1, id % 28 + 1, id % 24, id % 60, (id * 7) % 60)
    return sprintf("{\"id\":\"%d\",\"name\":\"%s\",\"price\":\"%s\",\"qty\":\"%d\",\"created\":\"%s\",\"note\":%s}",
                   id, names[id % 4] id, p, q, d, id % 3 ? "\"note " id "\"" : "null")
}
BEGIN {
    names[0] = "widget "; names[1] = "caf\303\251 "; names[2] = "say \\\"hi\\\" "; names[3] = "back\\\\slash "
    head = "{\"data\":["
    tail = "\"database\":\"shop\",\"es\":%.0f,\"id\":%d,\"isDdl\":false,\"mysqlType\":{\"id\":\"bigint(20)\",\"name\":\"varchar(64)\",\"price\":\"decimal(10,2)\",\"qty\":\"int(11)\",\"created\":\"datetime\",\"note\":\"text\"},\"old\":%s,\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{\"id\":-5,\"name\":12,\"price\":3,\"qty\":4,\"created\":93,\"note\":2005},\"table\":\"orders\",\"ts\":%.0f,\"type\":\"%s\"}\n"
    for (i = 1; i <= N; i++) {
        k = i % 10
        es = 1700000000000 + i * 1000
        if (k < 7) {
            rows = row(i)
            if (k == 0) rows = rows "," row(i + 1000000) "," row(i + 2000000)
            printf head rows "]," tail, es, i, "null", es + 123, "INSERT"
        } else if (k < 9) {
            printf head row(i - 3) "]," tail, es, i, "[{\"price\":\"0.00\",\"note\":\"old\"}]", es + 123, "UPDATE"
        } else {
            printf head row(i - 5) "]," tail, es, i, "null", es + 123, "DELETE"
        }
    }
}
