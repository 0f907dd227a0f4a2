/* Per-kind position rules (see rowcast/position.h): compare, checkpoint text. */
#include <string.h>
#include "core/fmt.h"
#include "rowcast/position.h"

typedef struct pos_kind {
    const char *const *fields; /* checkpoint keys, each a u64 at 8 * its index in the bytes */
    unsigned nfields;
} pos_kind;

static const char *const lines_fields[] = {"offset", "line"};
static const char *const lsn_fields[] = {"lsn", "snapshot-rows"};
static const char *const mysql_fields[] = {"binlog-file-number", "binlog-offset", "snapshot-rows"};
static const char *const seq_fields[] = {"messages", "unused"};

static const pos_kind kinds[RC_POS_KIND_COUNT] = {
    [RC_POS_LINES] = {lines_fields, 2},
    [RC_POS_PG_LSN] = {lsn_fields, 2},
    [RC_POS_MYSQL] = {mysql_fields, 3},
    [RC_POS_SEQ] = {seq_fields, 2},
};

static uint64_t field(const rc_pos *p, unsigned i)
{
    uint64_t v;
    memcpy(&v, p->bytes + 8 * i, 8);
    return v;
}

int rc_pos_compare(const rc_pos *a, const rc_pos *b)
{
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->kind == RC_POS_NONE || a->kind >= RC_POS_KIND_COUNT) return 0;
    /* the fields in order (a byte offset, then the line; an LSN, then the snapshot row) */
    for (unsigned i = 0; i < kinds[a->kind].nfields; i++) {
        uint64_t x = field(a, i), y = field(b, i);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

bool rc_pos_equal(const rc_pos *a, const rc_pos *b)
{
    return a->kind == b->kind && a->len == b->len && !memcmp(a->bytes, b->bytes, a->len);
}

void rc_pos_format(const rc_pos *p, rc_buf *out)
{
    if (p->kind >= RC_POS_KIND_COUNT) return;
    const pos_kind *k = &kinds[p->kind];
    for (unsigned i = 0; i < k->nfields; i++) {
        rc_buf_puts(out, k->fields[i]);
        rc_buf_putc(out, ' ');
        rc_fmt_u64(out, field(p, i));
        rc_buf_putc(out, '\n');
    }
}

int rc_pos_parse_field(rc_pos *p, rc_pos_kind kind, const char *key, size_t kl, const char *v, size_t vl)
{
    if (kind >= RC_POS_KIND_COUNT) return -1;
    const pos_kind *k = &kinds[kind];
    for (unsigned i = 0; i < k->nfields; i++) {
        if (kl != strlen(k->fields[i]) || memcmp(key, k->fields[i], kl)) continue;
        uint64_t x;
        if (rc_parse_u64(v, vl, &x) != RC_OK) return -2;
        p->kind = (uint8_t)kind, p->len = (uint8_t)(8 * k->nfields);
        memcpy(p->bytes + 8 * i, &x, 8);
        return (int)i;
    }
    return -1;
}

unsigned rc_pos_fields(rc_pos_kind kind) { return kind < RC_POS_KIND_COUNT ? kinds[kind].nfields : 0; }
