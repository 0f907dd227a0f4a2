/* Character sets of MySQL/MariaDB text columns -> UTF-8.
 *
 * A collation id (TABLE_MAP charset metadata, or the schema history) names the character set.
 * Converted: utf8mb4 and utf8mb3 (validated), latin1 (MySQL's latin1 is Windows-1252, with the
 * five bytes 1252 leaves undefined as the C1 controls U+0081 U+008D U+008F U+0090 U+009D, as
 * MySQL converts them), ascii, ucs2, utf16, utf16le, utf32 here; binary is not text (BYTES).
 * The other character sets the servers have (gbk, big5, cp1251, sjis, ...) are converted by
 * glibc's iconv(3) under the names of the table below; keybcs2 and geostd8, which glibc has
 * no converter for, are refused by name; an id no server has is refused as unknown.
 *
 * Bytes that are not valid in their character set are never dropped or replaced: such a value
 * is RC_V_INVALID, whose text is the value with every valid character in UTF-8, every byte of
 * an invalid sequence written as \xHH (upper-case hex) and every backslash doubled, so that
 * the stored bytes can be told from the text (docs/sources/mysql-types.md). */
#include <errno.h>
#include <iconv.h>
#include <mysql.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/jsonw.h"
#include "my_value_int.h"

/* Where glibc's table and the server's differ (found by converting every byte and every
 * two-byte sequence both ways, docs/sources/mysql-types.md): `subs` replaces a code point
 * iconv writes by the server's (pairs, 0-terminated); `bytes` gives the code point of single
 * bytes iconv refuses and the server maps (lo, hi, code point of lo; 0-terminated). */
static const uint32_t cp932_subs[] = {0xFF3C, 0x5C,   0xFF5E, 0x301C, 0x2225, 0x2016, 0xFF0D,
                                      0x2212, 0xFFE0, 0xA2,   0xFFE1, 0xA3,   0xFFE2, 0xAC, 0}; /* sjis, ujis: JIS X 0208's */
static const uint32_t armscii8_subs[] = {0x587, 0xA7, 0x58A, 0x55F, 0x55A, 0x2019, 0};
static const uint32_t armscii8_bytes[] = {0xA1, 0xA1, 0x2741, 0xFF, 0xFF, 0x27, 0};
static const uint32_t cp866_subs[] = {0x2116, 0x207F, 0xA4, 0xB2, 0};
static const uint32_t dec8_bytes[] = {0xA0, 0xA0, 0xA0, 0};
static const uint32_t greek_subs[] = {0x2018, 0x2BD, 0x2019, 0x2BC, 0};
static const uint32_t hebrew_subs[] = {0xAF, 0x203E, 0};
static const uint32_t koi8u_subs[] = {0x2219, 0x2022, 0};
static const uint32_t macroman_subs[] = {0x394, 0x2206, 0xE01E, 0xF8FF, 0};
static const uint32_t swe7_subs[] = {0xA4, 0x24, 0x40, 0xC9, 0x5E, 0xDC, 0x60, 0xE9, 0x203E, 0xFC, 0};
static const uint32_t tis620_bytes[] = {0x80, 0x9F, 0x80, 0}; /* the C1 controls */

/* MySQL's and MariaDB's character set names -> glibc iconv's (SHOW CHARACTER SET of MySQL 8.4
 * and MariaDB 10.11-11.x; iconv -l), each the glibc table closest to the server's own: euckr
 * is CP949 (MySQL's euckr has the UHC extension), sjis is CP932 (0x5C and 0x7E stay ASCII, as
 * in MySQL; SHIFT_JIS makes them yen and overline), ujis is EUC-JP-MS (its user-defined rows).
 * Rows 0.. are RC_MY_CS_ICONV + the row's index. */
