/* GTID sets (my_gtid.h). MariaDB's is the last sequence number per replication domain, kept in
 * the order the domains were first seen (the order GTID_LIST and gtid_binlog_pos give them);
 * MySQL's is, per source UUID and tag, a sorted list of disjoint intervals [start, end), kept
 * sorted by UUID and then tag, untagged first, as the server writes gtid_executed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "my_gtid.h"
#include "core/fmt.h"

enum { TAG_MAX = 32 };

typedef struct mdb_gtid {
    uint32_t domain, server;
    uint64_t seq;
} mdb_gtid;

typedef struct my_interval {
    uint64_t start, end; /* [start, end) */
} my_interval;

typedef struct my_sid {
    uint8_t uuid[16];
    char tag[TAG_MAX + 1];
    my_interval *iv;
    size_t niv, capiv;
} my_sid;

struct rc_my_gtid_set {
    bool mariadb, mysql; /* neither: empty, flavour not known yet */
    mdb_gtid *mdb;
    size_t nmdb, capmdb;
    my_sid *sids;
    size_t nsids, capsids;
};

rc_my_gtid_set *rc_my_gtid_set_new(void) { return calloc(1, sizeof(rc_my_gtid_set)); }

static void gtid_clear(rc_my_gtid_set *g)
{
    for (size_t i = 0; i < g->nsids; i++) free(g->sids[i].iv);
    g->nsids = g->nmdb = 0;
    g->mariadb = g->mysql = false;
}

void rc_my_gtid_set_free(rc_my_gtid_set *g)
{
    if (!g) return;
    gtid_clear(g);
    free(g->sids);
    free(g->mdb);
    free(g);
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap * 2 : 4;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * size);
    if (!q) return false;
    *p = q, *cap = c;
    return true;
}

static rc_status nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

rc_status rc_my_gtid_set_copy(rc_my_gtid_set *dst, const rc_my_gtid_set *src, rc_error *err)
{
    if (dst == src) return RC_OK;
    gtid_clear(dst);
    if (!grow((void **)&dst->mdb, &dst->capmdb, src->nmdb, sizeof *dst->mdb) ||
        !grow((void **)&dst->sids, &dst->capsids, src->nsids, sizeof *dst->sids))
        return nomem(err);
    if (src->nmdb) memcpy(dst->mdb, src->mdb, src->nmdb * sizeof *src->mdb);
    dst->nmdb = src->nmdb;
    for (size_t i = 0; i < src->nsids; i++) {
        my_sid *d = &dst->sids[i];
        *d = src->sids[i];
        d->iv = malloc((src->sids[i].niv ? src->sids[i].niv : 1) * sizeof *d->iv);
        if (!d->iv) return nomem(err);
        if (d->niv) memcpy(d->iv, src->sids[i].iv, d->niv * sizeof *d->iv);
        d->capiv = d->niv ? d->niv : 1;
        dst->nsids = i + 1;
    }
    dst->mariadb = src->mariadb, dst->mysql = src->mysql;
    return RC_OK;
}

bool rc_my_gtid_set_empty(const rc_my_gtid_set *g) { return !g->nmdb && !g->nsids; }
bool rc_my_gtid_set_is_mariadb(const rc_my_gtid_set *g) { return g->mariadb; }

static rc_status flavour(rc_my_gtid_set *g, bool mariadb, rc_error *err)
{
    if ((mariadb && g->mysql) || (!mariadb && g->mariadb))
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "a %s GTID cannot join a %s GTID set", mariadb ? "MariaDB" : "MySQL",
                            mariadb ? "MySQL" : "MariaDB");
    g->mariadb = mariadb, g->mysql = !mariadb;
    return RC_OK;
}

