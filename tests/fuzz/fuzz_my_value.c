/* libFuzzer target: MySQL/MariaDB row-image values (src/sources/mysql/my_value*.c,
 * my_charset.c, my_json*.c). The first byte picks a column description (binlog type, metadata,
 * declared type), the second its signedness and collation, the rest is the row image. No input
 * may crash; an error has a message and names a byte inside the input; an accepted value uses
 * no more bytes than it was given, has a kind its declared type allows (or invalid), holds
 * valid UTF-8 where it is text, and the native writer writes it. The same bytes go to the
 * binary JSON reader and, split at the second byte's value, to the JSON diff applier. The column
 * prepared as the event decoder prepares it (rc_my_col_prepare: readers of a column's own)
 * decodes the same: the same status and message, or the same value and size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "core/jsonw.h"
#include "sources/mysql/my_value.h"

static const struct {
    uint8_t type;
    uint16_t meta;
    const char *decl; /* NULL: none */
} cols[] = {
    {RC_MY_TINY, 0, "tinyint"},          {RC_MY_TINY, 0, "bool"},           {RC_MY_SHORT, 0, "smallint"},
    {RC_MY_INT24, 0, "mediumint"},       {RC_MY_LONG, 0, "int"},            {RC_MY_LONGLONG, 0, "bigint unsigned"},
    {RC_MY_LONGLONG, 0, "bigint"},       {RC_MY_FLOAT, 4, "float"},         {RC_MY_DOUBLE, 8, "double"},
    {RC_MY_NEWDECIMAL, 65 << 8 | 30, "decimal(65,30)"}, {RC_MY_NEWDECIMAL, 10 << 8 | 2, "decimal(10,2)"},
    {RC_MY_NEWDECIMAL, 90 << 8 | 2, NULL}, {RC_MY_BIT, 1, "bit(1)"},       {RC_MY_BIT, 8 << 8, "bit(64)"},
    {RC_MY_BIT, 1 << 8 | 4, "bit(12)"},  {RC_MY_YEAR, 0, "year"},           {RC_MY_DATE, 0, "date"},
    {RC_MY_TIME, 0, "time"},             {RC_MY_TIME2, 0, "time"},          {RC_MY_TIME2, 3, "time(3)"},
    {RC_MY_TIME2, 6, "time(6)"},         {RC_MY_TIME2, 9, NULL},            {RC_MY_DATETIME, 0, "datetime"},
    {RC_MY_DATETIME2, 0, "datetime"},    {RC_MY_DATETIME2, 2, "datetime(2)"}, {RC_MY_DATETIME2, 6, "datetime(6)"},
    {RC_MY_TIMESTAMP, 0, "timestamp"},   {RC_MY_TIMESTAMP2, 0, "timestamp"}, {RC_MY_TIMESTAMP2, 5, "timestamp(5)"},
    {RC_MY_VARCHAR, 20, "varchar(20)"},  {RC_MY_VARCHAR, 300, "varchar(300)"}, {RC_MY_VARCHAR, 40, "varbinary(40)"},
    {RC_MY_STRING, 0xfe << 8 | 16, "char(16)"}, {RC_MY_STRING, 0xce << 8 | 0xfc, "char(255)"},
    {RC_MY_STRING, 0xfe << 8 | 4, "binary(4)"}, {RC_MY_STRING, 0xfe << 8 | 16, "binary(16)"},
    {RC_MY_STRING, RC_MY_ENUM << 8 | 1, "enum('a','b','c')"}, {RC_MY_ENUM, RC_MY_ENUM << 8 | 2, "enum('x','y')"},
    {RC_MY_ENUM, RC_MY_ENUM << 8 | 1, NULL}, {RC_MY_SET, RC_MY_SET << 8 | 1, "set('a','b','c')"},
    {RC_MY_SET, RC_MY_SET << 8 | 8, NULL}, {RC_MY_BLOB, 1, "tinyblob"},    {RC_MY_BLOB, 2, "text"},
    {RC_MY_BLOB, 4, "longtext"},         {RC_MY_BLOB, 4, "json"},           {RC_MY_BLOB, 3, NULL},
    {RC_MY_JSON, 4, "json"},             {RC_MY_JSON, 2, "json"},           {RC_MY_GEOMETRY, 4, "geometry"},
    {RC_MY_VECTOR, 4, NULL},             {RC_MY_TYPED_ARRAY, 0, NULL},     {RC_MY_NULL, 0, NULL},
};
/* collations tried: none, binary, utf8mb4, latin1, ascii, ucs2, utf16, utf16le, utf32, gbk,
 * an unknown id, MariaDB's uca1400; through iconv: big5, sjis (corrected code points), tis620
 * and armscii8 (corrected bytes), gb18030 (4-byte sequences), cp1251; keybcs2 (refused) */