static const struct {
    const char *my, *iconv;
    const uint32_t *subs, *bytes;
} iconv_names[] = {
    {"big5", "BIG5", NULL, NULL},
    {"dec8", "DEC-MCS", NULL, dec8_bytes},
    {"cp850", "CP850", NULL, NULL},
    {"hp8", "HP-ROMAN8", NULL, NULL},
    {"koi8r", "KOI8-R", NULL, NULL},
    {"latin2", "ISO-8859-2", NULL, NULL},
    {"swe7", "ISO646-SE", swe7_subs, NULL},
    {"ujis", "EUC-JP-MS", cp932_subs, NULL},
    {"sjis", "CP932", cp932_subs, NULL},
    {"hebrew", "ISO-8859-8", hebrew_subs, NULL},
    {"tis620", "TIS-620", NULL, tis620_bytes},
    {"euckr", "CP949", NULL, NULL},
    {"koi8u", "KOI8-U", koi8u_subs, NULL},
    {"gb2312", "GB2312", NULL, NULL},
    {"greek", "ISO-8859-7", greek_subs, NULL},
    {"cp1250", "CP1250", NULL, NULL},
    {"gbk", "GBK", NULL, NULL},
    {"latin5", "ISO-8859-9", NULL, NULL},
    {"armscii8", "ARMSCII-8", armscii8_subs, armscii8_bytes},
    {"cp866", "CP866", cp866_subs, NULL},
    {"macce", "MAC-CENTRALEUROPE", NULL, NULL},
    {"macroman", "MACINTOSH", macroman_subs, NULL},
    {"cp852", "CP852", NULL, NULL},
    {"latin7", "ISO-8859-13", NULL, NULL},
    {"cp1251", "CP1251", NULL, NULL},
    {"cp1256", "CP1256", NULL, NULL},
    {"cp1257", "CP1257", NULL, NULL},
    {"cp932", "CP932", NULL, NULL},
    {"eucjpms", "EUC-JP-MS", NULL, NULL},
    {"gb18030", "GB18030", NULL, NULL},
};
enum { NICONV = sizeof iconv_names / sizeof iconv_names[0] };

const char *rc_my_cs_iconv_name(rc_my_cs cs)
{
    return cs >= RC_MY_CS_ICONV && cs < RC_MY_CS_ICONV + NICONV ? iconv_names[cs - RC_MY_CS_ICONV].iconv : NULL;
}

/* The character set the client library names for a collation id. */
static rc_my_cs client_cs(uint16_t id)
{
    MARIADB_CHARSET_INFO *ci = id ? mariadb_get_charset_by_nr(id) : NULL;
    if (!ci || !ci->csname) return RC_MY_CS_UNKNOWN;
    return rc_my_charset_by_name(ci->csname, strlen(ci->csname));
}

/* Ids below 1024, from MySQL 8.4's and MariaDB 10.11's SHOW COLLATION. */
static rc_my_cs base_cs(uint16_t id)
{
    if ((id >= 192 && id <= 215) || (id >= 576 && id <= 578)) return RC_MY_CS_UTF8; /* utf8mb3 */
    if ((id >= 224 && id <= 247) || (id >= 255 && id <= 323) || (id >= 608 && id <= 610)) return RC_MY_CS_UTF8; /* utf8mb4 */
    if ((id >= 128 && id <= 151) || (id >= 640 && id <= 642)) return RC_MY_CS_UCS2;
    if ((id >= 101 && id <= 124 && id != 119) || (id >= 672 && id <= 674)) return RC_MY_CS_UTF16;
    if ((id >= 160 && id <= 183) || (id >= 736 && id <= 738)) return RC_MY_CS_UTF32;
    switch (id) {
    case 33: case 76: case 83: case 119: case 223: case 254: /* utf8mb3 */
    case 45: case 46:                                       /* utf8mb4 */
        return RC_MY_CS_UTF8;
    case 5: case 8: case 15: case 31: case 47: case 48: case 49: case 94:
        return RC_MY_CS_LATIN1;
    case 11: case 65:
        return RC_MY_CS_ASCII;
    case 35: case 90: case 159:
        return RC_MY_CS_UCS2;
    case 54: case 55:
        return RC_MY_CS_UTF16;
    case 56: case 62:
        return RC_MY_CS_UTF16LE;
    case 60: case 61:
        return RC_MY_CS_UTF32;
    case RC_MY_COLLATION_BINARY:
        return RC_MY_CS_BINARY;
    default:
        /* the client library knows every other character set the servers have */
        return client_cs(id);
    }
}

static rc_my_cs collation_cs(uint16_t id);

