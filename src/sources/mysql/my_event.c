/* Binlog events that carry state rather than rows (my_event.h). Layouts are those of MySQL's
 * libbinlogevents and MariaDB's log_event.h; every read is bounds-checked and an error names
 * the byte of the body where the event stops making sense. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "my_event.h"

static const char *const event_names[] = {
    [RC_MYEV_START_V3] = "START_EVENT_V3",
    [RC_MYEV_QUERY] = "QUERY_EVENT",
    [RC_MYEV_STOP] = "STOP_EVENT",
    [RC_MYEV_ROTATE] = "ROTATE_EVENT",
    [RC_MYEV_INTVAR] = "INTVAR_EVENT",
    [6] = "LOAD_EVENT",
    [7] = "SLAVE_EVENT",
    [8] = "CREATE_FILE_EVENT",
    [9] = "APPEND_BLOCK_EVENT",
    [10] = "EXEC_LOAD_EVENT",
    [11] = "DELETE_FILE_EVENT",
    [12] = "NEW_LOAD_EVENT",
    [RC_MYEV_RAND] = "RAND_EVENT",
    [RC_MYEV_USER_VAR] = "USER_VAR_EVENT",
    [RC_MYEV_FORMAT_DESCRIPTION] = "FORMAT_DESCRIPTION_EVENT",
    [RC_MYEV_XID] = "XID_EVENT",
    [RC_MYEV_BEGIN_LOAD_QUERY] = "BEGIN_LOAD_QUERY_EVENT",
    [RC_MYEV_EXECUTE_LOAD_QUERY] = "EXECUTE_LOAD_QUERY_EVENT",
    [RC_MYEV_TABLE_MAP] = "TABLE_MAP_EVENT",
    [RC_MYEV_PRE_GA_WRITE_ROWS] = "PRE_GA_WRITE_ROWS_EVENT",
    [RC_MYEV_PRE_GA_UPDATE_ROWS] = "PRE_GA_UPDATE_ROWS_EVENT",
    [RC_MYEV_PRE_GA_DELETE_ROWS] = "PRE_GA_DELETE_ROWS_EVENT",
    [RC_MYEV_WRITE_ROWS_V1] = "WRITE_ROWS_EVENT_V1",
    [RC_MYEV_UPDATE_ROWS_V1] = "UPDATE_ROWS_EVENT_V1",
    [RC_MYEV_DELETE_ROWS_V1] = "DELETE_ROWS_EVENT_V1",
    [RC_MYEV_INCIDENT] = "INCIDENT_EVENT",
    [RC_MYEV_HEARTBEAT] = "HEARTBEAT_LOG_EVENT",
    [RC_MYEV_IGNORABLE] = "IGNORABLE_LOG_EVENT",
    [RC_MYEV_ROWS_QUERY] = "ROWS_QUERY_LOG_EVENT",
    [RC_MYEV_WRITE_ROWS] = "WRITE_ROWS_EVENT",
    [RC_MYEV_UPDATE_ROWS] = "UPDATE_ROWS_EVENT",
    [RC_MYEV_DELETE_ROWS] = "DELETE_ROWS_EVENT",
    [RC_MYEV_GTID] = "GTID_LOG_EVENT",
    [RC_MYEV_ANONYMOUS_GTID] = "ANONYMOUS_GTID_LOG_EVENT",
    [RC_MYEV_PREVIOUS_GTIDS] = "PREVIOUS_GTIDS_LOG_EVENT",
    [RC_MYEV_TRANSACTION_CONTEXT] = "TRANSACTION_CONTEXT_EVENT",
    [RC_MYEV_VIEW_CHANGE] = "VIEW_CHANGE_EVENT",
    [RC_MYEV_XA_PREPARE] = "XA_PREPARE_LOG_EVENT",
    [RC_MYEV_PARTIAL_UPDATE_ROWS] = "PARTIAL_UPDATE_ROWS_EVENT",
    [RC_MYEV_TRANSACTION_PAYLOAD] = "TRANSACTION_PAYLOAD_EVENT",
    [RC_MYEV_HEARTBEAT_V2] = "HEARTBEAT_LOG_EVENT_V2",
    [RC_MYEV_GTID_TAGGED] = "GTID_TAGGED_LOG_EVENT",
    [RC_MYEV_MARIA_ANNOTATE_ROWS] = "ANNOTATE_ROWS_EVENT",
    [RC_MYEV_MARIA_BINLOG_CHECKPOINT] = "BINLOG_CHECKPOINT_EVENT",
    [RC_MYEV_MARIA_GTID] = "GTID_EVENT",
    [RC_MYEV_MARIA_GTID_LIST] = "GTID_LIST_EVENT",
    [RC_MYEV_MARIA_START_ENCRYPTION] = "START_ENCRYPTION_EVENT",
    [RC_MYEV_MARIA_QUERY_COMPRESSED] = "QUERY_COMPRESSED_EVENT",
    [166] = "WRITE_ROWS_COMPRESSED_EVENT_V1",
    [167] = "UPDATE_ROWS_COMPRESSED_EVENT_V1",
    [168] = "DELETE_ROWS_COMPRESSED_EVENT_V1",
    [169] = "WRITE_ROWS_COMPRESSED_EVENT",
    [170] = "UPDATE_ROWS_COMPRESSED_EVENT",
    [171] = "DELETE_ROWS_COMPRESSED_EVENT",
};

const char *rc_my_event_name(uint8_t type) { return type < sizeof event_names / sizeof *event_names ? event_names[type] : NULL; }

static rc_status truncated(rc_error *err, const char *what, size_t at)
{
    return rc_error_set(err, RC_ERR_VALUE, at, "%s truncated at byte %zu of its body", what, at);
}

rc_status rc_my_header_parse(const uint8_t *p, size_t n, rc_my_header *h, rc_error *err)
{
    if (n < RC_MY_HEADER_LEN) return rc_error_set(err, RC_ERR_VALUE, 0, "event of %zu bytes is shorter than the 19-byte header", n);
    h->timestamp = (uint32_t)rc_my_le(p, 4);
    h->type = p[4];
    h->server_id = (uint32_t)rc_my_le(p + 5, 4);
    h->size = (uint32_t)rc_my_le(p + 9, 4);
    h->next_pos = (uint32_t)rc_my_le(p + 13, 4);
    h->flags = (uint16_t)rc_my_le(p + 17, 2);
    return RC_OK;
}

/* --- CRC32 (IEEE 802.3, as zlib's crc32 and MySQL's binlog_checksum=CRC32) --- */

