/* src/util/sysmem.h */
#include "util/sysmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double sysmem_available_bytes(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return -1;
    char line[256];
    double v = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "MemAvailable:", 13)) {
            v = atof(line + 13) * 1024.0;
            break;
        }
    fclose(f);
    return v;
}
