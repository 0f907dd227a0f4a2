/* See checkpoint.h. Layout (text, one field per line):
 *   rowcast-checkpoint 1
 *   input <path as given on the command line>
 *   offset <byte offset of the first line not yet acknowledged>
 *   line <number of the last acknowledged line> */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/checkpoint.h"

int checkpoint_read(const char *path, checkpoint *ck)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) return 0;
        fprintf(stderr, "rowcast: cannot read checkpoint %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[4200];
    int version = 0, have = 0;
    memset(ck, 0, sizeof *ck);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "rowcast-checkpoint %d", &version) == 1) have |= 1;
        else if (!strncmp(line, "input ", 6) && strlen(line + 6) < sizeof ck->input) strcpy(ck->input, line + 6), have |= 2;
        else if (sscanf(line, "offset %" SCNu64, &ck->offset) == 1) have |= 4;
        else if (sscanf(line, "line %" SCNu64, &ck->line) == 1) have |= 8;
    }
    fclose(f);
    if (version != 1 || have != 15) {
        fprintf(stderr, "rowcast: %s is not a rowcast checkpoint (version 1 with input, offset and line)\n", path);
        return -1;
    }
    return 1;
}

int checkpoint_write(const char *path, const checkpoint *ck, bool sync)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "rowcast: cannot write checkpoint %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "rowcast-checkpoint 1\ninput %s\noffset %" PRIu64 "\nline %" PRIu64 "\n", ck->input, ck->offset, ck->line);
    int bad = fflush(f) != 0 || (sync && fsync(fileno(f)) != 0);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "rowcast: cannot write checkpoint %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