/* Slicing by 8: crc_table[k][b] is the CRC of byte b followed by k zero bytes, so that eight
 * bytes take eight independent lookups instead of a chain of eight (the checksum of every event
 * was an eighth of the capture's CPU, byte by byte). */
static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int k = 1; k < 8; k++) crc_table[k][i] = crc_table[k - 1][i] >> 8 ^ crc_table[0][crc_table[k - 1][i] & 0xff];
}

#if defined(__x86_64__)
#include <immintrin.h>
/* Folding with carry-less multiplication (Gopal et al., "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction", Intel, 2009): a 128-bit remainder is moved 128
 * bits on by multiplying its halves by k3 = x^(128+32) and k4 = x^(128-32) mod P, and the
 * next 16 bytes are added; at the end it is reduced to 64 bits (k4, then k5 = x^64 mod P) and
 * to 32 by Barrett's method (mu = x^64 / P). All bit-reflected and shifted left by one, as
 * the instruction wants for a reflected CRC; each constant was recomputed from P = 0x104C11DB7
 * by polynomial division. About a twelfth of slicing by 8's instructions a byte. `crc` is the
 * running state (inverted, as the table loop keeps it); n a multiple of 16, at least 16. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc_fold(uint32_t crc, const uint8_t *p, size_t n)
{
    const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL), k5 = _mm_set_epi64x(0, 0x163cd6124LL);
    const __m128i poly = _mm_set_epi64x(0x1f7011641LL, 0x1db710641LL), low32 = _mm_setr_epi32(~0, 0, ~0, 0);
    __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)crc));
    for (p += 16, n -= 16; n >= 16; p += 16, n -= 16) {
        __m128i lo = _mm_clmulepi64_si128(x, k3k4, 0x00), hi = _mm_clmulepi64_si128(x, k3k4, 0x11);
        x = _mm_xor_si128(_mm_xor_si128(lo, hi), _mm_loadu_si128((const __m128i *)p));
    }
    /* 128 -> 64 bits: the low half times k4 added to the high half */
    x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(x, k3k4, 0x10));
    /* 64 -> 32 + 32: the low 32 bits times k5 added to the rest */
    x = _mm_xor_si128(_mm_srli_si128(x, 4), _mm_clmulepi64_si128(_mm_and_si128(x, low32), k5, 0x00));
    /* Barrett: q = (low 32 bits * mu) mod x^32, remainder = x + q * P */
    __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), poly, 0x10), low32);
    x = _mm_xor_si128(x, _mm_clmulepi64_si128(q, poly, 0x00));
    return (uint32_t)_mm_extract_epi32(x, 1);
}
static bool have_clmul; /* set once with the tables (crc_init_all) */
#endif

static void crc_init_all(void)
{
    crc_init();
#if defined(__x86_64__)
    __builtin_cpu_init();
    have_clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
#endif
}

uint32_t rc_my_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
    pthread_once(&crc_once, crc_init_all);
    const uint32_t(*t)[256] = crc_table;
    crc = ~crc;
#if defined(__x86_64__)
    if (have_clmul && n >= 64) { /* shorter ones: the table is as quick */
        size_t m = n & ~(size_t)15;
        crc = crc_fold(crc, p, m);
        p += m, n -= m;
    }