/* rc_my_collation_cs of the ids below 4096 as they are first asked (the character set + 1; 0:
 * not yet): the chain of ranges and the client library's table were looked through for every
 * text value, and all 4,096 at once cost 5 million instructions before the first row. Threads
 * that ask at once store the same byte; the accesses are atomic so that this is no race. */
static uint8_t cs_of[4096];

rc_my_cs rc_my_collation_cs(uint16_t id)
{
    if (id >= sizeof cs_of) return collation_cs(id);
    uint8_t v = __atomic_load_n(&cs_of[id], __ATOMIC_RELAXED);
    if (!v) __atomic_store_n(&cs_of[id], v = (uint8_t)(collation_cs(id) + 1), __ATOMIC_RELAXED);
    return (rc_my_cs)(v - 1);
}

static rc_my_cs collation_cs(uint16_t id)
{
    /* MariaDB 10.10+: the UCA 14.0 collations, 256 ids per character set from 2048 */
    static const rc_my_cs uca1400[] = {RC_MY_CS_UTF8, RC_MY_CS_UTF8, RC_MY_CS_UCS2, RC_MY_CS_UTF16, RC_MY_CS_UTF32};
    if (id >= 2048) return id < 2048 + 256 * 5 ? uca1400[(id - 2048) / 256] : RC_MY_CS_UNKNOWN;
    /* MariaDB's NO PAD collations are their PAD SPACE collation's id + 1024 */
    if (id >= 1024) {
        rc_my_cs cs = base_cs((uint16_t)(id - 1024));
        return cs != RC_MY_CS_UNKNOWN ? cs : client_cs(id);
    }
    return base_cs(id);
}

const char *rc_my_charset_name(uint16_t id)
{
    MARIADB_CHARSET_INFO *ci = mariadb_get_charset_by_nr(id);
    return ci && ci->csname ? ci->csname : "?";
}

const char *rc_my_collation_name(uint16_t id)
{
    MARIADB_CHARSET_INFO *ci = mariadb_get_charset_by_nr(id);
    return ci && ci->name ? ci->name : "?";
}

rc_my_cs rc_my_charset_by_name(const char *s, size_t n)
{
    static const struct {
        const char *name;
        rc_my_cs cs;
    } names[] = {{"utf8mb4", RC_MY_CS_UTF8}, {"utf8mb3", RC_MY_CS_UTF8},   {"utf8", RC_MY_CS_UTF8},      {"latin1", RC_MY_CS_LATIN1},
                 {"ascii", RC_MY_CS_ASCII},  {"binary", RC_MY_CS_BINARY}, {"ucs2", RC_MY_CS_UCS2},      {"utf16", RC_MY_CS_UTF16},
                 {"utf16le", RC_MY_CS_UTF16LE}, {"utf32", RC_MY_CS_UTF32}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == n && !strncasecmp(names[i].name, s, n)) return names[i].cs;
    for (size_t i = 0; i < NICONV; i++)
        if (strlen(iconv_names[i].my) == n && !strncasecmp(iconv_names[i].my, s, n)) return (rc_my_cs)(RC_MY_CS_ICONV + i);
    return RC_MY_CS_UNSUPPORTED;
}

