#include "cuzk/cuzk.h"
#include <stdio.h>
int main(void) { printf("cuzk %s\n", CUZK_VERSION); return 0; }
