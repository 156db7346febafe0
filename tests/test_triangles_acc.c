#include "test.h"
void group_tri_accuracy(void) {}