#endif
    for (; n >= 8; p += 8, n -= 8) {
        uint32_t lo = crc ^ (uint32_t)rc_my_le(p, 4), hi = (uint32_t)rc_my_le(p + 4, 4);
        crc = t[7][lo & 0xff] ^ t[6][lo >> 8 & 0xff] ^ t[5][lo >> 16 & 0xff] ^ t[4][lo >> 24] ^ t[3][hi & 0xff] ^
              t[2][hi >> 8 & 0xff] ^ t[1][hi >> 16 & 0xff] ^ t[0][hi >> 24];
    }
    for (; n; p++, n--) crc = t[0][(crc ^ *p) & 0xff] ^ (crc >> 8);
    return ~crc;
}

bool rc_my_event_sum(const uint8_t *p, size_t n, bool *sums, uint32_t *sum)
{
    if (n >= RC_MY_HEADER_LEN && p[4] == RC_MYEV_FORMAT_DESCRIPTION) {
        rc_my_fde f;
        rc_error e;
        rc_error_clear(&e);
        if (rc_my_fde_parse(p, n, &f, &e) == RC_OK) *sums = f.checksum;
    }
    if (!*sums || n < RC_MY_HEADER_LEN + RC_MY_CHECKSUM_LEN) return false;
    *sum = rc_my_crc32(0, p, n - RC_MY_CHECKSUM_LEN);
    return true;
}

/* --- integers --- */

bool rc_my_packed(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
    if (*i >= n) return false;
    uint8_t b = p[*i];
    unsigned len = b < 0xfb ? 0 : b == 0xfc ? 2 : b == 0xfd ? 3 : b == 0xfe ? 8 : 9;
    if (len == 9 || n - *i - 1 < len) return false;
    *v = len ? rc_my_le(p + *i + 1, len) : b;
    *i += 1 + len;
    return true;
}

bool rc_my_varlen(const uint8_t *p, size_t n, size_t *i, uint64_t *v)
{
    if (*i >= n) return false;
    uint8_t b = p[*i];
    unsigned bytes = 1;
    while (bytes < 9 && (b >> (bytes - 1)) & 1) bytes++; /* one byte more per trailing 1 bit */
    if (n - *i < bytes) return false;
    if (bytes == 9) *v = rc_my_le(p + *i + 1, 8);
    else *v = rc_my_le(p + *i, bytes) >> bytes;
    *i += bytes;
    return true;
}

/* --- FORMAT_DESCRIPTION --- */

static void version_split(rc_my_fde *f)
{
    unsigned k = 0;
    const char *s = f->server_version;
    f->version[0] = f->version[1] = f->version[2] = 0;
    while (*s && k < 3) {
        unsigned x = 0;
        while (*s >= '0' && *s <= '9') x = x * 10 + (unsigned)(*s++ - '0');
        f->version[k++] = x;
        if (*s != '.') break;
        s++;
    }
    f->mariadb = strstr(f->server_version, "MariaDB") != NULL || f->version[0] >= 10;
}

void rc_my_fde_default(rc_my_fde *f)
{
    memset(f, 0, sizeof *f);
    f->binlog_version = 4;
    f->header_len = RC_MY_HEADER_LEN;
    /* enough to read the FDE itself and the events of a server that sends none first */
    f->post_len[RC_MYEV_QUERY] = 13, f->post_len[RC_MYEV_ROTATE] = 8, f->post_len[RC_MYEV_TABLE_MAP] = 8;
    f->post_len[RC_MYEV_WRITE_ROWS_V1] = f->post_len[RC_MYEV_UPDATE_ROWS_V1] = f->post_len[RC_MYEV_DELETE_ROWS_V1] = 8;
    f->post_len[RC_MYEV_WRITE_ROWS] = f->post_len[RC_MYEV_UPDATE_ROWS] = f->post_len[RC_MYEV_DELETE_ROWS] = 10;
    f->post_len[RC_MYEV_PARTIAL_UPDATE_ROWS] = 10;
    f->post_len[RC_MYEV_INCIDENT] = 2;
}

