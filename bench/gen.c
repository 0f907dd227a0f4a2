/* rowcast-bench-gen N: writes the standard workload as native JSON lines on stdout, the
 * input of every conversion benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include "formats/native.h"
#include "workload.h"

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    rc_arena a;
    rc_arena_init(&a);
    rc_event *evs = malloc(sizeof *evs * (n ? n : 1));
    if (!evs) return 1;
    workload_make(WORKLOAD_SEED, n, &a, evs);
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_error err;
    rc_error_clear(&err);
    for (size_t i = 0; i < n; i++) {
        rc_buf_reset(&b);
        if (rc_native_encode(NULL, &evs[i], &b, &err) != RC_OK) return fprintf(stderr, "%s\n", err.message), 1;
        rc_buf_putc(&b, '\n');
        fwrite(b.data, 1, b.len, stdout);
    }
    rc_buf_fini(&b);
    rc_arena_fini(&a);
    free(evs);
    return 0;
}