/* Windows-1252's 0x80..0x9F as MySQL's latin1 maps them. */
static const uint16_t cp1252_hi[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                                       0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                                       0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

enum { BAD = 0xFFFFFFFFu };

/* The next character at p (n > 0 bytes left): its code point (BAD when the bytes are not a
 * character of cs) and the bytes it takes. */
static size_t next_cp(rc_my_cs cs, const uint8_t *p, size_t n, uint32_t *cp)
{
    switch (cs) {
    case RC_MY_CS_LATIN1:
        *cp = p[0] >= 0x80 && p[0] < 0xA0 ? cp1252_hi[p[0] - 0x80] : p[0];
        return 1;
    case RC_MY_CS_ASCII:
        *cp = p[0] < 0x80 ? p[0] : BAD;
        return 1;
    case RC_MY_CS_UCS2:
    case RC_MY_CS_UTF16:
    case RC_MY_CS_UTF16LE: {
        bool le = cs == RC_MY_CS_UTF16LE;
        if (n < 2) return *cp = BAD, n;
        uint32_t u = le ? (uint32_t)(p[0] | p[1] << 8) : (uint32_t)(p[0] << 8 | p[1]);
        if (u < 0xD800 || u > 0xDFFF) return *cp = u, 2;
        if (cs == RC_MY_CS_UCS2 || u > 0xDBFF || n < 4) return *cp = BAD, 2;
        uint32_t l = le ? (uint32_t)(p[2] | p[3] << 8) : (uint32_t)(p[2] << 8 | p[3]);
        if (l < 0xDC00 || l > 0xDFFF) return *cp = BAD, 2;
        *cp = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00);
        return 4;
    }
    case RC_MY_CS_UTF32: {
        if (n < 4) return *cp = BAD, n;
        uint32_t u = (uint32_t)rc_my_be(p, 4);
        *cp = u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF) ? BAD : u;
        return 4;
    }
    default: { /* UTF-8: the sequence the lead byte announces, checked by the project's validator */
        size_t k = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3 : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
        if (!k || k > n || rc_utf8_valid_prefix((const char *)p, k) != k) return *cp = BAD, 1;
        uint32_t u = k == 1 ? p[0] : (uint32_t)(p[0] & (0x7F >> k));
        for (size_t i = 1; i < k; i++) u = u << 6 | (p[i] & 0x3F);
        *cp = u;
        return k;
    }
    }
}

static size_t put_utf8(char *w, uint32_t u)
{
    if (u < 0x80) return w[0] = (char)u, 1;
    if (u < 0x800) return w[0] = (char)(0xC0 | u >> 6), w[1] = (char)(0x80 | (u & 0x3F)), 2;
    if (u < 0x10000)
        return w[0] = (char)(0xE0 | u >> 12), w[1] = (char)(0x80 | (u >> 6 & 0x3F)), w[2] = (char)(0x80 | (u & 0x3F)), 3;
    w[0] = (char)(0xF0 | u >> 18), w[1] = (char)(0x80 | (u >> 12 & 0x3F)), w[2] = (char)(0x80 | (u >> 6 & 0x3F));
    w[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* An invalid byte in the invalid form: \xHH (4 bytes at w). */
static size_t put_hex(char *w, uint8_t b)
{
    static const char hex[] = "0123456789ABCDEF";
    w[0] = '\\', w[1] = 'x', w[2] = hex[b >> 4], w[3] = hex[b & 15];
    return 4;
}

/* Converts into w (room for 4 bytes per input byte: \xHH); escaping: the invalid form. Returns
 * the length, or (size_t)-1 when !escaping and a byte is invalid. */
static size_t convert(rc_my_cs cs, const uint8_t *p, size_t n, char *w, bool escaping)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = next_cp(cs, p + i, n - i, &cp);
        if (cp == BAD) {
            if (!escaping) return (size_t)-1;
            for (size_t j = 0; j < k; j++) o += put_hex(w + o, p[i + j]);
        } else if (cp == '\\' && escaping) {
            w[o++] = '\\', w[o++] = '\\';
        } else {
            o += put_utf8(w + o, cp);
        }
        i += k;
    }
    return o;
}

/* The code point for the UTF-8 character at c (complete: iconv writes whole characters). */
static size_t get_utf8(const char *c, uint32_t *u)
{
    const uint8_t *p = (const uint8_t *)c;
    size_t k = p[0] < 0x80 ? 1 : p[0] < 0xE0 ? 2 : p[0] < 0xF0 ? 3 : 4;
    *u = k == 1 ? p[0] : (uint32_t)(p[0] & (0x7F >> k));
    for (size_t i = 1; i < k; i++) *u = *u << 6 | (p[i] & 0x3F);
    return k;
}

static uint32_t lookup_sub(const uint32_t *subs, uint32_t u)
{
    for (; subs && subs[0]; subs += 2)
        if (subs[0] == u) return subs[1];
    return u;
}

static uint32_t lookup_byte(const uint32_t *bytes, uint8_t b)
{
    for (; bytes && bytes[0]; bytes += 3)
        if (b >= bytes[0] && b <= bytes[1]) return bytes[2] + (b - bytes[0]);
    return BAD;
}