rc_status rc_my_gtid_set_add_mariadb(rc_my_gtid_set *g, uint32_t domain, uint32_t server, uint64_t seq, rc_error *err)
{
    if (flavour(g, true, err) != RC_OK) return err ? err->code : RC_ERR_VALUE;
    for (size_t i = 0; i < g->nmdb; i++)
        if (g->mdb[i].domain == domain) {
            g->mdb[i].server = server, g->mdb[i].seq = seq;
            return RC_OK;
        }
    if (!grow((void **)&g->mdb, &g->capmdb, g->nmdb + 1, sizeof *g->mdb)) return nomem(err);
    g->mdb[g->nmdb++] = (mdb_gtid){domain, server, seq};
    return RC_OK;
}

/* The entry of (uuid, tag), inserted in order when missing; NULL when out of memory. */
static my_sid *sid_get(rc_my_gtid_set *g, const uint8_t uuid[16], const char *tag, size_t tn)
{
    size_t i = 0;
    for (; i < g->nsids; i++) {
        int c = memcmp(g->sids[i].uuid, uuid, 16);
        if (!c) {
            size_t on = strlen(g->sids[i].tag);
            c = memcmp(g->sids[i].tag, tag, on < tn ? on : tn);
            if (!c) c = on < tn ? -1 : on > tn;
        }
        if (!c) return &g->sids[i];
        if (c > 0) break;
    }
    if (!grow((void **)&g->sids, &g->capsids, g->nsids + 1, sizeof *g->sids)) return NULL;
    memmove(&g->sids[i + 1], &g->sids[i], (g->nsids - i) * sizeof *g->sids);
    my_sid *s = &g->sids[i];
    memset(s, 0, sizeof *s);
    memcpy(s->uuid, uuid, 16);
    memcpy(s->tag, tag, tn);
    g->nsids++;
    return s;
}

/* Adds [start, end) to the sorted disjoint list, merging what touches it. */
static bool interval_add(my_sid *s, uint64_t start, uint64_t end)
{
    if (s->niv && s->iv[s->niv - 1].end == start) { /* the common case: the next transaction */
        s->iv[s->niv - 1].end = end;
        return true;
    }
    size_t i = 0;
    while (i < s->niv && s->iv[i].end < start) i++;
    if (i < s->niv && s->iv[i].start <= end) { /* overlaps or touches iv[i]: widen, absorb the next */
        if (start < s->iv[i].start) s->iv[i].start = start;
        if (end > s->iv[i].end) s->iv[i].end = end;
        size_t j = i + 1;
        while (j < s->niv && s->iv[j].start <= s->iv[i].end) {
            if (s->iv[j].end > s->iv[i].end) s->iv[i].end = s->iv[j].end;
            j++;
        }
        memmove(&s->iv[i + 1], &s->iv[j], (s->niv - j) * sizeof *s->iv);
        s->niv -= j - i - 1;
        return true;
    }
    if (!grow((void **)&s->iv, &s->capiv, s->niv + 1, sizeof *s->iv)) return false;
    memmove(&s->iv[i + 1], &s->iv[i], (s->niv - i) * sizeof *s->iv);
    s->iv[i] = (my_interval){start, end};
    s->niv++;
    return true;
}

static rc_status tag_check(rc_str tag, rc_error *err)
{
    bool ok = tag.n <= TAG_MAX && (!tag.n || isalpha((unsigned char)tag.p[0]) || tag.p[0] == '_');
    for (size_t i = 0; ok && i < tag.n; i++) ok = isalnum((unsigned char)tag.p[i]) || tag.p[i] == '_';
    if (!ok)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "GTID tag '%.*s' is not a tag (up to 32 letters, digits and _, not "
                            "starting with a digit)", (int)(tag.n > 40 ? 40 : tag.n), tag.p);
    return RC_OK;
}

static rc_status add_range(rc_my_gtid_set *g, const uint8_t uuid[16], rc_str tag, uint64_t start, uint64_t end, rc_error *err)
{
    if (flavour(g, false, err) != RC_OK || tag_check(tag, err) != RC_OK) return err ? err->code : RC_ERR_VALUE;
    char low[TAG_MAX + 1];
    for (size_t i = 0; i < tag.n; i++) low[i] = (char)tolower((unsigned char)tag.p[i]); /* tags are case-insensitive: stored lower */
    my_sid *s = sid_get(g, uuid, low, tag.n);
    if (!s || !interval_add(s, start, end)) return nomem(err);
    return RC_OK;
}