rc_status rc_my_fde_parse(const uint8_t *ev, size_t n, rc_my_fde *f, rc_error *err)
{
    enum { FIXED = 2 + 50 + 4 + 1 };
    if (n < RC_MY_HEADER_LEN + FIXED) return rc_error_set(err, RC_ERR_VALUE, 0, "FORMAT_DESCRIPTION_EVENT of %zu bytes is too short", n);
    const uint8_t *b = ev + RC_MY_HEADER_LEN;
    size_t bn = n - RC_MY_HEADER_LEN;
    memset(f, 0, sizeof *f);
    f->binlog_version = (uint16_t)rc_my_le(b, 2);
    memcpy(f->server_version, b + 2, 50);
    f->server_version[50] = 0;
    f->header_len = b[56];
    if (f->binlog_version != 4 || f->header_len < RC_MY_HEADER_LEN)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "binlog version %u with a %u-byte header is not read here (version 4 is: "
                            "MySQL 5.0 and later, MariaDB)", f->binlog_version, f->header_len);
    version_split(f);
    /* MySQL 5.6.1+ and MariaDB 5.3+ end the FDE with the checksum algorithm (and, when it is
     * CRC32, the checksum): the post-header lengths are what lies between */
    unsigned *v = f->version;
    bool has_alg = f->mariadb ? (v[0] > 5 || (v[0] == 5 && v[1] >= 3))
                              : (v[0] > 5 || (v[0] == 5 && (v[1] > 6 || (v[1] == 6 && v[2] >= 1))));
    size_t npost = bn - FIXED;
    if (has_alg) {
        if (npost < 5) return rc_error_set(err, RC_ERR_VALUE, 0, "FORMAT_DESCRIPTION_EVENT of %zu bytes lacks its checksum algorithm", n);
        uint8_t alg = b[bn - 5];
        if (alg != 0 && alg != 1 && alg != 0xff)
            return rc_error_set(err, RC_ERR_UNSUPPORTED, FIXED + npost - 5, "checksum algorithm %u is not known (0 none, 1 CRC32)", alg);
        f->checksum = alg == 1;
        npost -= 5;
    }
    if (npost > 255) npost = 255;
    for (size_t i = 0; i < npost; i++) f->post_len[i + 1] = b[FIXED + i];
    if (f->checksum) {
        /* the server computes it with LOG_EVENT_BINLOG_IN_USE_F clear: it sets that flag while
         * the file is open and clears it at close, without a new checksum */
        uint8_t head[RC_MY_HEADER_LEN];
        memcpy(head, ev, sizeof head);
        head[17] &= (uint8_t)~1u;
        uint32_t want = (uint32_t)rc_my_le(ev + n - 4, 4);
        uint32_t got = rc_my_crc32(rc_my_crc32(0, head, sizeof head), ev + sizeof head, n - 4 - sizeof head);
        if (want != got)
            return rc_error_set(err, RC_ERR_VALUE, 0, "FORMAT_DESCRIPTION_EVENT checksum mismatch (stored %08x, computed %08x): the "
                                "file is corrupted", want, got);
    }
    return RC_OK;
}

/* --- QUERY --- */

rc_status rc_my_query_parse(const rc_my_fde *f, const uint8_t *b, size_t n, rc_my_query *q, rc_error *err)
{
    memset(q, 0, sizeof *q);
    size_t post = f->post_len[RC_MYEV_QUERY] ? f->post_len[RC_MYEV_QUERY] : 13;
    if (n < post || post < 11) return truncated(err, "QUERY_EVENT", n);
    q->thread_id = (uint32_t)rc_my_le(b, 4);
    q->exec_time = (uint32_t)rc_my_le(b + 4, 4);
    size_t dblen = b[8];
    q->error_code = (uint16_t)rc_my_le(b + 9, 2);
    size_t svlen = post >= 13 ? (size_t)rc_my_le(b + 11, 2) : 0;
    if (n - post < svlen) return truncated(err, "QUERY_EVENT", n);
    const uint8_t *sv = b + post;
    /* the status variables: stop at the first code not known here (its length is unknown, and
     * the db and statement are found through svlen anyway) */
    for (size_t i = 0; i < svlen;) {
        uint8_t code = sv[i++];
        size_t left = svlen - i, need;
        switch (code) {
        case 0: need = 4; break;                       /* Q_FLAGS2 */
        case 1: need = 8; break;                       /* Q_SQL_MODE */
        case 3: need = 4; break;                       /* Q_AUTO_INCREMENT */
        case 4: need = 6; break;                       /* Q_CHARSET */
        case 7: case 8: case 18: need = 2; break;      /* LC_TIME_NAMES, CHARSET_DATABASE, utf8mb4 default */
        case 9: case 17: case 129: need = 8; break;    /* TABLE_MAP_FOR_UPDATE, DDL_LOGGED_WITH_XID, MariaDB XID */
        case 10: need = 4; break;                      /* MASTER_DATA_WRITTEN */
        case 13: case 128: need = 3; break;            /* MICROSECONDS, MariaDB HRNOW */
        case 16: case 19: case 20: case 130: need = 1; break;
        case 2: case 5: case 6: need = left ? 1u + sv[i] + (code == 2) : 1; break; /* length-prefixed (CATALOG: and a NUL) */
        case 11: /* Q_INVOKER: user and host, each length-prefixed */
            need = left ? 1u + sv[i] : 1;
            if (need < left) need += 1u + sv[i + need];
            break;
        case 12: { /* Q_UPDATED_DB_NAMES: a count, then NUL-terminated names (254: too many, none) */
            if (!left) return truncated(err, "QUERY_EVENT status variables", post + i);
            size_t k = i + 1, cnt = sv[i];
            for (size_t d = 0; cnt != 254 && d < cnt; d++) {
                while (k < svlen && sv[k]) k++;
                k++;
            }
            need = k - i;
            break;
        }
        default: i = svlen; continue;
        }
        if (need > left) return truncated(err, "QUERY_EVENT status variables", post + svlen);
        const uint8_t *x = sv + i;
        if (code == 1) q->has_sql_mode = true, q->sql_mode = rc_my_le(x, 8);
        if (code == 4) {
            q->has_charset = true;
            q->charset_client = (uint16_t)rc_my_le(x, 2);
            q->collation_connection = (uint16_t)rc_my_le(x + 2, 2);
            q->collation_server = (uint16_t)rc_my_le(x + 4, 2);
        }
        if (code == 5) q->time_zone = (rc_str){(const char *)x + 1, x[0]};
        i += need;
    }
    size_t at = post + svlen;
    if (n - at < dblen + 1) return truncated(err, "QUERY_EVENT", n);
    q->db = (rc_str){(const char *)b + at, dblen};
    at += dblen + 1; /* and its NUL */
    q->sql = (rc_str){(const char *)b + at, n - at};
    return RC_OK;
}

