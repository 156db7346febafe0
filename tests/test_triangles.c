/* test_triangles.c - group 1 for the triangle queries */
#include "test.h"
void group_tri_contract(void) {}