/* convert() through iconv for row i of iconv_names, with its corrections: the same invalid
 * form, an invalid byte escaped alone and the conversion resumed at the next byte. cap: w's
 * room; (size_t)-2 when it is too small (a converter writing more than 4 bytes a character). */
static size_t convert_iconv(iconv_t cd, size_t i, const uint8_t *p, size_t n, char *w, size_t cap, bool escaping)
{
    char *in = (char *)p;
    size_t left = n, o = 0;
    iconv(cd, NULL, NULL, NULL, NULL);
    while (left) {
        char chunk[256], *cw = chunk;
        size_t room = sizeof chunk;
        size_t r = iconv(cd, &in, &left, &cw, &room);
        int e = r == (size_t)-1 ? errno : 0;
        for (const char *c = chunk; c < cw;) { /* the converted characters, corrected; backslashes doubled */
            uint32_t u;
            c += get_utf8(c, &u);
            u = lookup_sub(iconv_names[i].subs, u);
            if (o + 4 > cap) return (size_t)-2;
            if (u == '\\' && escaping) w[o++] = '\\';
            o += put_utf8(w + o, u);
        }
        if (!e || e == E2BIG) continue;
        uint8_t b = (uint8_t)*in++; /* EILSEQ, or EINVAL (a sequence the value ends inside) */
        left--;
        iconv(cd, NULL, NULL, NULL, NULL);
        uint32_t u = lookup_byte(iconv_names[i].bytes, b);
        if (o + 4 > cap) return (size_t)-2;
        if (u != BAD) {
            o += put_utf8(w + o, u);
            continue;
        }
        if (!escaping) return (size_t)-1;
        o += put_hex(w + o, b);
    }
    /* the shift state's closing bytes (none for the character sets of the table) */
    char *cw = w + o;
    size_t room = cap - o;
    if (iconv(cd, NULL, NULL, &cw, &room) == (size_t)-1) return (size_t)-2;
    return (size_t)(cw - w);
}

/* The converters of a thread, opened on first use and kept until the thread ends: opening one
 * costs about 0.4 us, as much as decoding a few values, and a table of GBK text would pay it for
 * every column of every row. Per thread because an iconv_t is not for two threads at once (the
 * binlog reader and a snapshot may decode at the same time). */
typedef struct iconv_cache {
    iconv_t cd[NICONV];
    int8_t ascii_same[NICONV]; /* 1: ASCII converts to itself, -1: not (swe7's 0x40 is É), 0: not yet tried */
} iconv_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_free(void *p)
{
    iconv_cache *c = p;
    for (size_t i = 0; i < NICONV; i++)
        if (c->cd[i] != (iconv_t)-1) iconv_close(c->cd[i]);
    free(c);
}

static void cache_init(void) { (void)pthread_key_create(&cache_key, cache_free); }

/* This thread's converter from character set i to UTF-8 (and its cache); (iconv_t)-1 when
 * there is none. */
static iconv_t converter(size_t i, iconv_cache **cache)
{
    pthread_once(&cache_once, cache_init);
    iconv_cache *c = pthread_getspecific(cache_key);
    if (!c) {
        if (!(c = malloc(sizeof *c))) return (iconv_t)-1;
        for (size_t k = 0; k < NICONV; k++) c->cd[k] = (iconv_t)-1, c->ascii_same[k] = 0;
        if (pthread_setspecific(cache_key, c) != 0) {
            free(c);
            return (iconv_t)-1;
        }
    }
    if (c->cd[i] == (iconv_t)-1) c->cd[i] = iconv_open("UTF-8", iconv_names[i].iconv);
    *cache = c;
    return c->cd[i];
}

/* Whether character set i converts each of the 128 ASCII bytes to itself, as the converter and
 * its corrections say (asked once per thread): then ASCII text needs no conversion. */
static bool ascii_same(iconv_cache *c, iconv_t cd, size_t i)
{
    if (!c->ascii_same[i]) {
        uint8_t in[128];
        char out[4 * sizeof in];
        for (size_t k = 0; k < sizeof in; k++) in[k] = (uint8_t)k;
        size_t len = convert_iconv(cd, i, in, sizeof in, out, sizeof out, false);
        c->ascii_same[i] = len == sizeof in && !memcmp(in, out, sizeof in) ? 1 : -1;
    }
    return c->ascii_same[i] > 0;
}