rc_status rc_my_rotate_parse(const rc_my_fde *f, const uint8_t *b, size_t n, rc_my_rotate *r, rc_error *err)
{
    size_t post = f->post_len[RC_MYEV_ROTATE] ? f->post_len[RC_MYEV_ROTATE] : 8;
    if (n < post || post < 8) return truncated(err, "ROTATE_EVENT", n);
    r->position = rc_my_le(b, 8);
    r->file = (rc_str){(const char *)b + post, n - post};
    if (!r->file.n || r->file.n > 512) return rc_error_set(err, RC_ERR_VALUE, post, "ROTATE_EVENT names a file of %zu bytes", r->file.n);
    return RC_OK;
}

/* --- GTIDs --- */

static rc_status gtid_tagged_parse(const uint8_t *b, size_t n, rc_my_gtid_ev *g, rc_error *err)
{
    size_t i = 1;
    uint64_t size, last_required;
    if (n < 1 || b[0] != 2) return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "GTID_TAGGED_LOG_EVENT of serialization version %u (2 is read here)", n ? b[0] : 0);
    if (!rc_my_varlen(b, n, &i, &size) || !rc_my_varlen(b, n, &i, &last_required)) return truncated(err, "GTID_TAGGED_LOG_EVENT", i);
    if (size < i || size > n) return rc_error_set(err, RC_ERR_VALUE, 1, "GTID_TAGGED_LOG_EVENT says it holds %llu bytes, its body has %zu",
                                                  (unsigned long long)size, n);
    bool has_tag = false, has_oct = false, has_osv = false;
    while (i < size) {
        size_t fat = i;
        uint64_t id, v = 0;
        if (!rc_my_varlen(b, size, &i, &id)) return truncated(err, "GTID_TAGGED_LOG_EVENT", i);
        if (id == 1) { /* the UUID: 16 varlen bytes */
            for (int k = 0; k < 16; k++) {
                if (!rc_my_varlen(b, size, &i, &v) || v > 255) return truncated(err, "GTID_TAGGED_LOG_EVENT UUID", i);
                g->uuid[k] = (uint8_t)v;
            }
            continue;
        }
        if (id == 3) { /* the tag: a length and its characters */
            if (!rc_my_varlen(b, size, &i, &v) || v > 32 || size - i < v)
                return rc_error_set(err, RC_ERR_VALUE, i, "GTID_TAGGED_LOG_EVENT tag of bad length at byte %zu", i);
            memcpy(g->tag, b + i, v);
            g->tag[v] = 0;
            i += v;
            has_tag = true;
            continue;
        }
        if (id > 11) {
            if (id <= last_required)
                return rc_error_set(err, RC_ERR_UNSUPPORTED, fat, "GTID_TAGGED_LOG_EVENT field %llu is required and not known here (a newer "
                                    "server)", (unsigned long long)id);
            break; /* an optional field of a newer server: its size is unknown, the rest too */
        }
        if (!rc_my_varlen(b, size, &i, &v)) return truncated(err, "GTID_TAGGED_LOG_EVENT", i);
        uint64_t sv = v & 1 ? ~(v >> 1) : v >> 1; /* the signed fields are zig-zag encoded */
        switch (id) {
        case 0: g->flags = (uint8_t)v; break;
        case 2: g->gno = sv; break;
        case 4: g->last_committed = sv; break;
        case 5: g->sequence_number = sv; break;
        case 6: g->immediate_commit_ts = v; break;
        case 7: g->original_commit_ts = v, has_oct = true; break;
        case 8: g->transaction_length = v; break;
        case 9: g->immediate_server_version = (uint32_t)v; break;
        case 10: g->original_server_version = (uint32_t)v, has_osv = true; break;
        default: break; /* 11: the commit group ticket */
        }
    }
    if (!has_tag) return rc_error_set(err, RC_ERR_VALUE, 0, "GTID_TAGGED_LOG_EVENT without a tag");
    if (!has_oct) g->original_commit_ts = g->immediate_commit_ts;
    if (!has_osv) g->original_server_version = g->immediate_server_version;
    return RC_OK;
}

