/* The standard benchmark workload (see workload.h). Values stay inside what a plain JSON
 * library can print identically (integers within int64, doubles with short exact binary
 * fractions), so that peers can produce the same bytes. `created` (datetime(6)) holds whole
 * milliseconds: OMS's Debezium writes a DATETIME in milliseconds and refuses a finer value
 * rather than cut it, so finer values would leave that target nothing to encode. */
#include <stdio.h>
#include <string.h>
#include "core/fmt.h"
#include "workload.h"

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static unsigned below(rng *r, unsigned n) { return (unsigned)(next(r) % n); }

static const char *const decls[WORKLOAD_COLS] = {
    "bigint", "int unsigned", "varchar(32)", "smallint", "decimal(12,2)", "double",
    "enum('new','paid','shipped','cancelled')", "varchar(200) character set utf8mb4", "datetime(6)", "timestamp(6)",
    "date", "blob",
};
static const char *const names[WORKLOAD_COLS] = {"id", "customer_id", "sku", "qty", "price", "discount",
                                                 "status", "note", "created", "updated", "ship_date", "payload"};

static rc_str dup(rc_arena *a, const char *s, size_t n) { return (rc_str){rc_arena_memdup(a, s, n), n}; }

static void value(rng *r, rc_arena *a, const rc_column *cols, unsigned c, uint64_t id, rc_value *v)
{
    static const char *const status[] = {"new", "paid", "shipped", "cancelled"};
    static const char *const words[] = {"please", "ring", "twice", "Müller", "straße", "🚚", "\"fragile\"", "gate\t2",
                                        "back door", "日本", "call\nfirst", "ok"};
    char buf[256];
    memset(v, 0, sizeof *v);
    if (cols[c].nullable && below(r, 10) == 0) return;
    v->kind = (rc_vkind)cols[c].type.info->vkind;
    switch (c) {
    case 0: v->i = (int64_t)id; break;
    case 1: v->i = (int64_t)below(r, 4000000000u); break;
    case 2: {
        int n = snprintf(buf, sizeof buf, "SKU-%06u-%c%c", below(r, 1000000), 'A' + below(r, 26), 'A' + below(r, 26));
        v->s = dup(a, buf, (size_t)n);
        break;
    }
    case 3: v->i = 1 + below(r, 50); break;
    case 4: {
        int n = snprintf(buf, sizeof buf, "%u.%02u", below(r, 100000), below(r, 100));
        rc_dec_parse(buf, (size_t)n, a, &v->dec);
        break;
    }
    case 5: v->f64 = below(r, 400) / 8.0; break;
    case 6: {
        const char *s = status[below(r, 4)];
        v->s = dup(a, s, strlen(s));
        break;
    }
    case 7: {
        size_t n = 0;
        unsigned k = 1 + below(r, 8);
        for (unsigned i = 0; i < k; i++) {
            const char *w = words[below(r, 12)];
            size_t wl = strlen(w);
            if (n) buf[n++] = ' ';
            memcpy(buf + n, w, wl);
            n += wl;
        }
        v->s = dup(a, buf, n);
        break;
    }
    case 8:
        v->dt = (rc_datetime){2020 + (int32_t)below(r, 6), (uint8_t)(1 + below(r, 12)), (uint8_t)(1 + below(r, 28)),
                              (uint8_t)below(r, 24), (uint8_t)below(r, 60), (uint8_t)below(r, 60), below(r, 1000) * 1000000u, {0}};
        break;
    case 9: v->ts = (rc_timestamp){1577836800 + (int64_t)below(r, 189216000), below(r, 1000000) * 1000u}; break;
    case 10: v->date = (rc_date){2020 + (int32_t)below(r, 6), (uint8_t)(1 + below(r, 12)), (uint8_t)(1 + below(r, 28))}; break;
    case 11: {
        unsigned n = 16 + below(r, 48);
        for (unsigned i = 0; i < n; i++) buf[i] = (char)next(r);
        v->s = dup(a, buf, n);
        break;
    }
    }
}

void workload_make(uint64_t seed, size_t n, rc_arena *a, rc_event *events)
{
    rng r = {seed};
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * WORKLOAD_COLS);
    for (unsigned c = 0; c < WORKLOAD_COLS; c++) {
        memset(&cols[c], 0, sizeof cols[c]);
        rc_coltype_parse(RC_FAM_MYSQL, decls[c], strlen(decls[c]), &cols[c].type, NULL);
        cols[c].name = (rc_str){names[c], strlen(names[c])};
        cols[c].pk = c == 0;
        cols[c].nullable = c >= 7;
    }
    uint64_t next_id = 1;
    for (size_t i = 0; i < n; i++) {
        rc_event *ev = &events[i];
        memset(ev, 0, sizeof *ev);
        unsigned roll = below(&r, 10);
        ev->op = roll < 5 || next_id < 10 ? RC_OP_INSERT : roll < 9 ? RC_OP_UPDATE : RC_OP_DELETE;
        ev->src = (rc_origin){RC_DB_MYSQL, RC_STR("bench"), RC_STR("10.11.6-MariaDB"), {0}, RC_STR("shop"), {0}, RC_STR("orders")};
        ev->pos.file = RC_STR("mariadb-bin.000001");
        ev->pos.offset = 4 + i * 200;
        ev->pos.has_offset = true;
        ev->pos.seq = i + 1;
        ev->pos.has_seq = true;
        ev->ts_us = 1732960800000000 + (int64_t)i * 1000;
        ev->has_ts = true;
        ev->ncols = WORKLOAD_COLS;
        ev->cols = cols;
        ev->cols_id = cols; /* one column list for all, as a decoder's cache or a capture's table gives it */
        uint64_t id = ev->op == RC_OP_INSERT ? next_id++ : 1 + below(&r, (unsigned)(next_id - 1));
        rc_value *img = rc_arena_alloc(a, sizeof *img * WORKLOAD_COLS);
        for (unsigned c = 0; c < WORKLOAD_COLS; c++) value(&r, a, cols, c, id, &img[c]);
        if (ev->op == RC_OP_DELETE) {
            ev->before = img;
            continue;
        }
        ev->after = img;
        if (ev->op == RC_OP_UPDATE) {
            rc_value *before = rc_arena_alloc(a, sizeof *before * WORKLOAD_COLS);
            uint8_t *changed = rc_arena_alloc(a, WORKLOAD_COLS);
            memcpy(before, img, sizeof *before * WORKLOAD_COLS);
            memset(changed, 0, WORKLOAD_COLS);
            unsigned k = 1 + below(&r, 3);
            for (unsigned j = 0; j < k; j++) {
                unsigned c = 1 + below(&r, WORKLOAD_COLS - 1);
                value(&r, a, cols, c, id, &before[c]);
                changed[c] = 1;
            }
            ev->before = before;
            ev->changed = changed;
        }
    }
}
