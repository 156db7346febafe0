#include "test.h"
void group_differential(void) {}