rc_status rc_my_gtid_ev_parse(uint8_t type, const uint8_t *b, size_t n, rc_my_gtid_ev *g, rc_error *err)
{
    memset(g, 0, sizeof *g);
    if (type == RC_MYEV_GTID_TAGGED) return gtid_tagged_parse(b, n, g, err);
    if (n < 25) return truncated(err, rc_my_event_name(type), n);
    g->flags = b[0];
    memcpy(g->uuid, b + 1, 16);
    g->gno = rc_my_le(b + 17, 8);
    size_t i = 25;
    if (n - i < 17 || b[i] != 2) return RC_OK; /* 5.6: no logical clock */
    g->last_committed = rc_my_le(b + 26, 8);
    g->sequence_number = rc_my_le(b + 34, 8);
    i = 42;
    if (n - i >= 7) {
        g->immediate_commit_ts = rc_my_le(b + i, 7);
        i += 7;
        if (g->immediate_commit_ts & (1ull << 55)) {
            g->immediate_commit_ts &= ~(1ull << 55);
            if (n - i < 7) return truncated(err, rc_my_event_name(type), i);
            g->original_commit_ts = rc_my_le(b + i, 7);
            i += 7;
        } else {
            g->original_commit_ts = g->immediate_commit_ts;
        }
        if (i < n && !rc_my_packed(b, n, &i, &g->transaction_length)) return truncated(err, rc_my_event_name(type), i);
        if (n - i >= 4) {
            g->immediate_server_version = (uint32_t)rc_my_le(b + i, 4);
            i += 4;
            if (g->immediate_server_version & (1u << 31)) {
                g->immediate_server_version &= ~(1u << 31);
                if (n - i < 4) return truncated(err, rc_my_event_name(type), i);
                g->original_server_version = (uint32_t)rc_my_le(b + i, 4);
            } else {
                g->original_server_version = g->immediate_server_version;
            }
        }
    }
    return RC_OK;
}

void rc_my_gtid_ev_format(const rc_my_gtid_ev *g, rc_buf *out)
{
    rc_my_gtid_uuid_format(g->uuid, out);
    if (g->tag[0]) {
        rc_buf_putc(out, ':');
        rc_buf_puts(out, g->tag);
    }
    char t[24];
    int k = snprintf(t, sizeof t, ":%llu", (unsigned long long)g->gno);
    rc_buf_put(out, t, (size_t)k);
}

rc_status rc_maria_gtid_parse(const uint8_t *b, size_t n, rc_maria_gtid *g, rc_error *err)
{
    memset(g, 0, sizeof *g);
    if (n < 13) return truncated(err, "GTID_EVENT", n);
    g->seq = rc_my_le(b, 8);
    g->domain = (uint32_t)rc_my_le(b + 8, 4);
    g->flags = b[12];
    if (g->flags & RC_MARIA_FL_GROUP_COMMIT_ID) {
        if (n < 21) return truncated(err, "GTID_EVENT", n);
        g->commit_id = rc_my_le(b + 13, 8);
    }
    return RC_OK;
}

rc_status rc_maria_gtid_list_parse(const uint8_t *b, size_t n, rc_my_gtid_set *g, rc_error *err)
{
    if (n < 4) return truncated(err, "GTID_LIST_EVENT", n);
    uint32_t count = (uint32_t)rc_my_le(b, 4) & 0x0fffffff; /* the top 4 bits are flags */
    if ((n - 4) / 16 < count) return truncated(err, "GTID_LIST_EVENT", n);
    rc_my_gtid_set_parse(g, "", 0, NULL);
    for (uint32_t k = 0; k < count; k++) {
        const uint8_t *e = b + 4 + 16 * (size_t)k;
        if (rc_my_gtid_set_add_mariadb(g, (uint32_t)rc_my_le(e, 4), (uint32_t)rc_my_le(e + 4, 4), rc_my_le(e + 8, 8), err) != RC_OK)
            return err ? err->code : RC_ERR_VALUE;
    }
    return RC_OK;
}

