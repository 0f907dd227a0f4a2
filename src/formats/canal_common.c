/* The options of the Canal-shaped formats: canal (canal.c writes it) and Huawei DRS json and
 * json-c (drs.c writes them), all read by canal_read.c; each side parses them here, so that the
 * writers depend on this file and on the reader, the reader only on this file. */
#include "formats/canal_read.h"

#define OFF(f) offsetof(rc_canal_opts, f)
const rc_option_desc rc_canal_options[] = {
    {"canal.flavor", RC_OPT_CHOICE, "oms|canal|ticdc", "canal", "canal: as Canal itself writes it (all strings, alphabetical keys, id); oms: as OceanBase OMS writes it (what --to oms-canal is); ticdc: TiCDC's canal-json (its key order, id 0, old the whole previous row)", .off = OFF(flavor)},
    {"canal.values", RC_OPT_CHOICE, "typed|string", "(by canal.flavor: typed for oms, string for canal and ticdc)", "override the flavour's value style: JSON numbers (OMS) or every value a string (Canal)", .off = OFF(values)},
    {"canal.timezone", RC_OPT_TZ, NULL, "UTC", "zone of TIMESTAMP values written as YYYY-MM-DD HH:mm:ss", .off = OFF(tz)},
    {"canal.group", RC_OPT_BOOL, NULL, "false", "put the rows of one statement (consecutive events at one source position) in one message", .off = OFF(group)},
    {"canal.init", RC_OPT_BOOL, NULL, "false", "write snapshot reads as type INIT (as DTS does) instead of INSERT", .off = OFF(init)},
    {0},
};
#undef OFF

#define OFF(f) offsetof(rc_drs_opts, f)
const rc_option_desc rc_drs_json_options[] = {
    {"drs-json.dbtype", RC_OPT_STRING, "NAME", "(the source's: PostgreSQL, Oracle, Microsoft SQL Server)", "dbType written for non-MySQL sources, e.g. \"GaussDB Primary/Standby\"", .off = OFF(dbtype)},
    {0},
};
const rc_option_desc rc_drs_jsonc_options[] = {
    {"drs-json-c.dbtype", RC_OPT_STRING, "NAME", "(the source's: PostgreSQL, Oracle, Microsoft SQL Server)", "as drs-json.dbtype", .off = OFF(dbtype)},
    {"drs-json-c.timezone", RC_OPT_TZ, NULL, "UTC", "zone of TIMESTAMP values written as yyyy-mm-dd hh:mm:ss", .off = OFF(tz)},
    {0},
};
#undef OFF
