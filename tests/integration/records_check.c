/* Compares what Kafka holds with what `rowcast convert --records` wrote for the same input.
 *
 * usage: records_check FILE_RECORDS KCAT_RECORDS PARTITIONS
 *        records_check --partition PARTITIONS KEY...   (prints "partition \t key" per key)
 *        records_check --topics FILE_RECORDS          (prints the topics of the file, once each)
 *   FILE_RECORDS  rowcast's --records output: topic \t klen \t key \t vlen \t value \t headers \n
 *   KCAT_RECORDS  kcat -C -f '%p\t%t\t%K\t%k\t%S\t%s\t%h\n' of every topic
 * Checks, byte for byte: the same records (topic, key, value, headers) in both; every record in
 * the partition Kafka's murmur2 partitioner gives its key (keyless: "db.table" from the
 * headers; Debezium heartbeats and schema changes: partition 0); in each partition, the records in the order the file has them. Lengths make the
 * parse binary-safe (Avro values). Exit 0 when all holds, 1 with the first difference. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/sink.h"
#include "../common/slurp.h"

typedef struct rec {
    int part;
    const char *topic, *key, *val, *hdr;
    long tl, kl, vl, hl; /* kl/vl -1: null */
    long seq;
} rec;

static const char *field(const char *p, const char *end, char stop, long *len)
{
    const char *q = memchr(p, stop, (size_t)(end - p));
    if (!q) return NULL;
    *len = q - p;
    return q + 1;
}

static const char *sized(const char *p, const char *end, const char **out, long *len)
{
    char *e;
    long n = strtol(p, &e, 10);
    if (e == p || *e != '\t') return NULL;
    p = e + 1;
    *out = p;
    *len = n;
    if (n < 0) return *p == '\t' ? p + 1 : NULL;
    if (end - p < n + 1 || p[n] != '\t') return NULL;
    return p + n + 1;
}

static long parse(char *buf, size_t n, bool with_part, rec **out)
{
    const char *p = buf, *end = buf + n;
    long cnt = 0, cap = 1024;
    rec *r = malloc((size_t)cap * sizeof *r);
    while (p < end) {
        rec x = {0};
        long l;
        if (with_part) {
            x.part = atoi(p);
            if (!(p = field(p, end, '\t', &l))) break;
        }
        x.topic = p;
        if (!(p = field(p, end, '\t', &x.tl)) || !(p = sized(p, end, &x.key, &x.kl)) || !(p = sized(p, end, &x.val, &x.vl))) break;
        x.hdr = p;
        if (!(p = field(p, end, '\n', &x.hl))) break;
        x.seq = cnt;
        if (cnt == cap) r = realloc(r, (size_t)(cap *= 2) * sizeof *r);
        r[cnt++] = x;
    }
    if (p < end) {
        fprintf(stderr, "records_check: cannot parse record %ld at byte %ld\n", cnt, (long)(p - buf));
        exit(1);
    }
    *out = r;
    return cnt;
}

static int cmp_mem(const char *a, long al, const char *b, long bl)
{
    if (al != bl) return al < bl ? -1 : 1;
    return al > 0 ? memcmp(a, b, (size_t)al) : 0;
}

static int same(const rec *a, const rec *b)
{
    return !cmp_mem(a->topic, a->tl, b->topic, b->tl) && !cmp_mem(a->key, a->kl, b->key, b->kl) &&
           !cmp_mem(a->val, a->vl, b->val, b->vl) && !cmp_mem(a->hdr, a->hl, b->hdr, b->hl);
}

/* "name=value" from the headers, or empty. */
static long header(const rec *r, const char *name, const char **v)
{
    size_t nl = strlen(name);
    for (const char *p = r->hdr, *end = r->hdr + r->hl; p < end;) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        if (!c) c = end;
        if ((size_t)(c - p) > nl && !memcmp(p, name, nl) && p[nl] == '=') {
            *v = p + nl + 1;
            return c - p - (long)nl - 1;
        }
        p = c + 1;
    }
    return 0;
}

