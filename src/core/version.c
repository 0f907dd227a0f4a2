/* rc_version (rowcast/api.h): RC_VERSION comes from the build (CMakeLists.txt, the project's
 * version). */
#include "rowcast/api.h"

const char *rc_version(void)
{
    return RC_VERSION;
}