rc_status rc_my_gtid_set_add_mysql(rc_my_gtid_set *g, const uint8_t uuid[16], rc_str tag, uint64_t gno, rc_error *err)
{
    if (gno == 0 || gno == UINT64_MAX)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "GTID number %llu is out of range (1 to 2^63-1)", (unsigned long long)gno);
    return add_range(g, uuid, tag, gno, gno + 1, err);
}

rc_status rc_my_gtid_set_add_mysql_range(rc_my_gtid_set *g, const uint8_t uuid[16], rc_str tag, uint64_t start, uint64_t end,
                                         rc_error *err)
{
    if (start == 0 || end <= start)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "GTID interval [%llu, %llu) is empty or starts at 0",
                            (unsigned long long)start, (unsigned long long)end);
    return add_range(g, uuid, tag, start, end, err);
}

static void put_uuid(rc_buf *out, const uint8_t u[16])
{
    static const char hex[] = "0123456789abcdef";
    char t[36];
    size_t k = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) t[k++] = '-';
        t[k++] = hex[u[i] >> 4], t[k++] = hex[u[i] & 15];
    }
    rc_buf_put(out, t, sizeof t);
}

void rc_my_gtid_uuid_format(const uint8_t uuid[16], rc_buf *out) { put_uuid(out, uuid); }

void rc_my_gtid_set_format(const rc_my_gtid_set *g, rc_buf *out)
{
    for (size_t i = 0; i < g->nmdb; i++) {
        if (i) rc_buf_putc(out, ',');
        rc_fmt_u64(out, g->mdb[i].domain);
        rc_buf_putc(out, '-');
        rc_fmt_u64(out, g->mdb[i].server);
        rc_buf_putc(out, '-');
        rc_fmt_u64(out, g->mdb[i].seq);
    }
    for (size_t i = 0; i < g->nsids; i++) {
        const my_sid *s = &g->sids[i];
        bool same = i && !memcmp(g->sids[i - 1].uuid, s->uuid, 16);
        if (!same) {
            if (i) rc_buf_putc(out, ',');
            put_uuid(out, s->uuid);
        }
        if (s->tag[0]) {
            rc_buf_putc(out, ':');
            rc_buf_puts(out, s->tag);
        }
        for (size_t k = 0; k < s->niv; k++) {
            rc_buf_putc(out, ':');
            rc_fmt_u64(out, s->iv[k].start);
            if (s->iv[k].end - s->iv[k].start > 1) {
                rc_buf_putc(out, '-');
                rc_fmt_u64(out, s->iv[k].end - 1);
            }
        }
    }
}

/* --- parsing --- */

typedef struct gscan {
    const char *s;
    size_t n, i;
} gscan;

static void skip_ws(gscan *c)
{
    while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\n' || c->s[c->i] == '\t' || c->s[c->i] == '\r')) c->i++;
}

static bool read_u64(gscan *c, uint64_t *v)
{
    size_t st = c->i;
    uint64_t x = 0;
    while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9') {
        unsigned d = (unsigned)(c->s[c->i] - '0');
        if (x > (UINT64_MAX - d) / 10) return false;
        x = x * 10 + d;
        c->i++;
    }
    *v = x;
    return c->i > st;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch = (char)tolower((unsigned char)ch);
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* A UUID of 32 hex digits, with or without the four dashes. */
static bool read_uuid(gscan *c, uint8_t u[16])
{
    int k = 0;
    while (k < 32 && c->i < c->n) {
        if (c->s[c->i] == '-' && (k == 8 || k == 12 || k == 16 || k == 20)) {
            c->i++;
            continue;
        }
        int h = hexval(c->s[c->i]);
        if (h < 0) return false;
        if (k % 2 == 0) u[k / 2] = (uint8_t)(h << 4);
        else u[k / 2] |= (uint8_t)h;
        k++, c->i++;
    }
    return k == 32;
}