static int partition_of(const rec *r, int parts)
{
    static const char hb[] = "__debezium-heartbeat.";
    if (r->tl >= (long)sizeof hb - 1 && !memcmp(r->topic, hb, sizeof hb - 1)) return 0; /* Debezium: partition 0 */
    static const char sc[] = "{\"databaseName\":", scs[] = ".SchemaChangeKey\"";
    if (r->kl >= (long)sizeof sc - 1 && (!memcmp(r->key, sc, sizeof sc - 1) || memmem(r->key, (size_t)r->kl, scs, sizeof scs - 1)))
        return 0; /* Debezium's schema changes: partition 0 too */
    if (r->kl >= 0) return rc_murmur2_partition(r->key, (size_t)r->kl, parts);
    const char *db = "", *tb = "";
    long dl = header(r, "rowcast.db", &db), tl = header(r, "rowcast.table", &tb);
    char route[1024];
    int n = tl ? snprintf(route, sizeof route, "%.*s.%.*s", (int)dl, db, (int)tl, tb) : 0;
    return rc_murmur2_partition(route, (size_t)n, parts);
}

static void show(const char *what, const rec *r)
{
    fprintf(stderr, "  %s: topic %.*s partition %d key %.*s value %.*s...\n", what, (int)r->tl, r->topic, r->part,
            (int)(r->kl < 0 ? 4 : r->kl), r->kl < 0 ? "null" : r->key, (int)(r->vl < 0 ? 4 : r->vl > 80 ? 80 : r->vl),
            r->vl < 0 ? "null" : r->val);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--partition")) { /* records_check --partition N KEY...: murmur2 partitions */
        for (int i = 3; i < argc; i++) printf("%d\t%s\n", rc_murmur2_partition(argv[i], strlen(argv[i]), atoi(argv[2])), argv[i]);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--topics")) { /* records_check --topics FILE: its topics, once each */
        size_t n;
        char *b = slurp(argv[2], &n);
        rec *r;
        long cnt = b ? parse(b, n, false, &r) : 0;
        for (long i = 0; i < cnt; i++) {
            long j = 0;
            while (j < i && cmp_mem(r[j].topic, r[j].tl, r[i].topic, r[i].tl)) j++;
            if (j == i) printf("%.*s\n", (int)r[i].tl, r[i].topic);
        }
        if (!b) return 2;
        free(r);
        free(b);
        return 0;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: records_check FILE_RECORDS KCAT_RECORDS PARTITIONS\n");
        return 2;
    }
    size_t fn, kn;
    char *fb = slurp(argv[1], &fn), *kb = slurp(argv[2], &kn);
    int parts = atoi(argv[3]);
    if (!fb || !kb || parts <= 0) {
        fprintf(stderr, "records_check: cannot read the inputs\n");
        return 2;
    }
    rec *f, *k;
    long nf = parse(fb, fn, false, &f), nk = parse(kb, kn, true, &k);
    if (nf != nk) {
        fprintf(stderr, "records_check: the file has %ld records, Kafka %ld\n", nf, nk);
        return 1;
    }
    for (long i = 0; i < nf; i++) f[i].part = partition_of(&f[i], parts);
    /* walk Kafka's records in the order kcat printed them (topic by topic, partition by
     * partition, offset order); each must be the next unmatched file record of its topic and
     * partition */
    long *cursor = calloc((size_t)nk, sizeof *cursor);
    long matched = 0;
    for (long i = 0; i < nk; i++) {
        const rec *r = &k[i];
        int want = partition_of(r, parts);
        if (r->part != want) {
            fprintf(stderr, "records_check: record %ld is in partition %d; murmur2 gives %d\n", i, r->part, want);
            show("kafka", r);
            return 1;
        }
        long j = 0; /* first file record of this topic+partition not matched yet */
        for (long q = 0; q < i; q++)
            if (k[q].part == r->part && !cmp_mem(k[q].topic, k[q].tl, r->topic, r->tl)) j = cursor[q] + 1;
        while (j < nf && !(f[j].part == r->part && !cmp_mem(f[j].topic, f[j].tl, r->topic, r->tl))) j++;
        if (j >= nf || !same(&f[j], r)) {
            fprintf(stderr, "records_check: Kafka record %ld differs from the file's next record of its partition\n", i);
            show("kafka", r);
            if (j < nf) show("file", &f[j]);
            return 1;
        }
        cursor[i] = j;
        matched++;
    }
    printf("records_check: %ld records equal byte for byte, each in its murmur2 partition, in order\n", matched);
    free(cursor), free(f), free(k), free(fb), free(kb);
    return 0;
}
