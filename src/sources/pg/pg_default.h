/* PostgreSQL column defaults as the events carry them (rc_event.dflts). */
#ifndef ROWCAST_SOURCES_PG_DEFAULT_H
#define ROWCAST_SOURCES_PG_DEFAULT_H

/* The default expression `expr` (pg_get_expr of pg_attrdef.adbin; NULL: none) of a column of
 * type `typname` (pg_type.typname) as the text of the value Debezium's PostgreSQL connector
 * reports: a literal's value ('abc'::text is abc, 42 is 42), for a call (nextval(), now()) or
 * CURRENT_TIMESTAMP the connector's placeholder of the type (0, false, '', the epoch), for
 * NULL::type or a type the connector parses no default of, none (NULL). malloc'd: free it. */
char *rc_pg_default_text(const char *expr, const char *typname);

#endif
