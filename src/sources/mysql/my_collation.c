/* Collation names and ids of MySQL and MariaDB (SHOW COLLATION; the ids below 256 agree between
 * the two servers, MariaDB's _nopad_ ids are its own), and the default collation of each
 * character set. The schema history keeps a column's collation id, which is what TABLE_MAP's
 * charset metadata carries; a name not in the table is kept as 0 ("unknown"), never guessed. */
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_types.h"

typedef struct coll {
    const char *name;
    uint16_t id;
} coll;

static const coll collations[] = {
    {"big5_chinese_ci", 1}, {"latin2_czech_cs", 2}, {"dec8_swedish_ci", 3}, {"cp850_general_ci", 4},
    {"latin1_german1_ci", 5}, {"hp8_english_ci", 6}, {"koi8r_general_ci", 7}, {"latin1_swedish_ci", 8},
    {"latin2_general_ci", 9}, {"swe7_swedish_ci", 10}, {"ascii_general_ci", 11}, {"ujis_japanese_ci", 12},
    {"sjis_japanese_ci", 13}, {"cp1251_bulgarian_ci", 14}, {"latin1_danish_ci", 15}, {"hebrew_general_ci", 16},
    {"tis620_thai_ci", 18}, {"euckr_korean_ci", 19}, {"latin7_estonian_cs", 20}, {"latin2_hungarian_ci", 21},
    {"koi8u_general_ci", 22}, {"cp1251_ukrainian_ci", 23}, {"gb2312_chinese_ci", 24}, {"greek_general_ci", 25},
    {"cp1250_general_ci", 26}, {"latin2_croatian_ci", 27}, {"gbk_chinese_ci", 28}, {"cp1257_lithuanian_ci", 29},
    {"latin5_turkish_ci", 30}, {"latin1_german2_ci", 31}, {"armscii8_general_ci", 32}, {"utf8mb3_general_ci", 33},
    {"utf8_general_ci", 33}, {"cp1250_czech_cs", 34}, {"ucs2_general_ci", 35}, {"cp866_general_ci", 36},
    {"keybcs2_general_ci", 37}, {"macce_general_ci", 38}, {"macroman_general_ci", 39}, {"cp852_general_ci", 40},
    {"latin7_general_ci", 41}, {"latin7_general_cs", 42}, {"macce_bin", 43}, {"cp1250_croatian_ci", 44},
    {"utf8mb4_general_ci", 45}, {"utf8mb4_bin", 46}, {"latin1_bin", 47}, {"latin1_general_ci", 48},
    {"latin1_general_cs", 49}, {"cp1251_bin", 50}, {"cp1251_general_ci", 51}, {"cp1251_general_cs", 52},
    {"macroman_bin", 53}, {"utf16_general_ci", 54}, {"utf16_bin", 55}, {"utf16le_general_ci", 56},
    {"cp1256_general_ci", 57}, {"cp1257_bin", 58}, {"cp1257_general_ci", 59}, {"utf32_general_ci", 60},
    {"utf32_bin", 61}, {"utf16le_bin", 62}, {"binary", 63}, {"armscii8_bin", 64}, {"ascii_bin", 65},
    {"cp1250_bin", 66}, {"cp1256_bin", 67}, {"cp866_bin", 68}, {"dec8_bin", 69}, {"greek_bin", 70},
    {"hebrew_bin", 71}, {"hp8_bin", 72}, {"keybcs2_bin", 73}, {"koi8r_bin", 74}, {"koi8u_bin", 75},
    {"latin2_bin", 77}, {"latin5_bin", 78}, {"latin7_bin", 79}, {"cp850_bin", 80}, {"cp852_bin", 81},
    {"swe7_bin", 82}, {"utf8mb3_bin", 83}, {"utf8_bin", 83}, {"big5_bin", 84}, {"euckr_bin", 85},
    {"gb2312_bin", 86}, {"gbk_bin", 87}, {"sjis_bin", 88}, {"tis620_bin", 89}, {"ucs2_bin", 90},
    {"ujis_bin", 91}, {"geostd8_general_ci", 92}, {"geostd8_bin", 93}, {"latin1_spanish_ci", 94},
    {"cp932_japanese_ci", 95}, {"cp932_bin", 96}, {"eucjpms_japanese_ci", 97}, {"eucjpms_bin", 98},
    {"cp1250_polish_ci", 99}, {"utf16_unicode_ci", 101}, {"ucs2_unicode_ci", 128}, {"utf32_unicode_ci", 160},
    {"utf8mb3_unicode_ci", 192}, {"utf8_unicode_ci", 192}, {"utf8mb3_unicode_520_ci", 214},
    {"utf8_unicode_520_ci", 214}, {"utf8mb4_unicode_ci", 224}, {"utf8mb4_unicode_520_ci", 246},
    {"gb18030_chinese_ci", 248}, {"gb18030_bin", 249}, {"utf8mb4_0900_ai_ci", 255}, {"utf8mb4_0900_as_ci", 305},
    {"utf8mb4_0900_as_cs", 278}, {"utf8mb4_0900_bin", 309}, {"utf8mb3_general_nopad_ci", 1057},
    {"utf8_general_nopad_ci", 1057}, {"latin1_swedish_nopad_ci", 1032}, {"utf8mb4_general_nopad_ci", 1069},
    {"utf8mb4_nopad_bin", 1070}, {"latin1_nopad_bin", 1071}, {"utf8mb3_nopad_bin", 1107}, {"utf8_nopad_bin", 1107},
    {"ascii_general_nopad_ci", 1035}, {"ascii_nopad_bin", 1089},
};