static rc_status parse_error(const gscan *c, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_VALUE, c->i, "GTID set '%.*s': %s at byte %zu", (int)(c->n > 120 ? 120 : c->n), c->s, what,
                        c->i + 1);
}

static rc_status parse_mariadb(rc_my_gtid_set *g, gscan *c, rc_error *err)
{
    for (;;) {
        skip_ws(c);
        uint64_t d, s, q;
        if (!read_u64(c, &d) || d > UINT32_MAX || c->i >= c->n || c->s[c->i++] != '-' || !read_u64(c, &s) || s > UINT32_MAX ||
            c->i >= c->n || c->s[c->i++] != '-' || !read_u64(c, &q))
            return parse_error(c, "expected DOMAIN-SERVER-SEQUENCE", err);
        for (size_t i = 0; i < g->nmdb; i++)
            if (g->mdb[i].domain == d) return parse_error(c, "a domain given twice", err);
        if (rc_my_gtid_set_add_mariadb(g, (uint32_t)d, (uint32_t)s, q, err) != RC_OK) return err ? err->code : RC_ERR_VALUE;
        skip_ws(c);
        if (c->i == c->n) return RC_OK;
        if (c->s[c->i++] != ',') return parse_error(c, "expected ','", err);
    }
}

static rc_status parse_mysql(rc_my_gtid_set *g, gscan *c, rc_error *err)
{
    for (;;) {
        skip_ws(c);
        uint8_t u[16];
        if (!read_uuid(c, u)) return parse_error(c, "expected a UUID", err);
        rc_str tag = {"", 0};
        bool any = false;
        while (c->i < c->n && c->s[c->i] == ':') {
            c->i++;
            skip_ws(c);
            if (c->i < c->n && (isalpha((unsigned char)c->s[c->i]) || c->s[c->i] == '_')) {
                size_t st = c->i;
                while (c->i < c->n && (isalnum((unsigned char)c->s[c->i]) || c->s[c->i] == '_')) c->i++;
                tag = (rc_str){c->s + st, c->i - st};
                if (tag_check(tag, NULL) != RC_OK) return parse_error(c, "a tag longer than 32 characters", err);
                continue;
            }
            uint64_t a, b;
            if (!read_u64(c, &a) || a == 0) return parse_error(c, "expected a GTID number (1 or more)", err);
            b = a;
            if (c->i < c->n && c->s[c->i] == '-') {
                c->i++;
                if (!read_u64(c, &b) || b < a) return parse_error(c, "expected the interval's last number, not below its first", err);
            }
            if (b >= INT64_MAX) return parse_error(c, "a GTID number beyond 2^63-2", err);
            if (add_range(g, u, tag, a, b + 1, err) != RC_OK) return err ? err->code : RC_ERR_VALUE;
            any = true;
            skip_ws(c);
        }
        (void)any; /* a UUID alone adds nothing, as the server reads it */
        skip_ws(c);
        if (c->i == c->n) return RC_OK;
        if (c->s[c->i++] != ',') return parse_error(c, "expected ':' or ','", err);
    }
}

rc_status rc_my_gtid_set_parse(rc_my_gtid_set *g, const char *s, size_t n, rc_error *err)
{
    gtid_clear(g);
    gscan c = {s, n, 0};
    skip_ws(&c);
    if (c.i == n) return RC_OK;
    /* MariaDB's entries are three short numbers; MySQL's start with a 32-digit UUID and a ':' */
    size_t k = c.i;
    while (k < n && s[k] != ',' && s[k] != ':') k++;
    bool mariadb = (k == n || s[k] == ',') && k - c.i < 32;
    rc_status st = mariadb ? parse_mariadb(g, &c, err) : parse_mysql(g, &c, err);
    if (st != RC_OK) gtid_clear(g);
    return st;
}
