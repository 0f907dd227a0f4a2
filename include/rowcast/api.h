/* The library's version, and RC_API, which marks what librowcast exports: every function and
 * object the installed headers (include/rowcast/) declare, and nothing else. The library is
 * compiled with -fvisibility=hidden and the installed librowcast.a is one object whose hidden
 * names were made local (CMakeLists.txt), so a name without RC_API can neither be linked from
 * outside nor collide with a name of the program or of another library. */
#ifndef ROWCAST_API_H
#define ROWCAST_API_H

#if defined(__GNUC__) || defined(__clang__)
#define RC_API __attribute__((visibility("default")))
#else
#define RC_API
#endif

/* The library's version, "MAJOR.MINOR.PATCH": the one `pkg-config --modversion rowcast` and
 * `rowcast --version` say (src/core/version.c). */
RC_API const char *rc_version(void);

#endif
