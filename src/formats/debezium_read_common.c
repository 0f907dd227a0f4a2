/* The Debezium reader's helpers that debezium_read.c and debezium_read_columns.c both call: a
 * JSON string copied to the arena, a JSON integer. Here so that neither file references the
 * other's helpers (debezium_read.c uses debezium_read_columns.c, which uses this file). */
#include "formats/debezium_read_int.h"
#include "core/fmt.h"

rc_str rc_dbz_read_copy_str(const ctx *c, uint32_t i)
{
    if (!i || rc_jread_node(&c->r, i)->type != RC_J_STRING) return (rc_str){0};
    return (rc_str){rc_arena_memdup(c->r.a, rc_jread_node(&c->r, i)->s, rc_jread_node(&c->r, i)->n), rc_jread_node(&c->r, i)->n};
}

bool rc_dbz_read_num(const ctx *c, uint32_t i, int64_t *out)
{
    return i && rc_jread_node(&c->r, i)->type == RC_J_NUMBER && rc_parse_i64(rc_jread_node(&c->r, i)->s, rc_jread_node(&c->r, i)->n, out) == RC_OK;
}
