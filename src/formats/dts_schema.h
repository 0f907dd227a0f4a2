/* The DTS Avro Record schema texts (see dts_schema.c). */
#ifndef RC_FORMATS_DTS_SCHEMA_H
#define RC_FORMATS_DTS_SCHEMA_H

extern const char rc_dts_schema_seed[];
extern const char rc_dts_schema_full[];

#endif
