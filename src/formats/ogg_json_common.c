/* Oracle GoldenGate JSON (`ogg-json`): the options the writer (ogg_json.c) and the reader
 * (ogg_json_read.c) both parse, so that each side depends on this file and not on the other. */
#include <string.h>
#include "formats/ogg_json.h"

#define OFF(f) offsetof(rc_ogg_common, f)
const rc_option_desc rc_ogg_options[] = {
    {"ogg-json.keys", RC_OPT_CHOICE, "primary_keys|priamry_keys|none", "primary_keys",
     "name of the key-columns array (priamry_keys is Flink's test-data spelling; none leaves it out)", .off = OFF(keys)},
    {"ogg-json.numbers", RC_OPT_CHOICE, "number|string", "number", "numbers as JSON numbers (OGG's treatAllColumnsAsStrings=false) or as strings (=true)", .off = OFF(numbers)},
    {"ogg-json.current_ts", RC_OPT_CHOICE, "iso|sql|none", "iso", "current_ts as 2020-05-13T15:40:06.000000 (OGG's iso8601Format=true), with a space, or left out", .off = OFF(current_ts)},
    {"ogg-json.timezone", RC_OPT_TZ, NULL, "UTC", "zone of op_ts and current_ts (written and read) and of TIMESTAMP values (written)", .off = OFF(tz)},
    /* the choices are rc_dbkind's names in its order (rc_dbkind_name) */
    {"ogg-json.source", RC_OPT_CHOICE, "unknown|mysql|mariadb|ob_mysql|ob_oracle|oracle|postgresql|sqlserver", "unknown",
     "reading: the source database the events name, which picks the type names (unknown: MySQL's generic names)", .off = OFF(source)},
    {0},
};
#undef OFF

rc_status rc_ogg_common_parse(const rc_options *o, rc_ogg_common *out, rc_error *err)
{
    memset(out, 0, sizeof *out);
    rc_status st = rc_options_parse(o, "ogg-json", rc_ogg_options, out, err);
    out->kind = (rc_dbkind)out->source;
    return st;
}
