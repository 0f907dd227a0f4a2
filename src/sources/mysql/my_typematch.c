/* The TABLE_MAP cross-check: which binlog column types a declared type can arrive as. The
 * declared type's MySQL code (the catalog's mysql_code) is the binlog type of the modern
 * encoding; the others are the older encodings of the same type (TIME / TIME2, ...) and the
 * types the servers write for it (every BLOB/TEXT kind is BLOB in a TABLE_MAP, MariaDB's JSON
 * is LONGTEXT, its INET6 / INET4 / UUID are fixed-length binary strings). */
#include <string.h>
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_types.h"

static bool blob_kind(uint8_t t) { return t >= RC_MY_TINY_BLOB && t <= RC_MY_BLOB; }

bool rc_my_type_matches(const rc_coltype *decl, uint8_t b)
{
    if (!decl || !decl->info || decl->info->family != RC_FAM_MYSQL) return false;
    const char *name = decl->info->name;
    int code = decl->info->mysql_code;
    if (!strcmp(name, "json")) return b == RC_MY_JSON || blob_kind(b);
    if (!strcmp(name, "vector")) return b == RC_MY_VECTOR || b == RC_MY_VARCHAR || b == RC_MY_BLOB;
    if (!strcmp(name, "real") || !strcmp(name, "real unsigned")) return b == RC_MY_DOUBLE || b == RC_MY_FLOAT; /* REAL_AS_FLOAT */
    switch (code) {
    case RC_MY_TIME: return b == RC_MY_TIME || b == RC_MY_TIME2;
    case RC_MY_DATETIME: return b == RC_MY_DATETIME || b == RC_MY_DATETIME2;
    case RC_MY_TIMESTAMP: return b == RC_MY_TIMESTAMP || b == RC_MY_TIMESTAMP2;
    case RC_MY_DATE: return b == RC_MY_DATE || b == RC_MY_NEWDATE;
    case RC_MY_NEWDECIMAL: return b == RC_MY_NEWDECIMAL || b == RC_MY_DECIMAL;
    case RC_MY_VARCHAR: return b == RC_MY_VARCHAR || b == RC_MY_VAR_STRING;
    case RC_MY_STRING: return b == RC_MY_STRING || b == RC_MY_VAR_STRING;
    case RC_MY_TINY_BLOB:
    case RC_MY_MEDIUM_BLOB:
    case RC_MY_LONG_BLOB:
    case RC_MY_BLOB: return blob_kind(b);
    default: return code == b;
    }
}
