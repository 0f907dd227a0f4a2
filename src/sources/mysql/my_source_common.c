/* The MySQL/MariaDB source's helpers its parts share (my_source_int.h): the boundary handed
 * out, and the items of the batch being filled. Apart from my_source.c, so that it and its
 * parts (my_source_snapshot.c, my_source_checkpoint.c, my_source_stream.c) use these and not
 * each other. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_source_int.h"

rc_status rc_my_source_nomem(rc_error *err)
{
    return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* mysql-bin.000042: 42 (the position's file number; names without digits: 0). */
static uint64_t file_no(const char *file)
{
    const char *dot = file ? strrchr(file, '.') : NULL;
    return dot ? strtoull(dot + 1, NULL, 10) : 0;
}

int rc_my_binlog_compare(const char *fa, uint64_t oa, const char *fb, uint64_t ob)
{
    uint64_t na = file_no(fa), nb = file_no(fb);
    if (na != nb) return na < nb ? -1 : 1;
    return oa < ob ? -1 : oa > ob;
}

rc_status rc_my_source_set_text(char **dst, const char *src, rc_error *err)
{
    char *c = strdup(src ? src : "");
    if (!c) return rc_my_source_nomem(err);
    free(*dst);
    *dst = c;
    return RC_OK;
}

/* The boundary handed out becomes file:offset with the GTID set `gtids`. */
rc_status rc_my_source_hand(my_source *s, const char *file, uint64_t offset, const char *gtids, rc_error *err)
{
    if (file != s->file && rc_my_source_set_text(&s->file, file, err) != RC_OK) return err->code;
    if (gtids != s->gtids && rc_my_source_set_text(&s->gtids, gtids, err) != RC_OK) return err->code;
    s->offset = offset;
    s->handed = rc_pos_mysql(file_no(s->file), offset, 0);
    return RC_OK;
}

/* ---- items ---- */

rc_source_item *rc_my_source_item_new(my_source *s) { return rc_db_item_new(&s->db, s->url.shown); }

void rc_my_source_item_end(my_source *s, rc_source_item *it)
{
    rc_db_item_end(&s->db, it, s->db.ph == PH_SNAPSHOT ? rc_pos_mysql(0, 0, s->db.snap_rows) : s->handed);
}

/* A bad item: its events dropped, the error kept, and a line for the dead-letter file (the
 * event as hex after its place). */
void rc_my_source_item_bad(my_source *s, rc_source_item *it, const rc_error *err, const uint8_t *msg, size_t len)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    size_t need = 320 + 2 * len + 2;
    if (!rc_db_item_bad(b, it, err, need)) return;
    b->len += (size_t)snprintf(b->text + b->len, need, "binlog event after %s:%" PRIu64 ":", s->file ? s->file : "",
                               s->offset);
    rc_db_item_hex(b, msg, len);
    rc_db_item_line_end(b, it);
}
