/* Every format descriptor, for the registry (registry.c is the only list). */
#ifndef RC_FORMATS_FORMATS_H
#define RC_FORMATS_FORMATS_H

#include "rowcast/format.h"

extern const rc_format rc_format_native;
extern const rc_format rc_format_default;
extern const rc_format rc_format_defaultextendcolumntype;
extern const rc_format rc_format_canal;
extern const rc_format rc_format_dataworks;
extern const rc_format rc_format_shareplex;
extern const rc_format rc_format_debezium;
extern const rc_format rc_format_debeziumflatten;
extern const rc_format rc_format_debeziumsmt;
extern const rc_format rc_format_avro;
extern const rc_format rc_format_avro_json;
extern const rc_format rc_format_drs_json;
extern const rc_format rc_format_drs_json_c;
extern const rc_format rc_format_drs_dds;
extern const rc_format rc_format_mongo_change_stream;
extern const rc_format rc_format_cloudevents;
extern const rc_format rc_format_maxwell;
extern const rc_format rc_format_dataworks_aliyun;
extern const rc_format rc_format_ogg_json;

#endif
