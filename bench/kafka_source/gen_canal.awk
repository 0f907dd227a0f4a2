# N Canal flat messages (bench/run_kafka_source.sh), shaped like the ones Canal writes for the
# Flink test table inventory.products2 (../shared's canal-data.txt): every value a string, with
# mysqlType and sqlType maps. In each group of ten: 3 INSERTs of new ids, 5 UPDATEs of them (old:
# the changed columns only), 2 DELETEs. usage: awk -v N=1000000 -f gen_canal.awk
BEGIN {
    types = "\"mysqlType\":{\"id\":\"INTEGER\",\"name\":\"VARCHAR(255)\",\"description\":\"VARCHAR(512)\",\"weight\":\"FLOAT\"}"
    sqlt = "\"sqlType\":{\"id\":4,\"name\":12,\"description\":12,\"weight\":7}"
    split("scooter,car battery,drill bits,hammer,rocks,jacket,spare tire", names, ",")
    for (i = 0; i < N; i++) {
        g = int(i / 10); ph = i % 10; es = 1589373500000 + i
        if (ph < 3) {
            id = 3 * g + ph + 1
            msg("INSERT", id, row(id, 0), "null", es)
        } else if (ph < 8) {
            id = 3 * g + (ph - 3) % 3 + 1; v = ph - 2
            msg("UPDATE", id, row(id, v), "[{\"description\":\"" desc(id, v - 1) "\",\"weight\":\"" weight(id, v - 1) "\"}]", es)
        } else {
            id = 3 * g + ph - 7
            msg("DELETE", id, row(id, id % 3 == 1 ? 5 : 4), "null", es)
        }
    }
}
function weight(id, v) { return sprintf("%d.%d", id % 50, v) }
function desc(id, v) { return names[id % 7 + 1] " number " id ", revision " v }
function row(id, v) {
    return "{\"id\":\"" id "\",\"name\":\"" names[id % 7 + 1] "\",\"description\":\"" desc(id, v) "\",\"weight\":\"" weight(id, v) "\"}"
}
function msg(type, id, data, old, es) {
    printf "{\"data\":[%s],\"database\":\"inventory\",\"es\":%d,\"id\":%d,\"isDdl\":false,%s,\"old\":%s,\"pkNames\":[\"id\"],\"sql\":\"\",%s,\"table\":\"products2\",\"ts\":%d,\"type\":\"%s\"}\n",
        data, es, i + 1, types, old, sqlt, es + 301, type
}
