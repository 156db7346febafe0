#include "test.h"
void group_golden(void) {}
