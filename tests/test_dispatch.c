#include "test.h"
void group_dispatch(void) {}
