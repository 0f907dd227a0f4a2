/* DDL classification: what kind of statement a DDL event carries, from its ddl_kind or, when
 * the source gave none, from the first words of the statement. Each format maps the class to
 * its own name (Canal "ERASE", OMS "DROP_TABLE", ...). */
#ifndef ROWCAST_DDL_H
#define ROWCAST_DDL_H

#include "rowcast/event.h"

typedef enum rc_ddl_class {
    RC_DDL_OTHER = 0, /* a statement we do not classify: Canal QUERY */
    RC_DDL_CREATE_TABLE,
    RC_DDL_ALTER_TABLE,
    RC_DDL_DROP_TABLE,
    RC_DDL_TRUNCATE,
    RC_DDL_RENAME_TABLE,
    RC_DDL_CREATE_INDEX,
    RC_DDL_DROP_INDEX,
    RC_DDL_CREATE_DATABASE,
    RC_DDL_DROP_DATABASE,
    RC_DDL_CLASS_COUNT
} rc_ddl_class;

rc_ddl_class rc_ddl_classify(const rc_event *ev);
/* The canonical kind name ("ALTER_TABLE", ...; "OTHER"), as the OMS default format writes it. */
const char *rc_ddl_class_name(rc_ddl_class c);

#endif