/* Character sets and their default collations (MariaDB and MySQL 5.7; MySQL 8 makes utf8mb4's
 * default utf8mb4_0900_ai_ci, 255: the same character set, so the same decoding). */
static const coll charsets[] = {
    {"big5", 1}, {"dec8", 3}, {"cp850", 4}, {"hp8", 6}, {"koi8r", 7}, {"latin1", 8}, {"latin2", 9},
    {"swe7", 10}, {"ascii", 11}, {"ujis", 12}, {"sjis", 13}, {"hebrew", 16}, {"tis620", 18}, {"euckr", 19},
    {"koi8u", 22}, {"gb2312", 24}, {"greek", 25}, {"cp1250", 26}, {"gbk", 28}, {"latin5", 30},
    {"armscii8", 32}, {"utf8mb3", 33}, {"utf8", 33}, {"ucs2", 35}, {"cp866", 36}, {"keybcs2", 37},
    {"macce", 38}, {"macroman", 39}, {"cp852", 40}, {"latin7", 41}, {"cp1251", 51}, {"utf16", 54},
    {"utf16le", 56}, {"cp1256", 57}, {"cp1257", 59}, {"utf32", 60}, {"binary", 63}, {"geostd8", 92},
    {"cp932", 95}, {"eucjpms", 97}, {"gb18030", 248}, {"utf8mb4", 45},
};

static uint16_t lookup(const coll *t, size_t n, rc_str name)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(t[i].name) == name.n && strncasecmp(t[i].name, name.p, name.n) == 0) return t[i].id;
    return 0;
}

uint16_t rc_my_collation_id(rc_str name) { return lookup(collations, sizeof collations / sizeof *collations, name); }

uint16_t rc_my_charset_default_collation(rc_str charset)
{
    return lookup(charsets, sizeof charsets / sizeof *charsets, charset);
}

uint16_t rc_my_collation_bin(uint16_t c)
{
    if (c == 0 || c == RC_MY_COLLATION_BINARY) return c;
    const char *name = NULL;
    for (size_t i = 0; i < sizeof collations / sizeof *collations && !name; i++)
        if (collations[i].id == c) name = collations[i].name;
    if (!name) return 0;
    const char *us = strchr(name, '_');
    if (!us) return 0;
    char bin[64];
    size_t cs = (size_t)(us - name);
    if (cs + 5 > sizeof bin) return 0;
    memcpy(bin, name, cs);
    memcpy(bin + cs, "_bin", 4);
    return rc_my_collation_id((rc_str){bin, cs + 4});
}
