/* The DTS Avro Record schema (com.alibaba.dts.formats.avro.Record), the field list of seed
 * 000's Avro examples, written compactly without doc strings. It goes into the header of
 * every Avro container file rowcast writes. The `full` layout adds the trailing
 * bornTimestamp field of the DTS demo schema: both are one field list, closed two ways. */
#include "formats/dts_schema.h"

/* The record up to its last field (afterImages), its field array still open. */
#define DTS_FIELDS \
    "{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"Record\",\"fields\":[{\"name\":\"v" \
    "ersion\",\"type\":\"int\"},{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"sourceTimestamp\",\"type\":\"long\"},{\"nam" \
    "e\":\"sourcePosition\",\"type\":\"string\"},{\"name\":\"safeSourcePosition\",\"type\":\"string\",\"default\":\"\"}," \
    "{\"name\":\"sourceTxid\",\"type\":\"string\",\"default\":\"\"},{\"name\":\"source\",\"type\":{\"namespace\":\"com.ali" \
    "baba.dts.formats.avro\",\"name\":\"Source\",\"type\":\"record\",\"fields\":[{\"name\":\"sourceType\",\"type\":{\"n" \
    "amespace\":\"com.alibaba.dts.formats.avro\",\"name\":\"SourceType\",\"type\":\"enum\",\"symbols\":[\"MySQL\",\"O" \
    "racle\",\"SQLServer\",\"PostgreSQL\",\"MongoDB\",\"Redis\",\"DB2\",\"PPAS\",\"DRDS\",\"HBASE\",\"HDFS\",\"FILE\",\"OTH" \
    "ER\"]}},{\"name\":\"version\",\"type\":\"string\"}]}},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"name\":" \
    "\"operation\",\"type\":{\"name\":\"Operation\",\"type\":\"enum\",\"symbols\":[\"INSERT\",\"UPDATE\",\"DELETE\",\"DDL\"" \
    ",\"BEGIN\",\"COMMIT\",\"ROLLBACK\",\"ABORT\",\"HEARTBEAT\",\"CHECKPOINT\",\"COMMAND\",\"FILL\",\"FINISH\",\"CONTROL" \
    "\",\"RDB\",\"NOOP\",\"INIT\"]}},{\"name\":\"objectName\",\"default\":null,\"type\":[\"null\",\"string\"]},{\"name\":\"" \
    "processTimestamps\",\"default\":null,\"type\":[\"null\",{\"type\":\"array\",\"items\":\"long\"}]},{\"name\":\"tags" \
    "\",\"default\":{},\"type\":{\"type\":\"map\",\"values\":\"string\"}},{\"name\":\"fields\",\"default\":null,\"type\":[" \
    "\"null\",\"string\",{\"type\":\"array\",\"items\":{\"namespace\":\"com.alibaba.dts.formats.avro\",\"name\":\"Fiel" \
    "d\",\"type\":\"record\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"dataTypeNumber\",\"type\":\"in" \
    "t\"}]}}]},{\"name\":\"beforeImages\",\"default\":null,\"type\":[\"null\",\"string\",{\"type\":\"array\",\"items\":[" \
    "\"null\",{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"Integer\",\"fields\":[{\"" \
    "name\":\"precision\",\"type\":\"int\"},{\"name\":\"value\",\"type\":\"string\"}]},{\"namespace\":\"com.alibaba.dts" \
    ".formats.avro\",\"type\":\"record\",\"name\":\"Character\",\"fields\":[{\"name\":\"charset\",\"type\":\"string\"},{" \
    "\"name\":\"value\",\"type\":\"bytes\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"record\",\"na" \
    "me\":\"Decimal\",\"fields\":[{\"name\":\"value\",\"type\":\"string\"},{\"name\":\"precision\",\"type\":\"int\"},{\"nam" \
    "e\":\"scale\",\"type\":\"int\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"F" \
    "loat\",\"fields\":[{\"name\":\"value\",\"type\":\"double\"},{\"name\":\"precision\",\"type\":\"int\"},{\"name\":\"scal" \
    "e\",\"type\":\"int\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"Timestamp" \
    "\",\"fields\":[{\"name\":\"timestamp\",\"type\":\"long\"},{\"name\":\"millis\",\"type\":\"int\"}]},{\"namespace\":\"co" \
    "m.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"DateTime\",\"fields\":[{\"name\":\"year\",\"default\"" \
    ":null,\"type\":[\"null\",\"int\"]},{\"name\":\"month\",\"default\":null,\"type\":[\"null\",\"int\"]},{\"name\":\"day\"" \
    ",\"default\":null,\"type\":[\"null\",\"int\"]},{\"name\":\"hour\",\"default\":null,\"type\":[\"null\",\"int\"]},{\"na" \
    "me\":\"minute\",\"default\":null,\"type\":[\"null\",\"int\"]},{\"name\":\"second\",\"default\":null,\"type\":[\"null" \
    "\",\"int\"]},{\"name\":\"millis\",\"default\":null,\"type\":[\"null\",\"int\"]}]},{\"namespace\":\"com.alibaba.dts" \
    ".formats.avro\",\"type\":\"record\",\"name\":\"TimestampWithTimeZone\",\"fields\":[{\"name\":\"value\",\"type\":\"" \
    "DateTime\"},{\"name\":\"timezone\",\"type\":\"string\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"ty" \
    "pe\":\"record\",\"name\":\"BinaryGeometry\",\"fields\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"value\",\"" \
    "type\":\"bytes\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"TextGeometr" \
    "y\",\"fields\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"value\",\"type\":\"string\"}]},{\"namespace\":\"co" \
    "m.alibaba.dts.formats.avro\",\"type\":\"record\",\"name\":\"BinaryObject\",\"fields\":[{\"name\":\"type\",\"type" \
    "\":\"string\"},{\"name\":\"value\",\"type\":\"bytes\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\"" \
    ":\"record\",\"name\":\"TextObject\",\"fields\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"value\",\"type\":\"" \
    "string\"}]},{\"namespace\":\"com.alibaba.dts.formats.avro\",\"type\":\"enum\",\"name\":\"EmptyObject\",\"symbo" \
    "ls\":[\"NULL\",\"NONE\"]}]}]},{\"name\":\"afterImages\",\"default\":null,\"type\":[\"null\",\"string\",{\"type\":\"a" \
    "rray\",\"items\":[\"null\",\"com.alibaba.dts.formats.avro.Integer\",\"com.alibaba.dts.formats.avro.Chara" \
    "cter\",\"com.alibaba.dts.formats.avro.Decimal\",\"com.alibaba.dts.formats.avro.Float\",\"com.alibaba.d" \
    "ts.formats.avro.Timestamp\",\"com.alibaba.dts.formats.avro.DateTime\",\"com.alibaba.dts.formats.avro" \
    ".TimestampWithTimeZone\",\"com.alibaba.dts.formats.avro.BinaryGeometry\",\"com.alibaba.dts.formats.a" \
    "vro.TextGeometry\",\"com.alibaba.dts.formats.avro.BinaryObject\",\"com.alibaba.dts.formats.avro.Text" \
    "Object\",\"com.alibaba.dts.formats.avro.EmptyObject\"]}]}"

const char rc_dts_schema_seed[] = DTS_FIELDS "]}";

const char rc_dts_schema_full[] = DTS_FIELDS ",{\"name\":\"bornTimestamp\",\"default\":0,\"type\":\"long\"}]}";
