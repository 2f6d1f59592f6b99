#include <assert.h>
int main(void) { return 0; }