rc_status rc_my_previous_gtids_parse(const uint8_t *b, size_t n, rc_my_gtid_set *g, rc_error *err)
{
    if (n < 8) return truncated(err, "PREVIOUS_GTIDS_LOG_EVENT", n);
    rc_my_gtid_set_parse(g, "", 0, NULL);
    /* untagged: a count of 8 bytes (the top one 0); tagged (8.3+): the format byte 1 first and
     * last, the count in the six between */
    bool tagged = b[7] == 1;
    if (b[7] > 1) return rc_error_set(err, RC_ERR_UNSUPPORTED, 7, "PREVIOUS_GTIDS_LOG_EVENT of format %u (0 and 1 are read here)", b[7]);
    uint64_t nsids = tagged ? rc_my_le(b + 1, 6) : rc_my_le(b, 8);
    size_t i = 8;
    for (uint64_t s = 0; s < nsids; s++) {
        if (n - i < 16) return truncated(err, "PREVIOUS_GTIDS_LOG_EVENT", i);
        const uint8_t *uuid = b + i;
        i += 16;
        rc_str tag = {"", 0};
        if (tagged) {
            uint64_t tl;
            if (!rc_my_varlen(b, n, &i, &tl) || tl > 32 || n - i < tl) return truncated(err, "PREVIOUS_GTIDS_LOG_EVENT tag", i);
            tag = (rc_str){(const char *)b + i, tl};
            i += tl;
        }
        if (n - i < 8) return truncated(err, "PREVIOUS_GTIDS_LOG_EVENT", i);
        uint64_t niv = rc_my_le(b + i, 8);
        i += 8;
        if ((n - i) / 16 < niv) return truncated(err, "PREVIOUS_GTIDS_LOG_EVENT", n);
        for (uint64_t k = 0; k < niv; k++, i += 16)
            if (rc_my_gtid_set_add_mysql_range(g, uuid, tag, rc_my_le(b + i, 8), rc_my_le(b + i + 8, 8), err) != RC_OK)
                return err ? err->code : RC_ERR_VALUE;
    }
    return RC_OK;
}

/* --- HEARTBEAT, XA_PREPARE, INCIDENT, statements --- */

rc_status rc_my_heartbeat_parse(uint8_t type, const uint8_t *b, size_t n, rc_my_heartbeat *h, rc_error *err)
{
    memset(h, 0, sizeof *h);
    if (type == RC_MYEV_HEARTBEAT) {
        h->file = (rc_str){(const char *)b, n};
        return RC_OK;
    }
    if (type != RC_MYEV_HEARTBEAT_V2) return rc_error_set(err, RC_ERR_VALUE, 0, "event type %u is not a heartbeat", type);
    size_t i = 0;
    while (i < n) {
        size_t at = i;
        uint8_t ft = b[i++];
        if (ft == 0) break; /* the end mark */
        uint64_t len;
        if (!rc_my_packed(b, n, &i, &len) || n - i < len) return truncated(err, "HEARTBEAT_LOG_EVENT_V2", i);
        if (ft == 1) {
            h->file = (rc_str){(const char *)b + i, len};
        } else if (ft == 2) {
            size_t k = 0;
            if (!rc_my_packed(b + i, len, &k, &h->position) || k != len)
                return rc_error_set(err, RC_ERR_VALUE, i, "HEARTBEAT_LOG_EVENT_V2 position of %llu bytes is not one packed integer",
                                    (unsigned long long)len);
            h->has_position = true;
        } else {
            return rc_error_set(err, RC_ERR_VALUE, at, "HEARTBEAT_LOG_EVENT_V2 field type %u is not known (1 file, 2 position)", ft);
        }
        i += len;
    }
    return RC_OK;
}

rc_status rc_my_xa_prepare_parse(const uint8_t *b, size_t n, rc_my_xa_prepare *x, rc_error *err)
{
    if (n < 13) return truncated(err, "XA_PREPARE_LOG_EVENT", n);
    x->one_phase = b[0] != 0;
    x->format_id = (int32_t)rc_my_le(b + 1, 4);
    uint64_t gl = rc_my_le(b + 5, 4), bl = rc_my_le(b + 9, 4);
    if (gl > 64 || bl > 64 || n - 13 < gl + bl) return rc_error_set(err, RC_ERR_VALUE, 5, "XA_PREPARE_LOG_EVENT xid lengths %llu + %llu do "
                                                                    "not fit", (unsigned long long)gl, (unsigned long long)bl);
    x->gtrid = (rc_str){(const char *)b + 13, gl};
    x->bqual = (rc_str){(const char *)b + 13 + gl, bl};
    return RC_OK;
}

rc_status rc_my_incident_parse(const rc_my_fde *f, const uint8_t *b, size_t n, rc_my_incident *in, rc_error *err)
{
    size_t post = f->post_len[RC_MYEV_INCIDENT] ? f->post_len[RC_MYEV_INCIDENT] : 2;
    if (n < post + 1 || post < 2) return truncated(err, "INCIDENT_EVENT", n);
    in->type = (uint16_t)rc_my_le(b, 2);
    size_t ml = b[post];
    if (n - post - 1 < ml) return truncated(err, "INCIDENT_EVENT", n);
    in->message = (rc_str){(const char *)b + post + 1, ml};
    return RC_OK;
}

