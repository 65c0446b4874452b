#include "chci.h"
int chci_placeholder(void) { return 0; }
