/* DataWorks "aliyun" layout: what its writer (dataworks_aliyun.c) and reader
 * (dataworks_aliyun_read.c) both use, the DataWorks type of a column and the dbType names of
 * the source kinds, so that each side depends on this file and not on the other. */
#include <string.h>
#include <strings.h>
#include "formats/dataworks_aliyun.h"

const char *rc_dwa_type(const rc_coltype *t)
{
    switch (t->info->vkind) {
    case RC_V_BOOL: return "BOOLEAN";
    case RC_V_INT:
    case RC_V_UINT:
    case RC_V_BITS: return "LONG";
    case RC_V_DECIMAL:
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: return "DOUBLE";
    case RC_V_BYTES: return "BYTES";
    case RC_V_DATE:
    case RC_V_DATETIME:
    case RC_V_TIMESTAMP: return "DATE";
    default: return "STRING"; /* text, TIME, JSON, ENUM, SET, geometry, intervals */
    }
}

/* schema.source.dbType as the real messages spell it ("MySQL"); the reader maps it back */
static const struct {
    const char *name;
    rc_dbkind kind;
} dbtypes[] = {{"MySQL", RC_DB_MYSQL},           {"MySQL", RC_DB_MARIADB},    {"PostgreSQL", RC_DB_POSTGRES},
               {"Oracle", RC_DB_ORACLE},         {"SQLServer", RC_DB_SQLSERVER}, {"OceanBase", RC_DB_OB_MYSQL},
               {"OceanBase_Oracle", RC_DB_OB_ORACLE}};

const char *rc_dwa_dbtype(rc_dbkind k)
{
    for (size_t i = 0; i < sizeof dbtypes / sizeof *dbtypes; i++)
        if (dbtypes[i].kind == k) return dbtypes[i].name;
    return "Unknown";
}

bool rc_dwa_dbkind(rc_str s, rc_dbkind *out)
{
    for (size_t i = 0; i < sizeof dbtypes / sizeof *dbtypes; i++)
        if (strlen(dbtypes[i].name) == s.n && !strncasecmp(dbtypes[i].name, s.p, s.n)) {
            *out = dbtypes[i].kind;
            return true;
        }
    return false;
}