rc_status rc_my_rows_query_parse(uint8_t type, const uint8_t *b, size_t n, rc_str *sql, rc_error *err)
{
    if (type == RC_MYEV_ROWS_QUERY) { /* a length byte (the statement cut at 255), then the whole statement */
        if (n < 1) return truncated(err, "ROWS_QUERY_LOG_EVENT", 0);
        *sql = (rc_str){(const char *)b + 1, n - 1};
    } else {
        *sql = (rc_str){(const char *)b, n};
    }
    return RC_OK;
}

/* --- TRANSACTION_PAYLOAD --- */

rc_status rc_my_payload_parse(const uint8_t *b, size_t n, rc_my_payload *t, rc_error *err)
{
    memset(t, 0, sizeof *t);
    size_t i = 0;
    bool has_size = false;
    while (i < n) {
        size_t at = i;
        uint64_t ft, len, v;
        if (!rc_my_packed(b, n, &i, &ft)) return truncated(err, "TRANSACTION_PAYLOAD_EVENT", i);
        if (ft == 0) break; /* the end of the header */
        if (!rc_my_packed(b, n, &i, &len) || n - i < len) return truncated(err, "TRANSACTION_PAYLOAD_EVENT", i);
        size_t k = 0;
        if (ft <= 3 && (!rc_my_packed(b + i, len, &k, &v) || k != len))
            return rc_error_set(err, RC_ERR_VALUE, at, "TRANSACTION_PAYLOAD_EVENT header field %llu is not one packed integer",
                                (unsigned long long)ft);
        if (ft == 1) t->payload_size = v, has_size = true;
        else if (ft == 2) t->compression = v;
        else if (ft == 3) t->uncompressed_size = v;
        i += len; /* fields of newer servers are skipped by their length */
    }
    t->data_off = i;
    if (!has_size) t->payload_size = n - i;
    if (t->payload_size > n - i)
        return rc_error_set(err, RC_ERR_VALUE, i, "TRANSACTION_PAYLOAD_EVENT payload of %llu bytes does not fit in the %zu left",
                            (unsigned long long)t->payload_size, n - i);
    if (t->compression != RC_MY_COMPRESSION_ZSTD && t->compression != RC_MY_COMPRESSION_NONE)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "TRANSACTION_PAYLOAD_EVENT compression type %llu is not known (0 zstd, 255 none)",
                            (unsigned long long)t->compression);
    return RC_OK;
}

enum { PAYLOAD_MAX = 1 << 30 }; /* MySQL's binlog_transaction_compression caps a payload at 1 GiB */

rc_status rc_my_payload_inflate(const rc_my_payload *t, const uint8_t *b, size_t n, rc_buf *out, rc_error *err)
{
    rc_buf_reset(out);
    const uint8_t *src = b + t->data_off;
    size_t sn = (size_t)t->payload_size;
    if (t->compression == RC_MY_COMPRESSION_NONE) {
        rc_buf_put(out, src, sn);
        return out->err == RC_OK ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    if (t->uncompressed_size > PAYLOAD_MAX)
        return rc_error_set(err, RC_ERR_LIMIT, 0, "TRANSACTION_PAYLOAD_EVENT of %llu bytes uncompressed is over the 1 GiB limit",
                            (unsigned long long)t->uncompressed_size);
    ZSTD_DStream *z = ZSTD_createDStream();
    if (!z) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    ZSTD_inBuffer in = {src, sn, 0};
    rc_status st = RC_OK;
    size_t ret = 1;
    while (ret != 0) {
        size_t room = t->uncompressed_size > out->len ? (size_t)t->uncompressed_size - out->len : 0;
        if (room < 4096) room = 4096;
        char *w = rc_buf_reserve(out, room);
        if (!w || out->len + room > PAYLOAD_MAX) {
            st = rc_error_set(err, RC_ERR_LIMIT, 0, "TRANSACTION_PAYLOAD_EVENT decompresses to more than 1 GiB");
            break;
        }
        ZSTD_outBuffer o = {w, room, 0};
        ret = ZSTD_decompressStream(z, &o, &in);
        if (ZSTD_isError(ret)) {
            st = rc_error_set(err, RC_ERR_VALUE, t->data_off + in.pos, "TRANSACTION_PAYLOAD_EVENT: zstd: %s", ZSTD_getErrorName(ret));
            break;
        }
        rc_buf_commit(out, o.pos);
        if (ret != 0 && in.pos == in.size && o.pos < o.size) {
            st = rc_error_set(err, RC_ERR_VALUE, t->data_off + sn, "TRANSACTION_PAYLOAD_EVENT: the zstd frame is cut off");
            break;
        }
    }
    ZSTD_freeDStream(z);
    if (st == RC_OK && t->uncompressed_size && out->len != t->uncompressed_size)
        st = rc_error_set(err, RC_ERR_VALUE, 0, "TRANSACTION_PAYLOAD_EVENT decompresses to %zu bytes, its header says %llu", out->len,
                          (unsigned long long)t->uncompressed_size);
    return st;
}
