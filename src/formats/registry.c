/* The format registry: the only list of formats, and the only list of the names --from and
 * --to take for them (docs/formats/README.md says the rule). Adding a format is one file, one
 * line in rc_formats and one in rc_format_names. */
#include <string.h>
#include <strings.h>
#include "formats/formats.h"
#include "core/names.h"

const rc_format *const rc_formats[] = {
    &rc_format_native,
    &rc_format_default,
    &rc_format_defaultextendcolumntype,
    &rc_format_canal,
    &rc_format_dataworks,
    &rc_format_shareplex,
    &rc_format_debezium,
    &rc_format_debeziumflatten,
    &rc_format_debeziumsmt,
    &rc_format_avro,
    &rc_format_avro_json,
    &rc_format_drs_json,
    &rc_format_drs_json_c,
    &rc_format_drs_dds,
    &rc_format_mongo_change_stream,
    &rc_format_cloudevents,
    &rc_format_maxwell,
    &rc_format_dataworks_aliyun,
    &rc_format_ogg_json,
    NULL,
};

#define OMS "OceanBase OMS"
/* Each output is named after the tool that writes it: the tool's own name for its own layout
 * (debezium, canal), the vendor's prefix and the tool's name for its serialization methods
 * (OMS's oms-*). A name that is a flavour of a format fixes that format's flavour option (the
 * format's own name takes its default, the tool's own layout). The names of before the rule
 * still work: used, each says once on stderr what it is now. In the order `rowcast formats`
 * lists them, by vendor. */
const rc_format_name rc_format_names[] = {
    {"debezium", &rc_format_debezium, .vendor = "Debezium"},
    {"canal", &rc_format_canal, .vendor = "Canal"},
    {"maxwell", &rc_format_maxwell, .vendor = "Maxwell"},
    {"ogg-json", &rc_format_ogg_json, .vendor = "Oracle GoldenGate"},
    {"cloudevents", &rc_format_cloudevents, .vendor = "CloudEvents"},
    {"oms-default", &rc_format_default, .vendor = OMS},
    {"oms-defaultextendcolumntype", &rc_format_defaultextendcolumntype, .vendor = OMS},
    {"oms-canal", &rc_format_canal, .fixed_key = "canal.flavor", .fixed_value = "oms", .vendor = OMS,
     .summary = "OMS's Canal serialization: Canal flat message JSON with typed values (canal with canal.flavor=oms)"},
    {"oms-dataworks", &rc_format_dataworks, .vendor = OMS},
    {"oms-shareplex", &rc_format_shareplex, .vendor = OMS},
    {"oms-debezium", &rc_format_debezium, .fixed_key = "debezium.flavor", .fixed_value = "oms", .vendor = OMS,
     .summary = "OMS's Debezium serialization: the Debezium envelope as OMS writes it (debezium with debezium.flavor=oms)"},
    {"oms-debeziumflatten", &rc_format_debeziumflatten, .vendor = OMS},
    {"oms-debeziumsmt", &rc_format_debeziumsmt, .vendor = OMS},
    {"oms-avro", &rc_format_avro, .vendor = OMS},
    {"oms-avro-json", &rc_format_avro_json, .vendor = OMS},
    {"drs-json", &rc_format_drs_json, .vendor = "Huawei DRS"},
    {"drs-json-c", &rc_format_drs_json_c, .vendor = "Huawei DRS"},
    {"drs-dds", &rc_format_drs_dds, .vendor = "Huawei DRS"},
    {"dataworks-aliyun", &rc_format_dataworks_aliyun, .vendor = "Alibaba DataWorks"},
    {"mongo-change-stream", &rc_format_mongo_change_stream, .vendor = "MongoDB"},
    {"native", &rc_format_native, .vendor = "rowcast"},
    {"mysql-binlog", NULL, .vendor = "MySQL and MariaDB",
     .summary = "binary log files, read event by event: an input of convert (--from mysql-binlog FILE...), not a message format"},
    /* the names before the rule */
    {"default", .now = "oms-default", .summary = "OceanBase OMS's default serialization"},
    {"defaultextendcolumntype", .now = "oms-defaultextendcolumntype", .summary = "OceanBase OMS's DefaultExtendColumnType serialization"},
    {"dataworks", .now = "oms-dataworks", .summary = "OceanBase OMS's DataWorks serialization"},
    {"shareplex", .now = "oms-shareplex", .summary = "OceanBase OMS's SharePlex serialization"},
    {"debeziumflatten", .now = "oms-debeziumflatten", .summary = "OceanBase OMS's DebeziumFlatten serialization"},
    {"debeziumsmt", .now = "oms-debeziumsmt", .summary = "OceanBase OMS's DebeziumSmt serialization"},
    {"avro", .now = "oms-avro", .summary = "OceanBase OMS's Avro serialization"},
    {"avro-json", .now = "oms-avro-json", .summary = "OceanBase OMS's Avro serialization as JSON"},
    {0},
};
#undef OMS

/* Without case: `--to Canal` is what people type after reading "Canal" in prose. */
static const rc_format_name *name_entry(const char *name)
{
    for (const rc_format_name *n = rc_format_names; n->name; n++)
        if (strcasecmp(n->name, name) == 0) return n;
    return NULL;
}

const rc_format_name *rc_format_lookup(const char *name, const rc_format_name **old)
{
    const rc_format_name *n = name_entry(name);
    if (old) *old = n && n->now ? n : NULL;
    return n && n->now ? name_entry(n->now) : n;
}

const rc_format *rc_format_find(const char *name)
{
    for (const rc_format *const *f = rc_formats; *f; f++)
        if (strcasecmp((*f)->name, name) == 0) return *f;
    const rc_format_name *n = rc_format_lookup(name, NULL);
    return n && !n->fixed_key ? n->format : NULL;
}

const rc_format_name *rc_format_name_of(const rc_format *f, const char *key, const char *value)
{
    const rc_format_name *plain = NULL;
    for (const rc_format_name *n = rc_format_names; n->name; n++) {
        if (n->now || n->format != f) continue;
        if (!n->fixed_key) plain = plain ? plain : n;
        else if (key && value && !strcmp(n->fixed_key, key) && !strcmp(n->fixed_value, value)) return n;
    }
    return plain;
}

const char *rc_format_suggest(const char *name)
{
    rc_suggest s;
    rc_suggest_init(&s, name);
    for (const rc_format_name *n = rc_format_names; n->name; n++) rc_suggest_offer(&s, n->name);
    const rc_format_name *n = s.best ? rc_format_lookup(s.best, NULL) : NULL; /* an old spelling's current name */
    return n ? n->name : s.best;
}
