#include "test.h"
void group_accuracy(void) {}