static const uint16_t collations[] = {0, 63, 45, 8, 11, 35, 54, 56, 60, 28, 4000, 2304, 255, 1069, 33, 83, 1, 13, 18, 32, 248, 51, 37};

/* the catalog has no inet6/uuid yet: the reader matches the declared type's name */
static const rc_type_info inet6_info = {.name = "inet6", .family = RC_FAM_MYSQL, .vkind = RC_V_TEXT};
static const rc_type_info uuid_info = {.name = "uuid", .family = RC_FAM_MYSQL, .vkind = RC_V_TEXT};

static bool texty(rc_vkind k)
{
    return k == RC_V_TEXT || k == RC_V_JSON || k == RC_V_ENUM || k == RC_V_SET || k == RC_V_GEOMETRY || k == RC_V_INVALID;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rc_arena a;
    static rc_buf out;
    static bool ready;
    if (!ready) rc_arena_init(&a), rc_buf_init(&out, 0), ready = true;
    if (size < 2) return 0;
    rc_arena_reset(&a);
    unsigned pick = data[0] % (sizeof cols / sizeof cols[0]);
    const uint8_t *p = data + 2;
    size_t n = size - 2;
    rc_error err;
    rc_error_clear(&err);
    rc_coltype t = {0};
    rc_my_col c = {.type = cols[pick].type, .meta = cols[pick].meta, .name = RC_STR("c"), .is_unsigned = data[1] & 1,
                   .collation = collations[(data[1] >> 1) % (sizeof collations / sizeof collations[0])]};
    if (data[1] & 0x20 && cols[pick].decl && !strcmp(cols[pick].decl, "binary(16)")) {
        t.info = data[1] & 0x40 ? &inet6_info : &uuid_info;
        c.decl = &t;
    } else if (data[1] & 0x20 && cols[pick].decl) {
        if (rc_coltype_parse(RC_FAM_MYSQL, cols[pick].decl, strlen(cols[pick].decl), &t, &err) != RC_OK) abort();
        c.decl = &t;
    }
    if (c.type == RC_MY_VECTOR && data[1] & 0x40) c.vector_dim = data[1] >> 4;
    size_t used = (size_t)-1, pused = (size_t)-1;
    rc_value v, pv;
    rc_my_col pc = c;
    rc_my_col_prepare(&pc);
    rc_error perr;
    rc_error_clear(&perr);
    rc_status pst = rc_my_value_decode(&pc, p, n, &pused, &pv, &a, &perr);
    rc_status st = rc_my_value_decode(&c, p, n, &used, &v, &a, &err);
    if (st != pst || strcmp(err.message, perr.message) || (st == RC_OK && (used != pused || !rc_value_equal(&v, &pv)))) abort();
    if (st != RC_OK) {
        if (err.code == RC_OK || !err.message[0] || err.offset > n) abort();
    } else {
        if (used > n) abort();
        if (c.decl && c.decl->info && v.kind != c.decl->info->vkind && v.kind != RC_V_INVALID) {
            /* the kinds a declaration allows besides its own: ENUM/SET without labels never
             * happen with one; a TEXT declaration of a json column is JSON */
            abort();
        }
        if (texty(v.kind) && rc_utf8_valid_prefix(v.s.p, v.s.n) != v.s.n) abort();
        if (c.decl && c.decl->info && c.decl->info->family == RC_FAM_MYSQL && c.decl->info != &inet6_info && c.decl->info != &uuid_info) {
            rc_column col = {.name = RC_STR("c"), .type = *c.decl};
            rc_event ev = {.op = RC_OP_INSERT, .src = {.kind = RC_DB_MYSQL, .db = RC_STR("d"), .table = RC_STR("t")}, .ncols = 1,
                           .cols = &col, .after = &v};
            rc_buf_reset(&out);
            rc_error_clear(&err);
            if (rc_native_encode(NULL, &ev, &out, &err) != RC_OK) abort();
        }
    }
    /* the JSON readers on the same bytes */
    rc_buf_reset(&out);
    rc_error_clear(&err);
    if (rc_my_json_text(p, n, &out, &err) != RC_OK) {
        if (!err.message[0] || err.offset > n) abort();
    } else if (rc_utf8_valid_prefix(out.data ? out.data : "", out.len) != out.len) {
        abort();
    }
    size_t k = data[1] < n ? data[1] : n;
    rc_buf_reset(&out);
    rc_error_clear(&err);
    used = (size_t)-1;
    if (rc_my_json_diff_apply(p, k, p + k, n - k, &used, &out, &err) != RC_OK) {
        if (!err.message[0]) abort();
    } else if (used > n - k) {
        abort();
    }
    return 0;
}