/* A copy of text that needs no conversion. */
static rc_status text_copy(const uint8_t *p, size_t n, rc_value *out, rc_arena *a)
{
    char *s = rc_arena_memdup(a, p, n);
    if (!s) return RC_ERR_NOMEM;
    *out = (rc_value){.kind = RC_V_TEXT, .s = {s, n}};
    return RC_OK;
}

/* rc_my_text for the character sets iconv converts (convert_iconv resets the converter's
 * state before each value). */
static rc_status text_iconv(rc_my_cs cs, const uint8_t *p, size_t n, rc_value *out, rc_arena *a)
{
    iconv_cache *c;
    iconv_t cd = converter(cs - RC_MY_CS_ICONV, &c);
    if (cd == (iconv_t)-1) return RC_ERR_UNSUPPORTED;
    if (rc_ascii_prefix((const char *)p, n) == n && ascii_same(c, cd, cs - RC_MY_CS_ICONV)) return text_copy(p, n, out, a);
    for (size_t cap = 4 * n + 16;; cap *= 2) {
        char *w = rc_arena_alloc(a, cap + 1);
        if (!w) return RC_ERR_NOMEM;
        rc_vkind kind = RC_V_TEXT;
        size_t len = convert_iconv(cd, cs - RC_MY_CS_ICONV, p, n, w, cap, false);
        if (len == (size_t)-1) len = convert_iconv(cd, cs - RC_MY_CS_ICONV, p, n, w, cap, true), kind = RC_V_INVALID;
        if (len == (size_t)-2) continue;
        w[len] = '\0';
        *out = (rc_value){.kind = kind, .s = {w, len}};
        return RC_OK;
    }
}

/* Valid UTF-8 copied into the arena as it is checked: eight ASCII bytes a load, a test and a
 * store (the tail an overlapping eight); from the first other byte on, rc_utf8_valid_prefix
 * checks the rest and memcpy copies it. A check and then a copy were two passes and three calls
 * for every character value. RC_SKIP when the text is not valid UTF-8 (the arena's n + 1 bytes
 * are left unused then). */
static rc_status utf8_copy(const uint8_t *p, size_t n, rc_value *out, rc_arena *a)
{
    char *s = rc_arena_alloc(a, n + 1);
    if (!s) return RC_ERR_NOMEM;
    const uint64_t high = 0x8080808080808080u;
    uint64_t x;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, p + i, 8);
        if (x & high) break;
        memcpy(s + i, &x, 8);
    }
    if (i < n && n >= 8 && i + 8 > n && (memcpy(&x, p + n - 8, 8), !(x & high))) {
        memcpy(s + n - 8, &x, 8);
    } else if (i < n) {
        if (rc_utf8_valid_prefix((const char *)p + i, n - i) != n - i) return RC_SKIP;
        memcpy(s + i, p + i, n - i);
    }
    s[n] = '\0';
    *out = (rc_value){.kind = RC_V_TEXT, .s = {s, n}};
    return RC_OK;
}

rc_status rc_my_text(rc_my_cs cs, const uint8_t *p, size_t n, rc_value *out, rc_arena *a)
{
    /* the common cases: a copy (ASCII is itself in latin1 and ascii; never in UCS-2, UTF-16, UTF-32) */
    if (cs == RC_MY_CS_UTF8) {
        rc_status st = utf8_copy(p, n, out, a);
        if (st != RC_SKIP) return st;
    }
    if (rc_my_cs_iconv_name(cs)) return text_iconv(cs, p, n, out, a);
    if ((cs == RC_MY_CS_LATIN1 || cs == RC_MY_CS_ASCII) && rc_ascii_prefix((const char *)p, n) == n) return text_copy(p, n, out, a);
    char *w = rc_arena_alloc(a, 4 * n + 1);
    if (!w) return RC_ERR_NOMEM;
    size_t len = convert(cs, p, n, w, false);
    rc_vkind kind = RC_V_TEXT;
    if (len == (size_t)-1) len = convert(cs, p, n, w, true), kind = RC_V_INVALID;
    w[len] = '\0';
    *out = (rc_value){.kind = kind, .s = {w, len}};
    return RC_OK;
}
